import MemoryPressure

@testable import MemoryPressureLinux

/// The `String` parsers the `/proc/<pid>` reader used before it parsed bytes in place
/// (`LinuxProcess.Status.parse` and `Int(ProcText.trimmed(text))`, as of commit f9b377b), kept
/// verbatim as the reference the byte parsers (``ProcBytes``) are checked against.
enum ReferenceStatusParser {
    /// The lines of `text` with their 1-based numbers, skipping blank lines.
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

    /// `<integer> kB` in bytes.
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

    /// An integer file (`oom_score_adj`, `oom_score`) as the old reader read it.
    static func integer(_ text: String) -> Int? { Int(trimmed(text)) }

    /// A status file as the old reader parsed it; fails with the name of the first garbled field.
    static func status(_ text: String) throws(LinuxProcess.Status.GarbledField) -> LinuxProcess.Status {
        var status = LinuxProcess.Status()
        for (_, line) in numberedLines(text) {
            guard let (key, value) = keyValue(line) else { continue }
            switch key {
            case "Name":
                status.name = String(value)
            case "State":
                status.isZombie = value.hasPrefix("Z")
            case "Kthread":
                status.isKernelThread = value == "1"
            case "Uid":
                guard let first = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
                    let uid = UInt32(first)
                else { throw .init(field: "Uid") }
                status.uid = uid
            case "VmRSS", "VmSwap", "VmPTE":
                guard let bytes = kilobytes(value) else { throw .init(field: String(key)) }
                switch key {
                case "VmRSS": status.resident = bytes
                case "VmSwap": status.swap = bytes
                default: status.pageTables = bytes
                }
            default:
                continue
            }
        }
        return status
    }
}
