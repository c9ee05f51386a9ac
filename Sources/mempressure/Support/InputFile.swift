import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reading an input file, with the documented errors: exit 66 when it is missing or unreadable,
/// 65 when it is not UTF-8 text or larger than ``maximumSize``.
enum InputFile {
    /// The largest input file: 256 MiB (a 100,000-app snapshot is about 15 MiB). Reading stops
    /// there, so `/dev/zero` or an endless pipe cannot exhaust memory.
    static let maximumSize = 256 << 20

    /// The name error messages use for `path`: `<stdin>` for `-`.
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path.excerpt(limit: 200) }

    /// Whether `path` names standard input: `-`, `/dev/stdin`, `/dev/fd/0` or `/proc/self/fd/0`.
    static func namesStandardInput(_ path: String) -> Bool {
        ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/\(getpid())/fd/0"].contains(path)
    }

    /// Refuses a command's inputs when more than one names standard input: it can be read once,
    /// and a second read would see nothing (an empty sample, or a misleading parse error).
    ///
    /// - Throws: ``CLIError`` with exit 64 naming both.
    static func checkStandardInputReadOnce(_ inputs: [String]) throws {
        let named = inputs.filter(namesStandardInput)
        guard named.count > 1 else { return }
        throw CLIError.usage(
            "standard input is given twice (\(named[0]) and \(named[1])): it can be read only once; save it to a file")
    }

    /// Refuses `paths` when two name the same file (the same path, or links to the same file): a
    /// file whose samples counted twice would count each person twice in every interval.
    ///
    /// - Parameters:
    ///   - paths: the files, as given (or found in a directory).
    ///   - option: the option that gave them, for the message.
    ///   - reason: why a file may be given once, for the message.
    /// - Throws: ``CLIError`` with exit 64 naming both.
    static func checkDistinct(_ paths: [String], option: String, because reason: String) throws {
        var seen: [(path: String, identity: OutputFile.FileIdentity?)] = []
        for path in paths {
            let identity = OutputFile.FileIdentity(path)
            if let other = seen.first(where: { $0.path == path || (identity != nil && $0.identity == identity) }) {
                throw CLIError.usage(
                    "\(option) names the same file twice (\(displayName(other.path)) and \(displayName(path))): "
                        + reason)
            }
            seen.append((path, identity))
        }
    }

    /// A descriptor open for reading `path` (standard input for `-`), named `name` in errors.
    ///
    /// - Throws: ``CLIError`` 66 when the file is missing or cannot be opened.
    static func openForReading(_ path: String, name: String) throws -> Int32 {
        guard path != "-" else { return STDIN_FILENO }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw CLIError.notFound("\(name): no such file") }
            throw CLIError.notFound("\(name): cannot be read (\(String(cString: strerror(code))))")
        }
        return descriptor
    }

    /// The text of the file at `path` (`-` reads standard input); a UTF-8 byte order mark is
    /// dropped.
    static func read(_ path: String) throws -> String {
        let name = displayName(path)
        let descriptor = try openForReading(path, name: name)
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw CLIError.notFound("\(name): is a directory, expected a file")
        }
        // A regular file's size is known: one allocation instead of doubling (and copying) up to it.
        return try readAll(name: name, expectedSize: Int(info.st_size)) { buffer, _ in
            Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        }
    }

    /// The first `count` bytes of `file` as text (invalid UTF-8 repaired), to tell what kind of
    /// input it is.
    static func peek(_ file: Rereadable, count: Int = 64 << 10) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, count, 0) }
        return String(decoding: bytes[0..<max(read, 0)], as: UTF8.self)
    }

    /// The whole text of `file`, named `name` in errors, with the limits and checks of ``read(_:)``.
    ///
    /// A regular file of known size is read straight into the string's own storage (one copy of
    /// the text in memory, not two: a 150 MB snapshot no longer peaks at 300 MB here). When
    /// that text holds U+FFFD — the mark the string puts on invalid UTF-8, or a real one — the
    /// file is read again by the checking path, which names the line of an invalid byte.
    static func read(_ file: Rereadable, name: String) throws -> String {
        if let size = readableSize(of: file), let text = readDirectly(file, size: size) {
            return text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? String(text.unicodeScalars.dropFirst()) : text
        }
        return try readAll(name: name, expectedSize: 0) { buffer, offset in
            pread(file.descriptor, buffer.baseAddress, buffer.count, off_t(offset))
        }
    }

    /// The `size` bytes of `file` read into a string, or `nil` if they are not all there, are
    /// not plain UTF-8 (the string had to repair them), or hold U+FFFD.
    private static func readDirectly(_ file: Rereadable, size: Int) -> String? {
        var complete = true
        let text = String(unsafeUninitializedCapacity: size) { buffer in
            complete = readWhole(file, into: UnsafeMutableRawPointer(buffer.baseAddress!), size: size)
            return complete ? size : 0
        }
        guard complete, text.utf8.count == size else { return nil }
        // EF BF BD is U+FFFD: the repair mark, or a real one; either way the checking path decides.
        var checked = text
        let marked = checked.withUTF8 { bytes -> Bool in
            guard let base = bytes.baseAddress else { return false }
            var offset = 0
            while offset < bytes.count,
                let found = memchr(base + offset, 0xEF, bytes.count - offset)?.assumingMemoryBound(to: UInt8.self)
            {
                let at = UnsafePointer(found) - base
                if at + 2 < bytes.count, base[at + 1] == 0xBF, base[at + 2] == 0xBD { return true }
                offset = at + 1
            }
            return false
        }
        return marked ? nil : text
    }

    /// The size of `file` when it is a regular, non-empty file within ``maximumSize`` (one that
    /// can be read whole in one go), else `nil`.
    private static func readableSize(of file: Rereadable) -> Int? {
        var info = stat()
        guard fstat(file.descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
            Int(info.st_size) <= maximumSize
        else { return nil }
        return Int(info.st_size)
    }

    /// Reads the `size` bytes of `file` into `buffer`; `false` if they are not all there, or the
    /// file has grown past them (it is then read again whole by the checking path).
    private static func readWhole(_ file: Rereadable, into buffer: UnsafeMutableRawPointer, size: Int) -> Bool {
        var offset = 0
        while offset < size {
            let count = pread(file.descriptor, buffer + offset, size - offset, off_t(offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        var probe: UInt8 = 0
        return pread(file.descriptor, &probe, 1, off_t(size)) == 0
    }

    /// Calls `body` with the bytes of the regular file `file`, read into memory that `body` gives
    /// back as it goes: `release(offset)` frees the pages before `offset`, which `body` must not
    /// read again. So building something large from a large file (`kill-order` of a million apps)
    /// never holds the whole file and the whole result at once. The bytes are not checked:
    /// `body` must refuse what is not UTF-8. `nil`, and `body` is not called, when `file` is not
    /// a regular file of known size within ``maximumSize`` or cannot be read whole.
    ///
    /// - Complexity: O(size of the file)
    static func withReleasableBytes<R>(
        _ file: Rereadable, _ body: (UnsafeBufferPointer<UInt8>, _ release: @escaping (Int) -> Void) throws -> R
    ) rethrows -> R? {
        guard let size = readableSize(of: file) else { return nil }
        // Anonymous pages, not a mapping of the file: a file truncated while it is read cannot
        // make a later access fault (SIGBUS), and madvise(MADV_DONTNEED) really frees them.
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            base != MAP_FAILED
        else { return nil }
        defer { munmap(base, size) }
        guard readWhole(file, into: base, size: size) else { return nil }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var released = 0
        let release: (Int) -> Void = { offset in
            let end = Swift.min(offset, size) / page * page
            guard end > released else { return }
            madvise(base + released, end - released, MADV_DONTNEED)
            released = end
        }
        return try body(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: size), release)
    }

    /// Everything `next` reads (into a buffer, at a byte offset; 0 at the end, −1 with `errno`
    /// on failure), decoded as UTF-8; 66 when a read fails, 65 past ``maximumSize``.
    private static func readAll(
        name: String, expectedSize: Int, _ next: (UnsafeMutableRawBufferPointer, Int) -> Int
    ) throws -> String {
        var data = [UInt8]()
        if expectedSize > 0 { data.reserveCapacity(Swift.min(expectedSize, maximumSize) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { next($0, data.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError.notFound("\(name): cannot be read (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
            guard data.count <= maximumSize else {
                throw CLIError.malformed("\(name): larger than the limit of \(maximumSize >> 20) MiB for an input file")
            }
        }
        return try decode(data, name: name)
    }

    /// An input file open for reading, closed when released. Several readers may read it at
    /// once with `pread(2)` (``ByteLineReader/Source/file(_:)``).
    final class Rereadable: Sendable {
        /// The open descriptor: the file itself, or an unlinked temporary copy.
        let descriptor: Int32

        init(descriptor: Int32) { self.descriptor = descriptor }

        deinit { close(descriptor) }
    }

    /// The file at `path` open to be read several times from its start, without reading it into
    /// memory: a regular file is opened as it is; standard input (`-`), a pipe or a device can be
    /// read only once, so it is first copied (up to ``maximumSize``, the limit it had when read
    /// whole) to a temporary file that is unlinked at once.
    ///
    /// - Throws: ``CLIError`` 66 when it is missing, unreadable or a directory; 65 when a copied
    ///   stream passes ``maximumSize``; 71 when no temporary file can be made.
    /// - Complexity: O(1) for a regular file; O(length) for a stream, copied through 64 KiB.
    static func openRereadable(_ path: String) throws -> Rereadable {
        let name = displayName(path)
        let descriptor = try openForReading(path, name: name)
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                if descriptor != STDIN_FILENO { close(descriptor) }
                throw CLIError.notFound("\(name): is a directory, expected a file")
            }
            if info.st_mode & S_IFMT == S_IFREG && descriptor != STDIN_FILENO {
                return Rereadable(descriptor: descriptor)
            }
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        return Rereadable(descriptor: try copyToTemporaryFile(descriptor, name: name))
    }

    /// Copies what `source` holds to a new, already unlinked temporary file and returns it.
    private static func copyToTemporaryFile(_ source: Int32, name: String) throws -> Int32 {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/mempressure-input-XXXXXX").utf8CString)
        let copy = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard copy >= 0 else {
            throw CLIError.systemFailure(
                "\(name): cannot make a temporary copy in \(directory) (\(String(cString: strerror(errno))))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(copy)
                throw CLIError.notFound("\(name): cannot be read (\(String(cString: strerror(code))))")
            }
            if count == 0 { break }
            total += count
            guard total <= maximumSize else {
                close(copy)
                throw CLIError.malformed("\(name): larger than the limit of \(maximumSize >> 20) MiB for an input file")
            }
            var written = 0
            while written < count {
                let result = chunk.withUnsafeBytes { Glibc.write(copy, $0.baseAddress! + written, count - written) }
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else {
                    let code = errno
                    close(copy)
                    throw CLIError.systemFailure(
                        "\(name): cannot make a temporary copy (\(String(cString: strerror(code))))")
                }
                written += result
            }
        }
        return copy
    }

    private static func decode(_ bytes: [UInt8], name: String) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            var offset = 0
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            var line = 1
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    offset += scalar.utf8.count
                    if scalar == "\n" { line += 1 }
                case .emptyInput: break loop
                case .error: break loop
                }
            }
            throw CLIError.malformed("\(name):\(line): expected UTF-8 text, found an invalid byte at offset \(offset)")
        }
        return text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }
}
