import MemoryPressure

/// A node of a parsed input document (YAML or JSON), with the line and column it starts at, so
/// every error about it can point there.
package struct ConfigNode: Sendable, Hashable {
    /// What the node holds.
    package enum Value: Sendable, Hashable {
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
    package struct Member: Sendable, Hashable {
        /// The key.
        package var key: String
        /// Where the key is written.
        package var keyLine: Int
        /// Where the key is written.
        package var keyColumn: Int
        /// The value.
        package var value: ConfigNode

        /// A member.
        package init(key: String, keyLine: Int, keyColumn: Int, value: ConfigNode) {
            self.key = key
            self.keyLine = keyLine
            self.keyColumn = keyColumn
            self.value = value
        }
    }

    /// The value.
    package var value: Value
    /// The 1-based line where the node starts.
    package var line: Int
    /// The 1-based column where the node starts.
    package var column: Int

    /// A node at `line`:`column`.
    package init(_ value: Value, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }

    /// What kind of value this is, for error messages: `the string "abc"`, `a mapping`, `true`.
    package var kindDescription: String {
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
