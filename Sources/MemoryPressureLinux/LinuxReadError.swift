/// A machine-wide `/proc` or cgroup file that could not be read or did not say what it should.
/// (Per-process files never throw: a process whose files are unreadable or garbled is skipped,
/// see ``SkippedProcess``.)
public enum LinuxReadError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file exists but could not be read (the errno is given).
    case unreadable(path: String, errno: Int32)
    /// The file is missing although it is required (for example `/proc/meminfo`).
    case missingFile(path: String)
    /// A line (1-based) did not have the expected form.
    case malformedLine(path: String, line: Int, text: String, expected: String)
    /// A required field is absent from the file.
    case missingField(path: String, field: String, expected: String)

    /// The file, the line and what was expected.
    public var description: String {
        switch self {
        case .unreadable(let path, let errno):
            return "\(path): could not be read (errno \(errno)); expected a readable file"
        case .missingFile(let path):
            return "\(path): no such file; expected it to exist"
        case .malformedLine(let path, let line, let text, let expected):
            return "\(path):\(line): found \"\(text)\"; expected \(expected)"
        case .missingField(let path, let field, let expected):
            return "\(path): no \(field) field; expected \(expected)"
        }
    }
}
