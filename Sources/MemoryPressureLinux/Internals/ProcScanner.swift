#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hot path of a `/proc` scan: per-process files read with raw `open`/`read`/`close` into
/// one buffer reused for every file of the scan, their paths written in place into one reused
/// path buffer (`<procRoot>/<pid>/<file>`), and the directory listed with `readdir` parsing
/// each entry's name where it lies. No `String` is made per file or per path, and nothing of
/// Foundation is used; the parsers (``ProcBytes``) read the buffer in place.
///
/// What is read per process, against earlyoom (`kill.c`, `find_largest_process()` and
/// `is_larger()`, in rfjakob/earlyoom at v1.9.0-9-g5c3e3ea; and `meminfo.c` for its helpers):
///
/// - earlyoom reads, for every numeric `/proc` entry above pid 2, `/proc/<pid>/stat` (with
///   `fopen`/`fread` of up to 511 bytes and `sscanf` of state, ppid, num_threads and rss:
///   `parse_proc_pid_stat()`), skips it as a kernel thread if its ppid is 2, then
///   `/proc/<pid>/oom_score` (`fopen` + `fscanf("%d")`: `read_proc_file_integer()`), and only
///   for a process that beats the current victim `/proc/<pid>/oom_score_adj` (the same way);
///   for the final victim alone `comm`, `cmdline` and a `stat()` of `/proc/<pid>` for its uid
///   (`fill_informative_fields()`). `/proc/meminfo` is read once per poll, outside the scan
///   (`parse_meminfo()`). earlyoom v1.7 (Debian's package) reads `oom_score` first for every
///   entry and `statm`, `oom_score_adj`, `comm` and the uid only for a process that beats the
///   victim.
/// - This scan ranks every process, not only the largest, and `linux-oom` needs what the kernel's
///   `oom_badness()` weighs, which only `status` gives (RSS, swap entries and page tables:
///   `stat`/`statm` have no swap or page tables): per process `status` (name, state, `Kthread`,
///   uid, `VmRSS`, `VmSwap`, `VmPTE`) and `oom_score_adj`, and `oom_score` only when the caller
///   asks for the kernel's score (for comparison; no policy ranks by it). Kernel threads —
///   most `/proc` entries of a small machine — cost one `readlink` each instead of a `status`
///   read: see ``kernelThreadCandidates()``.
final class ProcScanner {
    /// The outcome of reading one file into the buffer.
    enum FileRead: Equatable {
        /// The file was read whole: its bytes are the first `count` of ``contents``.
        case read(count: Int)
        /// The file does not exist (`ENOENT`, `ESRCH`: for `/proc/<pid>`, the process is gone).
        case missing
        /// The file exists but could not be read, with the errno.
        case unreadable(Int32)
    }

    /// The reused file buffer (grows by doubling when a file fills it, to 64 MiB at most; never
    /// shrinks).
    private var buffer: UnsafeMutableRawBufferPointer
    /// The reused path: the proc root and a slash, then room for `<pid>/<file>` and the NUL.
    private let path: UnsafeMutablePointer<CChar>
    private let rootLength: Int
    private static let suffixCapacity = 64

    /// A scanner of the `/proc`-style tree at `procRoot`.
    init(procRoot: String) {
        let root = Array(procRoot.utf8)
        rootLength = root.count + 1
        path = .allocate(capacity: rootLength + Self.suffixCapacity)
        for (index, byte) in root.enumerated() { path[index] = CChar(bitPattern: byte) }
        path[root.count] = 0x2F  // "/"
        path[rootLength] = 0
        buffer = .allocate(byteCount: 4096, alignment: 16)
    }

    deinit {
        path.deallocate()
        buffer.deallocate()
    }

    /// The bytes of the last file read (valid until the next read).
    func contents(_ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[0..<count])
    }

    // MARK: paths

    /// Writes `<pid>/<file>` and a NUL after the root in the path buffer.
    private func setPath(pid: Int32, file: StaticString) {
        var cursor = rootLength
        // The pid's digits, most significant first (pids are positive; 10 digits at most).
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var value = UInt32(bitPattern: pid)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[count] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
                value /= 10
                count += 1
            } while value > 0
            while count > 0 {
                count -= 1
                path[cursor] = CChar(bitPattern: raw[count])
                cursor += 1
            }
        }
        path[cursor] = 0x2F
        cursor += 1
        file.withUTF8Buffer { name in
            for byte in name {
                path[cursor] = CChar(bitPattern: byte)
                cursor += 1
            }
        }
        path[cursor] = 0
    }

    // MARK: reading

    /// Reads `<procRoot>/<pid>/<file>` whole into the buffer with `open`/`read`/`close`; a file
    /// of `SystemCalls.maximumFileBytes` or more is `.unreadable(EFBIG)`.
    ///
    /// - Complexity: O(file size).
    func read(pid: Int32, file: StaticString) -> FileRead {
        setPath(pid: pid, file: file)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return Self.failure(errno) }
        defer { close(descriptor) }
        var count = 0
        while true {
            if count == buffer.count {
                guard count < SystemCalls.maximumFileBytes else { return .unreadable(EFBIG) }
                grow()
            }
            let got = systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
            if got == 0 { return .read(count: count) }
            if got < 0 {
                if errno == EINTR { continue }
                return Self.failure(errno)
            }
            count += got
        }
    }

    /// Whether `<procRoot>/<pid>/exe` is absent (`readlink` fails with `ENOENT`): the task has
    /// no memory map, so it is a kernel thread (the kernel's `get_task_exe_file()` gives none for
    /// `PF_KTHREAD` tasks or tasks without an `mm`) — or it vanished. Any other outcome
    /// (a link, `EACCES` without ptrace access) is `false`: the caller reads `status` instead.
    ///
    /// - Complexity: O(1)
    func hasNoExecutable(pid: Int32) -> Bool {
        setPath(pid: pid, file: "exe")
        var target: (UInt64, UInt64) = (0, 0)
        let result = withUnsafeMutableBytes(of: &target) { raw in
            readlink(path, raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)
        }
        return result < 0 && errno == ENOENT
    }

    /// A failed read classified by its errno.
    private static func failure(_ code: Int32) -> FileRead {
        code == ENOENT || code == ESRCH ? .missing : .unreadable(code)
    }

    private func grow() {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
        larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
        buffer = larger
    }

    // MARK: listing

    /// The process ids under the proc root (its all-digit entries that fit an `Int32`), in
    /// increasing order, each name parsed where `readdir` left it.
    ///
    /// - Complexity: O(n log n) in the number of entries.
    func processIDs() -> [ProcessID] {
        path[rootLength] = 0
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        // Read the name where it lies: a record can end before the 256 bytes `d_name` is
        // declared with.
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        var ids: [ProcessID] = []
        while let entry = readdir(directory) {
            let name = (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: UInt8.self)
            var value: Int64 = 0
            var index = 0
            while name[index] >= 0x30 && name[index] <= 0x39 && value <= Int64(Int32.max) {
                value = value * 10 + Int64(name[index] &- 0x30)
                index += 1
            }
            if index > 0 && name[index] == 0 && value <= Int64(Int32.max) {
                ids.append(ProcessID(rawValue: Int32(value)))
            }
        }
        ids.sort()
        return ids
    }

    /// The pids that may be kernel threads, in increasing order: `kthreadd` (pid 2, if
    /// `<procRoot>/2/comm` says so) and its children (`2/task/2/children`, one read). Every
    /// kernel thread is forked by `kthreadd` (`kernel/kthread.c`, `kthreadd()` →
    /// `create_kthread()`); so are user-mode helpers (`kernel/umh.c`, `CLONE_PARENT`), which is
    /// why each candidate is confirmed with ``hasNoExecutable(pid:)`` before its `status` is
    /// skipped. earlyoom and procps take "ppid is 2" alone as the kernel-thread test
    /// (`is_larger()` in earlyoom's `kill.c`). Empty when the tree has no such files (fixtures,
    /// kernels without `CONFIG_PROC_CHILDREN`, a pid namespace whose pid 2 is not `kthreadd`).
    ///
    /// - Complexity: O(k log k) for k children.
    func kernelThreadCandidates() -> [Int32] {
        guard case .read(let count) = read(pid: 2, file: "comm"),
            ProcBytes.equals(contents(count), "kthreadd\n")
        else { return [] }
        guard case .read(let listed) = read(pid: 2, file: "task/2/children") else { return [] }
        var pids: [Int32] = [2]
        let bytes = contents(listed)
        var value: Int64 = 0
        var inNumber = false
        for byte in bytes {
            if byte >= 0x30 && byte <= 0x39 {
                value = min(value * 10 + Int64(byte &- 0x30), Int64(Int32.max) + 1)
                inNumber = true
            } else {
                if inNumber && value <= Int64(Int32.max) { pids.append(Int32(value)) }
                value = 0
                inNumber = false
            }
        }
        if inNumber && value <= Int64(Int32.max) { pids.append(Int32(value)) }
        pids.sort()
        return pids
    }
}

/// `read(2)` (a member named `read` would shadow it inside ``ProcScanner``).
private func systemRead(_ descriptor: Int32, _ destination: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, destination, count)
}
