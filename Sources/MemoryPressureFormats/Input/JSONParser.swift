import MemoryPressure

/// A JSON syntax error: the 1-based line and column and what was expected there.
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line where parsing stopped.
    package var line: Int
    /// The 1-based column (in bytes) where parsing stopped.
    package var column: Int
    /// What was expected and what was found.
    package var message: String

    /// "2:12: expected ',' or '}' after a member, found 'x'".
    package var description: String { "\(line):\(column): \(message)" }
}

/// A small, strict JSON parser (RFC 8259) over UTF-8 bytes that records where every value starts
/// and reports the line and column of an error.
package struct JSONParser {
    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var lineStart = 0

    /// Parses `text`, which must hold exactly one JSON value (surrounding whitespace allowed).
    ///
    /// - Complexity: O(length of `text`)
    /// - Parameter firstLine: the line number of the text's first line (for a line of a larger file).
    package static func parse<S: StringProtocol>(_ text: S, firstLine: Int = 1) throws(JSONSyntaxError) -> ConfigNode {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.line = firstLine
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else {
            throw parser.error("expected the end of the line after the value, found \(parser.describeCurrent())")
        }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: position - lineStart + 1, message: message)
    }

    private func node(
        _ value: ConfigNode.Value, startingAt start: Int, line startLine: Int, lineStart startLineStart: Int
    )
        -> ConfigNode
    {
        ConfigNode(value, line: startLine, column: start - startLineStart + 1)
    }

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "the end of the line" }
        let byte = bytes[position]
        return byte >= 0x20 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x0A:
                position += 1
                line += 1
                lineStart = position
            case 0x20, 0x09, 0x0D:
                position += 1
            default:
                return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> ConfigNode {
        guard depth < 64 else { throw error("nesting deeper than 64 levels") }
        guard position < bytes.count else { throw error("expected a value, found the end of the input") }
        let start = position
        let startLine = line
        let startLineStart = lineStart
        let value: ConfigNode.Value
        switch bytes[position] {
        case UInt8(ascii: "{"): value = try parseObject(depth: depth)
        case UInt8(ascii: "["): value = try parseArray(depth: depth)
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); value = .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); value = .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); value = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (number, text) = try parseNumber()
            value = .number(number, text: text)
        default: throw error("expected a value, found \(describeCurrent())")
        }
        return node(value, startingAt: start, line: startLine, lineStart: startLineStart)
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        for byte in word.utf8 {
            guard position < bytes.count, bytes[position] == byte else {
                throw error("expected '\(word)', found \(describeCurrent())")
            }
            position += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> ConfigNode.Value {
        position += 1
        var members: [ConfigNode.Member] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describeCurrent())")
            }
            let keyLine = line
            let keyColumn = position - lineStart + 1
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after the member name \"\(key)\", found \(describeCurrent())")
            }
            position += 1
            skipWhitespace()
            members.append(
                ConfigNode.Member(
                    key: key, keyLine: keyLine, keyColumn: keyColumn, value: try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or '}', found the end of the input") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "}") else {
                throw error("expected ',' or '}' after a member, found \(describeCurrent())")
            }
            position += 1
            return .object(members)
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> ConfigNode.Value {
        position += 1
        var elements: [ConfigNode] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or ']', found the end of the input") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "]") else {
                throw error("expected ',' or ']' after an element, found \(describeCurrent())")
            }
            position += 1
            return .array(elements)
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var start = position
        var utf8: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                utf8.append(contentsOf: bytes[start..<position])
                position += 1
                break
            }
            if byte < 0x20 { throw error("control character in a string (escape it)") }
            if byte == UInt8(ascii: "\\") {
                utf8.append(contentsOf: bytes[start..<position])
                position += 1
                guard position < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error("expected a low surrogate after a high surrogate") }
                        position += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    utf8.append(contentsOf: Array(String(scalar).utf8))
                default:
                    position -= 1
                    throw error("invalid escape '\\\(Character(UnicodeScalar(escape)))'")
                }
                start = position
                continue
            }
            position += 1
        }
        scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
        return String(scalars)
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = Self.hexValue(bytes[position]) else {
                throw error("expected 4 hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> (Double, String) {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            let begin = parser.position
            while parser.position < parser.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.position])
            {
                parser.position += 1
            }
            return parser.position - begin
        }
        guard digits(&self) > 0 else { throw error("expected a digit, found \(describeCurrent())") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw error("expected a digit after '.', found \(describeCurrent())") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent, found \(describeCurrent())") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            position = start
            throw error("number \(text) is out of range")
        }
        return (value, text)
    }
}
