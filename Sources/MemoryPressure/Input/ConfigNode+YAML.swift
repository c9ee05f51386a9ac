import Yams

extension ConfigNode {
    /// Parses a YAML document (JSON is accepted as YAML's subset). Plain scalars are resolved as
    /// YAML's core schema does: `null`/`~`/empty, `true`/`false`, integers and floats; everything
    /// else, and every quoted scalar, is a string. Anchors and aliases are followed.
    ///
    /// - Throws: ``InputError`` with the line and column of a syntax error, naming `file`.
    /// - Complexity: O(length of `text`)
    public static func parseYAML(_ text: String, file: String) throws(InputError) -> ConfigNode {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw InputError(yaml: error, file: file)
        } catch {
            throw InputError(file: file, line: 0, column: 0, path: "", message: "cannot parse: \(error)")
        }
        guard let root else { return ConfigNode(.null, line: 1, column: 1) }
        return convert(root)
    }

    private static func convert(_ node: Node) -> ConfigNode {
        let line = node.mark?.line ?? 0
        let column = node.mark?.column ?? 0
        switch node {
        case .scalar(let scalar):
            return ConfigNode(scalarValue(scalar), line: line, column: column)
        case .mapping(let mapping):
            let members = mapping.map { pair in
                Member(
                    key: pair.key.scalar?.string ?? "\(pair.key)", keyLine: pair.key.mark?.line ?? line,
                    keyColumn: pair.key.mark?.column ?? column, value: convert(pair.value))
            }
            return ConfigNode(.object(members), line: line, column: column)
        case .sequence(let sequence):
            return ConfigNode(.array(sequence.map(convert)), line: line, column: column)
        case .alias:
            // The composer resolves aliases to their anchored nodes; a bare alias carries no value.
            return ConfigNode(.null, line: line, column: column)
        }
    }

    private static func scalarValue(_ scalar: Node.Scalar) -> Value {
        let text = scalar.string
        guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        let isNumeric = text.first.map { $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." } ?? false
        if isNumeric, text.allSatisfy({ $0.isNumber || "+-.eE_".contains($0) }),
            let number = Double(text.replacingOccurrences(of: "_", with: ""))
        {
            return .number(number, text: text)
        }
        return .string(text)
    }
}

extension InputError {
    /// An input error from a Yams syntax error, keeping its line and column.
    init(yaml error: YamlError, file: String) {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            self.init(file: file, line: mark.line, column: mark.column, path: "", message: "YAML syntax: \(detail)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            self.init(
                file: file, line: context.mark.line, column: context.mark.column, path: "",
                message: "duplicate keys \(duplicates.joined(separator: ", ")) in a mapping")
        default:
            self.init(file: file, line: 0, column: 0, path: "", message: "YAML: \(error)")
        }
    }
}
