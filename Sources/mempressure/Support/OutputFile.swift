import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Writing an output file without harming what is there (exit 74 on any failure):
/// - a regular file, or a new path, is written to a temporary file in the same directory and
///   renamed over it, keeping the file's mode and (when permitted) its owner and group: a failed
///   or interrupted run never leaves it half-written;
/// - a symbolic link is followed to its target, and the target is written as above (the link
///   stays a link);
/// - a character device (`/dev/null`, a terminal), a FIFO (`>(…)`), a socket or `-` (standard
///   output) is written in place, as a stream;
/// - a path that names one of this process's open descriptors (`/dev/stdout`, `/dev/stderr`,
///   `/dev/fd/N`, `/proc/self/fd/N`) is written to that descriptor, as `-` is to standard output:
///   following it to the file or pipe behind it would replace a file the shell opened for the
///   process (and lose what the process writes there) or fail on a pipe;
/// - a directory or a block device is refused.
///
/// The temporary file is removed if the run is interrupted by SIGINT or SIGTERM.
enum OutputFile {
    /// What a path names, after following symbolic links.
    enum Kind: Equatable {
        /// `-`: standard output.
        case standardOutput
        /// Nothing yet: a new file in an existing directory.
        case newFile
        /// A regular file.
        case regularFile
        /// A character device, a FIFO or a socket: written in place.
        case stream
        /// One of this process's open descriptors (`/dev/stdout`, `/dev/fd/3` …): written to it.
        case descriptor(Int32)
    }

    /// Checks, before any work is done, that `path` can be written: `-`, or a path whose
    /// directory exists and is writable and which is not a directory or a block device (a
    /// symbolic link is checked at its target). `option` (such as `--svg`) names it in errors.
    ///
    /// - Throws: ``CLIError`` with exit 74.
    static func validate(_ path: String, option: String) throws {
        _ = try target(of: path, option: option)
    }

    /// Checks, before any work is done, every output of a command: each can be written (see
    /// ``validate(_:option:)``), none is the same file as one of `inputs` (same device and inode,
    /// so a symbolic or hard link to an input is caught too: writing it would replace what is
    /// being read), and no two outputs are the same file. `-`, a path that does not exist yet and
    /// a stream (`/dev/null`, a FIFO) are never the same file as an input. Standard input may be
    /// one input only (``InputFile/checkStandardInputReadOnce(_:)``).
    ///
    /// - Throws: ``CLIError`` with exit 64 naming both paths, or exit 74.
    static func validate(_ outputs: [(path: String?, option: String)], inputs: [String]) throws {
        try InputFile.checkStandardInputReadOnce(inputs)
        var seen: [(path: String, option: String, key: String)] = []
        for (path, option) in outputs {
            guard let path else { continue }
            let (resolved, kind) = try target(of: path, option: option)
            guard kind == .regularFile || kind == .newFile else { continue }
            if let id = FileIdentity(resolved), let input = inputs.first(where: { FileIdentity($0) == id }) {
                throw CLIError.usage(
                    "\(option) \(path) is the same file as the input \(input): writing it would replace what is read; "
                        + "choose another output path")
            }
            // An existing file by device and inode; a new one by its absolute path.
            let key =
                FileIdentity(resolved).map { "\($0.device):\($0.inode)" }
                ?? (resolved.hasPrefix("/") ? resolved : FileManager.default.currentDirectoryPath + "/" + resolved)
                .standardizedPath
            if let other = seen.first(where: { $0.key == key }) {
                throw CLIError.usage(
                    "\(option) \(path) and \(other.option) \(other.path) are the same file: choose two paths")
            }
            seen.append((path, option, key))
        }
    }

    /// A file's identity: its device and inode (symbolic links followed).
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64

        /// The identity of the file at `path`, or `nil` for `-` or a path that cannot be examined.
        init?(_ path: String) {
            guard path != "-", !path.isEmpty else { return nil }
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }

    }

    /// Writes `text` to `path` (see the type's rules).
    ///
    /// - Throws: ``CLIError`` with exit 74, naming the path and the system's reason.
    static func write(_ text: String, to path: String, option: String = "output") throws {
        let (resolved, kind) = try target(of: path, option: option)
        switch kind {
        case .standardOutput, .descriptor(STDOUT_FILENO):
            try StandardOutput.write(text)
        case .descriptor(let descriptor):
            if let code = writeAll(text, to: descriptor) { throw failure(path, "cannot write", code) }
        case .stream:
            try writeInPlace(text, to: resolved, shownAs: path)
        case .newFile, .regularFile:
            try replaceAtomically(resolved, with: text, existing: kind == .regularFile, shownAs: path)
        }
    }

    // MARK: Resolving the target

    /// The path to write (symbolic links followed) and what it is.
    static func target(of path: String, option: String) throws -> (path: String, kind: Kind) {
        if path == "-" { return (path, .standardOutput) }
        guard !path.isEmpty else { throw CLIError.notWritable("\(option): expected a file name, found nothing") }
        var resolved = path
        // Follow a chain of links (a loop or a very long chain is refused, as the kernel does).
        for _ in 0..<40 {
            if let descriptor = descriptor(named: resolved) {
                guard fcntl(descriptor, F_GETFD) != -1 else {
                    throw CLIError.notWritable("\(path): names descriptor \(descriptor), which is not open")
                }
                return (resolved, .descriptor(descriptor))
            }
            var info = stat()
            guard lstat(resolved, &info) == 0 else {
                let code = errno
                guard code == ENOENT else { throw failure(path, "cannot be examined", code) }
                try checkDirectory(of: resolved, for: path)
                return (resolved, .newFile)
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                guard let destination = readLink(resolved) else { throw failure(path, "cannot read the link", errno) }
                let linkDirectory = (resolved as NSString).deletingLastPathComponent
                resolved =
                    destination.hasPrefix("/") || linkDirectory.isEmpty
                    ? destination : linkDirectory + "/" + destination
                continue
            case S_IFDIR:
                throw CLIError.notWritable("\(path): is a directory, expected a file name for \(option)")
            case S_IFBLK:
                throw CLIError.notWritable("\(path): is a block device; refusing to write \(option) there")
            case S_IFREG:
                guard access(resolved, W_OK) == 0 else { throw failure(path, "is not writable", errno) }
                try checkDirectory(of: resolved, for: path)
                return (resolved, .regularFile)
            default:  // character device, FIFO, socket
                return (resolved, .stream)
            }
        }
        throw CLIError.notWritable("\(path): too many levels of symbolic links")
    }

    /// The descriptor `path` names if it names one of this process's descriptors: `/dev/stdout`,
    /// `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` or `/proc/PID/fd/N` with this process's PID.
    static func descriptor(named path: String) -> Int32? {
        let number: Substring?
        switch path {
        case "/dev/stdout": number = "1"
        case "/dev/stderr": number = "2"
        default:
            number =
                ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"].lazy.compactMap { prefix in
                    path.hasPrefix(prefix) ? path.dropFirst(prefix.count) : nil
                }.first
        }
        guard let number, let descriptor = Int32(number), descriptor >= 0 else { return nil }
        return descriptor
    }

    /// Throws unless the directory that holds `resolved` exists and new files can be made in it.
    private static func checkDirectory(of resolved: String, for path: String) throws {
        var directory = (resolved as NSString).deletingLastPathComponent
        if directory.isEmpty { directory = "." }
        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw CLIError.notWritable("\(path): directory \(directory) does not exist")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError.notWritable("\(path): \(directory) is not a directory")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw failure(path, "cannot create files in \(directory)", errno)
        }
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func failure(_ path: String, _ what: String, _ code: Int32) -> CLIError {
        CLIError.notWritable("\(path): \(what) (\(String(cString: strerror(code))))")
    }

    // MARK: Writing

    /// Writes every byte of `text` to `descriptor`, retrying interrupted and partial writes.
    static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        bytes.removeAll()
        return nil
    }

    /// A character device, FIFO or socket: opened for writing and written as it is.
    private static func writeInPlace(_ text: String, to resolved: String, shownAs path: String) throws {
        var descriptor = open(resolved, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        if descriptor < 0 && errno == ENXIO {
            descriptor = connectToSocket(resolved)
        }
        guard descriptor >= 0 else { throw failure(path, "cannot open for writing", errno) }
        if let code = writeAll(text, to: descriptor) {
            close(descriptor)
            throw failure(path, "cannot write", code)
        }
        guard close(descriptor) == 0 || errno == EINTR else { throw failure(path, "cannot write", errno) }
    }

    /// A stream connection to the Unix socket at `path`, or -1 (errno set).
    private static func connectToSocket(_ path: String) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            errno = code
            return -1
        }
        return descriptor
    }

    /// A regular file or a new path: a temporary file beside it, then a rename over it.
    private static func replaceAtomically(_ resolved: String, with text: String, existing: Bool, shownAs path: String)
        throws
    {
        var directory = (resolved as NSString).deletingLastPathComponent
        if directory.isEmpty { directory = "." }
        let name = (resolved as NSString).lastPathComponent
        var original = stat()
        let hasOriginal = existing && stat(resolved, &original) == 0
        let mask = umask(0)
        umask(mask)
        let mode = hasOriginal ? original.st_mode & 0o7777 : 0o666 & ~mask

        let temporary = directory + "/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.unregister() }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(path, "cannot create a temporary file in \(directory)", errno) }
        var problem: (String, Int32)? = nil
        if let code = writeAll(text, to: descriptor) {
            problem = ("cannot write", code)
        } else if hasOriginal, fchown(descriptor, original.st_uid, original.st_gid) != 0, errno != EPERM {
            problem = ("cannot keep the file's owner", errno)
        } else if fchmod(descriptor, mode) != 0 {
            problem = ("cannot keep the file's mode", errno)
        } else if fsync(descriptor) != 0 && errno != EINVAL {
            problem = ("cannot write", errno)
        }
        if close(descriptor) != 0 && problem == nil && errno != EINTR { problem = ("cannot write", errno) }
        // A test hook: hold the finished temporary file this many seconds before the rename, so a
        // test can interrupt the run there (tests/HostileInputTests: SIGTERM removes it).
        if let delay = ProcessInfo.processInfo.environment["MEMPRESSURE_TEST_RENAME_DELAY"].flatMap(Double.init),
            delay > 0, delay < 60
        {
            usleep(UInt32(delay * 1_000_000))
        }
        if problem == nil && rename(temporary, resolved) != 0 { problem = ("cannot replace the file", errno) }
        if let (what, code) = problem {
            unlink(temporary)
            throw failure(path, what, code)
        }
    }
}

/// The temporary file being written, removed by the SIGINT/SIGTERM handler if the run is
/// interrupted before it is renamed. The handler may run on any thread, so the path is published
/// through an atomic; each path's C string is kept for the life of the process (a handler that
/// read it just before it was replaced must not find it freed), one small string per file written.
enum TemporaryFiles {
    /// The address of the temporary file's path as a C string, or 0.
    private static let current = Atomic<UInt>(0)

    /// Installs the handlers, once.
    private static let installHandlers: Void = {
        signal(SIGINT, TemporaryFiles.handler)
        signal(SIGTERM, TemporaryFiles.handler)
    }()

    /// Records `path` as the temporary file in progress (and installs the handlers once).
    static func register(_ path: String) {
        _ = installHandlers
        guard let copy = strdup(path) else { return }
        current.store(UInt(bitPattern: copy), ordering: .releasing)
    }

    /// Forgets the temporary file (it was renamed or removed).
    static func unregister() {
        current.store(0, ordering: .releasing)
    }

    /// Removes the temporary file, then dies of the signal as if no handler were installed. Only
    /// async-signal-safe calls (an atomic load, unlink, signal, raise).
    private static let handler: @convention(c) (Int32) -> Void = { signal in
        let saved = errno
        if let path = UnsafePointer<CChar>(bitPattern: TemporaryFiles.current.load(ordering: .acquiring)) {
            unlink(path)
        }
        Glibc.signal(signal, SIG_DFL)
        errno = saved
        raise(signal)
    }
}

extension String {
    /// The path with `.`, `..` and repeated slashes resolved (no link followed).
    fileprivate var standardizedPath: String { (self as NSString).standardizingPath }
}
