#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place the module calls the C library: reading whole files, checking for files, the
/// page size, and (for ``SyntheticProcTree`` only) creating directories and writing files. Everything else in the module goes through ``ProcFileSystem`` or here,
/// except the per-process files of a process-table scan, which ``ProcScanner`` reads into a
/// reused buffer.
enum SystemCalls {
    /// The outcome of reading one file.
    enum FileRead: Equatable {
        /// The file's contents, decoded as UTF-8 (invalid bytes replaced).
        case contents(String)
        /// The file does not exist (`ENOENT`, `ESRCH`: for `/proc/<pid>`, the process is gone).
        case missing
        /// The file exists but could not be read, with the errno.
        case unreadable(Int32)
    }

    /// The most bytes one file is read to: 64 MiB. The largest `/proc` file a reader opens is a
    /// process's `cmdline`, at most its arguments and environment (a quarter of the stack limit,
    /// execve(2)); a root that is not `/proc` may name a file without end (`/dev/zero`).
    static let maximumFileBytes = 64 << 20

    /// Reads the whole file at `path` with `open`/`read` (sizes of `/proc` files are not known
    /// in advance: `stat` reports 0); a file of ``maximumFileBytes`` or more is
    /// `.unreadable(EFBIG)`.
    static func readFile(_ path: String) -> FileRead {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return failure(errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return failure(errno)
            }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count >= maximumFileBytes { return .unreadable(EFBIG) }
        }
        return .contents(String(decoding: bytes, as: UTF8.self))
    }

    /// A failed read classified by its errno.
    private static func failure(_ code: Int32) -> FileRead {
        code == ENOENT || code == ESRCH ? .missing : .unreadable(code)
    }

    /// Whether `path` exists.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The id of this process.
    static func currentProcessID() -> Int32 {
        getpid()
    }

    /// This machine's page size in bytes.
    static func pageSize() -> Int {
        Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Creates directory `path` and its missing parents; returns the errno on failure.
    static func makeDirectories(_ path: String) -> Int32? {
        if exists(path) { return nil }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return errno }
        }
        return nil
    }

    /// Writes `text` to `path`, creating or truncating it (no `fsync`: fixtures are scratch
    /// data); returns the errno on failure.
    static func writeFile(_ path: String, _ text: String) -> Int32? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return nil
    }
}
