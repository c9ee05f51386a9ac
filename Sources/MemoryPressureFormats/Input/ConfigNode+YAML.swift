import CYaml
import MemoryPressure

extension ConfigNode {
    /// The deepest nesting of lists and mappings a YAML document may have (as for JSON).
    package static let maximumYAMLDepth = 64

    /// How many values aliases (`*name`) may add to a YAML document in all, counting every value
    /// inside an aliased list or mapping: a "billion laughs" document is refused, not expanded.
    package static let maximumAliasExpansion = 10_000

    /// Parses a YAML document (JSON is accepted as YAML's subset). Plain scalars are resolved as
    /// YAML's core schema does: `null`/`~`/empty, `true`/`false`, integers and floats; everything
    /// else, and every quoted scalar, is a string. A leading UTF-8 byte order mark and CRLF line
    /// ends are accepted.
    ///
    /// Hostile documents are refused with an `InputError` rather than expanded: aliases that
    /// add more than ``maximumAliasExpansion`` values in all, nesting deeper than
    /// ``maximumYAMLDepth``, numbers that are not finite, more than one document. Duplicate keys
    /// are left to ``ConfigObject``, which names the second occurrence.
    ///
    /// - Throws: `InputError` with the line and column of a syntax error, naming `file`.
    /// - Complexity: O(length of `text`)
    package static func parseYAML(_ text: String, file: String) throws(InputError) -> ConfigNode {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var composer = YAMLComposer(file: file)
        return try composer.compose(bytes)
    }
}

/// Builds ``ConfigNode``s from libyaml's event stream (libyaml scans and parses; the composing,
/// alias budget and error wording are ours).
struct YAMLComposer {
    let file: String
    private var parser = yaml_parser_t()
    /// Anchored nodes, with the number of values each holds (itself included).
    private var anchors: [String: (node: ConfigNode, size: Int)] = [:]
    private var aliasBudget = ConfigNode.maximumAliasExpansion

    init(file: String) {
        self.file = file
    }

    mutating func compose(_ bytes: [UInt8]) throws(InputError) -> ConfigNode {
        guard yaml_parser_initialize(&parser) == 1 else {
            throw InputError(file: file, line: 0, column: 0, path: "", message: "cannot start the YAML reader")
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(InputError) -> ConfigNode in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return try composeStream()
        }
    }

    private mutating func composeStream() throws(InputError) -> ConfigNode {
        var event = try next()  // stream start
        defer { yaml_event_delete(&event) }
        var first = try next()
        defer { yaml_event_delete(&first) }
        if first.type == YAML_STREAM_END_EVENT { return ConfigNode(.null, line: 1, column: 1) }
        // first is a document start.
        var start = try next()
        let (root, _) = try composeNode(&start, depth: 0)
        var end = try next()  // document end
        yaml_event_delete(&end)
        var after = try next()
        defer { yaml_event_delete(&after) }
        guard after.type == YAML_STREAM_END_EVENT else {
            let (line, column) = Self.position(after.start_mark)
            throw InputError(
                file: file, line: line, column: column, path: "",
                message: "expected one YAML document, found a second one (a \"---\" line?)")
        }
        return root
    }

    /// The next event; a scanner or parser error becomes an `InputError` in our words.
    private mutating func next() throws(InputError) -> yaml_event_t {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else {
            let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
            let (line, column) = Self.position(parser.problem_mark)
            throw InputError(
                file: file, line: line, column: column, path: "", message: Self.describe(problem))
        }
        return event
    }

    private static func position(_ mark: yaml_mark_t) -> (Int, Int) { (Int(mark.line) + 1, Int(mark.column) + 1) }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafePointer($0)) }
    }

    /// Composes the node that starts with `event` (which this call deletes) and the events up
    /// to its end; returns it with the number of values it holds.
    private mutating func composeNode(_ event: inout yaml_event_t, depth: Int) throws(InputError) -> (ConfigNode, Int) {
        defer { yaml_event_delete(&event) }
        let (line, column) = Self.position(event.start_mark)
        func error(_ message: String) -> InputError {
            InputError(file: file, line: line, column: column, path: "", message: message)
        }
        switch event.type {
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let anchored = anchors[name] else {
                throw error("alias *\(name) names no anchor (&\(name)) before it")
            }
            aliasBudget -= anchored.size
            guard aliasBudget >= 0 else {
                throw error(
                    "aliases expand to more than \(ConfigNode.maximumAliasExpansion) values in all; "
                        + "write the values out instead of repeating *\(name)")
            }
            var node = anchored.node
            node.line = line
            node.column = column
            return (node, anchored.size)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text =
                scalar.value.map {
                    String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self)
                } ?? ""
            let tag = Self.string(scalar.tag)
            let isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE || scalar.style == YAML_ANY_SCALAR_STYLE
            let value = try Self.scalarValue(text, plain: isPlain && tag != "tag:yaml.org,2002:str", error: error)
            let node = ConfigNode(value, line: line, column: column)
            register(Self.string(scalar.anchor), node, size: 1)
            return (node, 1)
        case YAML_SEQUENCE_START_EVENT:
            guard depth < ConfigNode.maximumYAMLDepth else {
                throw error("nesting deeper than \(ConfigNode.maximumYAMLDepth) levels")
            }
            let anchor = Self.string(event.data.sequence_start.anchor)
            var elements: [ConfigNode] = []
            var size = 1
            while true {
                var item = try next()
                if item.type == YAML_SEQUENCE_END_EVENT {
                    yaml_event_delete(&item)
                    break
                }
                let (element, elementSize) = try composeNode(&item, depth: depth + 1)
                elements.append(element)
                size += elementSize
            }
            let node = ConfigNode(.array(elements), line: line, column: column)
            register(anchor, node, size: size)
            return (node, size)
        case YAML_MAPPING_START_EVENT:
            guard depth < ConfigNode.maximumYAMLDepth else {
                throw error("nesting deeper than \(ConfigNode.maximumYAMLDepth) levels")
            }
            let anchor = Self.string(event.data.mapping_start.anchor)
            var members: [ConfigNode.Member] = []
            var size = 1
            while true {
                var keyEvent = try next()
                if keyEvent.type == YAML_MAPPING_END_EVENT {
                    yaml_event_delete(&keyEvent)
                    break
                }
                let (keyNode, keySize) = try composeNode(&keyEvent, depth: depth + 1)
                let key: String
                switch keyNode.value {
                case .string(let text): key = text
                case .number(_, let text): key = text
                case .bool(let flag): key = flag ? "true" : "false"
                case .null: key = ""
                case .array, .object:
                    throw InputError(
                        file: file, line: keyNode.line, column: keyNode.column, path: "",
                        message: "expected a key (a name), found \(keyNode.kindDescription)")
                }
                var valueEvent = try next()
                let (value, valueSize) = try composeNode(&valueEvent, depth: depth + 1)
                members.append(
                    ConfigNode.Member(key: key, keyLine: keyNode.line, keyColumn: keyNode.column, value: value))
                size += keySize + valueSize
            }
            let node = ConfigNode(.object(members), line: line, column: column)
            register(anchor, node, size: size)
            return (node, size)
        default:
            throw error("unexpected YAML structure")
        }
    }

    private mutating func register(_ anchor: String?, _ node: ConfigNode, size: Int) {
        guard let anchor else { return }
        anchors[anchor] = (node, size)
    }

    /// The value of a scalar: null, a bool, a finite number or a string (every quoted scalar).
    /// SnapshotYAMLDecoder resolves scalars with it too, so both read a scalar alike.
    static func scalarValue(_ text: String, plain: Bool, error: (String) -> InputError) throws(InputError)
        -> ConfigNode.Value
    {
        guard plain else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
            throw error("expected a finite number, found \(text)")
        default: break
        }
        let isNumeric = text.first.map { $0.isASCII && ($0.isNumber || "+-.".contains($0)) } ?? false
        if isNumeric, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE_".contains($0)) }),
            let number = Double(text.filter { $0 != "_" })
        {
            guard number.isFinite else { throw error("number \(text) is out of range") }
            return .number(number, text: text)
        }
        return .string(text)
    }

    /// libyaml's problem in words a user of these files knows (the original is kept at the end
    /// when it is not one we know).
    private static func describe(_ problem: String) -> String {
        let known: [(String, String)] = [
            ("mapping values are not allowed", "a ':' where a value was expected (quote a value that contains ': ')"),
            ("did not find expected key", "expected a key at this indentation (check the indentation of the line)"),
            ("did not find expected '-' indicator", "expected \"- \" for the next list item (check the indentation)"),
            ("could not find expected ':'", "expected ':' after a key (a key is at most 1024 characters)"),
            ("did not find expected ',' or ']'", "expected ',' or ']' in a [list]"),
            ("did not find expected ',' or '}'", "expected ',' or '}' in a {mapping}"),
            ("did not find expected node content", "expected a value"),
            ("found character that cannot start any token", "a character that cannot start a value (quote the value)"),
            ("found a tab character", "a tab in the indentation; indent with spaces"),
            (
                "control characters are not allowed",
                "a control character; only tab, line feed and carriage return are allowed"
            ),
            ("invalid leading UTF-8 octet", "invalid UTF-8"),
            ("invalid trailing UTF-8 octet", "invalid UTF-8"),
            ("incomplete UTF-8 octet sequence", "invalid UTF-8"),
            ("found unexpected end of stream", "the file ends inside a quoted value"),
            ("found unknown escape character", "an unknown escape (\\) in a double-quoted string"),
            ("found undefined tag handle", "an unknown tag (!…); remove it"),
            ("did not find URI escaped octet", "an invalid tag (!…); remove it"),
            ("found unexpected ':'", "an unexpected ':' (quote the value)"),
            (
                "block sequence entries are not allowed",
                "a list item where a value was expected (check the indentation)"
            ),
            ("Maximum nesting level", "nesting deeper than \(ConfigNode.maximumYAMLDepth) levels"),
            ("found duplicate %YAML directive", "a second %YAML directive"),
            ("found incompatible YAML document", "an unsupported %YAML version"),
        ]
        for (needle, words) in known where problem.contains(needle) { return "YAML syntax: " + words }
        return "YAML syntax: invalid here (\(problem))"
    }
}
