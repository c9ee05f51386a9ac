/// Malformed input: the file, the line and column, the field path, what was found and what was
/// expected. Every loader of the package (policies, snapshots, traces, workloads) reports this.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name as given.
    public var file: String
    /// The 1-based line, or 0 when unknown.
    public var line: Int
    /// The 1-based column, or 0 when unknown.
    public var column: Int
    /// The field path, such as `apps[3].footprint`, or empty.
    public var path: String
    /// What was wrong and what was expected.
    public var message: String

    /// An input error.
    ///
    /// - Complexity: O(1)
    public init(file: String, line: Int, column: Int, path: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// `snapshot.yaml:7:16: apps[3].footprint: expected a size such as 4096 or "40MiB", found the string "lots"`.
    /// Each part is cut short (and its control characters escaped) so that one error stays
    /// one short line, whatever the input held.
    public var description: String {
        var location = file.excerpt(limit: 200)
        if line > 0 { location += ":\(line)" + (column > 0 ? ":\(column)" : "") }
        return location + ": " + (path.isEmpty ? "" : path.excerpt(limit: 120) + ": ") + message.excerpt(limit: 600)
    }
}
