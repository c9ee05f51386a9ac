import MemoryPressure

/// Parsing helpers shared by the `/proc` readers.
enum ProcText {
    /// The lines of `text` with their 1-based numbers, skipping empty lines.
    static func numberedLines(_ text: String) -> [(number: Int, text: Substring)] {
        var result: [(Int, Substring)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == " " || $0 == "\t" }) {
            result.append((index + 1, line))
        }
        return result
    }

    /// Splits `Key:   value` at the first colon into the key and the trimmed value.
    static func keyValue(_ line: Substring) -> (key: Substring, value: Substring)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[..<colon]
        guard !key.isEmpty else { return nil }
        return (key, trimmed(line[line.index(after: colon)...]))
    }

    /// A size written as `<integer> kB` (as in `/proc/meminfo` and `/proc/<pid>/status`) in bytes.
    static func kilobytes(_ value: Substring) -> Bytes? {
        let parts = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, parts[1] == "kB", let kilobytes = Int64(parts[0]), kilobytes >= 0 else { return nil }
        let (bytes, overflow) = kilobytes.multipliedReportingOverflow(by: 1024)
        return overflow ? nil : Bytes(bytes)
    }

    /// `text` without leading and trailing spaces, tabs and newlines.
    static func trimmed<S: StringProtocol>(_ text: S) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return Substring(text[first...last])
    }
}
