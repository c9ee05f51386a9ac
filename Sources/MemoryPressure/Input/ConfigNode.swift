/// A node of a parsed input document (YAML or JSON), with the line and column it starts at, so
/// every error about it can point there.
public struct ConfigNode: Sendable, Hashable {
    /// What the node holds.
    public enum Value: Sendable, Hashable {
        /// `null`, `~` or an empty value.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, with the text it was written as.
        case number(Double, text: String)
        /// A string (quoted, or a plain YAML scalar that is not a number, bool or null).
        case string(String)
        /// A sequence.
        case array([ConfigNode])
        /// A mapping, keys in the order written.
        case object([Member])
    }

    /// One key of a mapping with its value.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// Where the key is written.
        public var keyLine: Int
        /// Where the key is written.
        public var keyColumn: Int
        /// The value.
        public var value: ConfigNode

        /// A member.
        public init(key: String, keyLine: Int, keyColumn: Int, value: ConfigNode) {
            self.key = key
            self.keyLine = keyLine
            self.keyColumn = keyColumn
            self.value = value
        }
    }

    /// The value.
    public var value: Value
    /// The 1-based line where the node starts.
    public var line: Int
    /// The 1-based column where the node starts.
    public var column: Int

    /// A node at `line`:`column`.
    public init(_ value: Value, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }

    /// What kind of value this is, for error messages: `the string "abc"`, `a mapping`, `true`.
    public var kindDescription: String {
        switch value {
        case .null: "nothing (null)"
        case .bool(let flag): flag ? "true" : "false"
        case .number(_, let text): "the number \(text.excerpt(limit: 40))"
        case .string(let text): "the string \(text.quotedExcerpt())"
        case .array: "a list"
        case .object: "a mapping"
        }
    }
}

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
