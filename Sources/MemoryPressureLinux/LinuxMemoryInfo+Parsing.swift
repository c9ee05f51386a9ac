import MemoryPressure

extension LinuxMemoryInfo {
    /// The lines of `/proc/meminfo` this type reads.
    static let fields = ["MemTotal", "MemFree", "MemAvailable", "SwapTotal", "SwapFree"]

    /// Parses the text of `/proc/meminfo`; `path` names the file in errors.
    ///
    /// Every line must read `Key: <integer>` or `Key: <integer> kB`; the five fields read here must
    /// be present and in kB.
    ///
    /// - Throws: ``LinuxReadError/malformedLine(path:line:text:expected:)`` naming the line, or
    ///   ``LinuxReadError/missingField(path:field:expected:)``.
    /// - Complexity: O(length of `text`).
    public init(parsing text: String, path: String = "/proc/meminfo") throws(LinuxReadError) {
        var values: [Substring: Bytes] = [:]
        for (number, line) in ProcText.numberedLines(text) {
            guard let (key, value) = ProcText.keyValue(line) else {
                throw .malformedLine(path: path, line: number, text: String(line), expected: "\"Key: <integer> kB\"")
            }
            if Self.fields.contains(String(key)) {
                guard let bytes = ProcText.kilobytes(value) else {
                    throw .malformedLine(
                        path: path, line: number, text: String(line), expected: "\"\(key): <integer> kB\"")
                }
                values[key] = bytes
            } else if Int64(value.split(separator: " ").first ?? "") == nil {
                throw .malformedLine(
                    path: path, line: number, text: String(line), expected: "\"\(key): <integer> [kB]\"")
            }
        }
        func field(_ name: Substring) throws(LinuxReadError) -> Bytes {
            guard let value = values[name] else {
                throw .missingField(path: path, field: String(name), expected: "a line \"\(name): <integer> kB\"")
            }
            return value
        }
        self.init(
            total: try field("MemTotal"), available: try field("MemAvailable"), free: try field("MemFree"),
            swapTotal: try field("SwapTotal"), swapFree: try field("SwapFree")
        )
    }

    /// Reads and parses `meminfo` from `fileSystem`.
    ///
    /// - Throws: ``LinuxReadError/missingFile(path:)``, ``LinuxReadError/unreadable(path:errno:)``,
    ///   or a parsing error naming the line.
    /// - Complexity: O(file size).
    public static func read(from fileSystem: ProcFileSystem = .live) throws(LinuxReadError) -> LinuxMemoryInfo {
        let path = fileSystem.procPath("meminfo")
        switch fileSystem.contents(of: "meminfo") {
        case .contents(let text): return try LinuxMemoryInfo(parsing: text, path: path)
        case .missing: throw .missingFile(path: path)
        case .unreadable(let code): throw .unreadable(path: path, errno: code)
        }
    }
}
