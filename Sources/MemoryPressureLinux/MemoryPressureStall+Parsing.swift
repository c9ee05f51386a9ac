extension MemoryPressureStall {
    /// Parses the text of `/proc/pressure/memory`; `path` names the file in errors.
    ///
    /// - Throws: ``LinuxReadError/malformedLine(path:line:text:expected:)`` naming the line, or
    ///   ``LinuxReadError/missingField(path:field:expected:)`` without a `some` line.
    /// - Complexity: O(length of `text`).
    public init(parsing text: String, path: String = "/proc/pressure/memory") throws(LinuxReadError) {
        let expected = "\"some|full avg10=<percent> avg60=<percent> avg300=<percent> total=<microseconds>\""
        var some: Line?
        var full: Line?
        for (number, line) in ProcText.numberedLines(text) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            var values: [Substring: Substring] = [:]
            for word in words.dropFirst() {
                let pair = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2 else { values = [:]; break }
                values[pair[0]] = pair[1]
            }
            guard words.first == "some" || words.first == "full",
                let avg10 = values["avg10"].flatMap({ Double($0) }),
                let avg60 = values["avg60"].flatMap({ Double($0) }),
                let avg300 = values["avg300"].flatMap({ Double($0) }),
                let total = values["total"].flatMap({ UInt64($0) })
            else {
                throw .malformedLine(path: path, line: number, text: String(line), expected: expected)
            }
            let parsed = Line(avg10: avg10, avg60: avg60, avg300: avg300, totalMicroseconds: total)
            if words.first == "some" { some = parsed } else { full = parsed }
        }
        guard let some else { throw .missingField(path: path, field: "some", expected: "a line \(expected)") }
        self.init(some: some, full: full)
    }

    /// Reads and parses `pressure/memory` from `fileSystem`.
    ///
    /// - Returns: `nil` when the kernel has no PSI (the file is missing, or reading it fails as it
    ///   does with `psi=0`).
    /// - Throws: a parsing error naming the line.
    /// - Complexity: O(file size).
    public static func read(from fileSystem: ProcFileSystem = .live) throws(LinuxReadError) -> MemoryPressureStall? {
        let path = fileSystem.procPath("pressure/memory")
        guard case .contents(let text) = fileSystem.contents(of: "pressure/memory") else { return nil }
        return try MemoryPressureStall(parsing: text, path: path)
    }
}
