import MemoryPressure

/// Typed, strict reading of one mapping of an input document: every accessor names the field
/// path in its errors, and ``finish()`` rejects keys nobody asked for.
///
///     let device = try document.object("device")
///     let memory = try device.size("memory")
///     try device.finish()   // "snapshot.yaml:2:30: device: unknown key "memroy"; expected memory, reserved, swap"
package final class ConfigObject {
    /// The file, for error messages.
    package let file: String
    /// The path of this mapping, such as `apps[3]` (empty for the document root).
    package let path: String
    /// The mapping node.
    package let node: ConfigNode
    private let members: [ConfigNode.Member]
    private var asked: [String] = []

    /// Reads `node`, which must be a mapping.
    ///
    /// - Throws: `InputError` if it is not a mapping or has a duplicate key.
    package init(_ node: ConfigNode, file: String, path: String = "") throws(InputError) {
        self.file = file
        self.path = path
        self.node = node
        guard case .object(let members) = node.value else {
            throw InputError(
                file: file, line: node.line, column: node.column, path: path,
                message: "expected a mapping of keys to values, found \(node.kindDescription)")
        }
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            throw InputError(
                file: file, line: member.keyLine, column: member.keyColumn, path: Self.join(path, member.key),
                message: "the key appears twice")
        }
        self.members = members
    }

    /// `path.key`, or `key` at the root.
    package static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// An error about `node` at `key`.
    package func error(at node: ConfigNode, key: String, _ message: String) -> InputError {
        InputError(file: file, line: node.line, column: node.column, path: Self.join(path, key), message: message)
    }

    /// An error about this mapping as a whole.
    package func error(_ message: String) -> InputError {
        InputError(file: file, line: node.line, column: node.column, path: path, message: message)
    }

    /// The keys present, in order.
    package var keys: [String] { members.map(\.key) }

    /// The value at `key`, or `nil` if it is absent or null.
    package func optional(_ key: String) -> ConfigNode? {
        asked.append(key)
        guard let member = members.first(where: { $0.key == key }), member.value.value != .null else { return nil }
        return member.value
    }

    /// The value at `key`; `expected` describes it for the error when it is missing.
    package func required(_ key: String, expected: String) throws(InputError) -> ConfigNode {
        guard let value = optional(key) else { throw error("missing key \"\(key)\": expected \(expected)") }
        return value
    }

    /// Rejects every key that no accessor asked for, naming the first and the keys expected.
    package func finish() throws(InputError) {
        guard let unknown = members.first(where: { !asked.contains($0.key) }) else { return }
        var expected: [String] = []
        for key in asked where !expected.contains(key) { expected.append(key) }
        throw InputError(
            file: file, line: unknown.keyLine, column: unknown.keyColumn, path: path,
            message: "unknown key \(unknown.key.quotedExcerpt()); expected \(expected.joined(separator: ", "))")
    }

    // MARK: Typed accessors

    /// A string at `key`.
    package func string(_ key: String) throws(InputError) -> String {
        try Self.string(try required(key, expected: "a string"), object: self, key: key)
    }

    /// A string at `key`, or `nil`.
    package func optionalString(_ key: String) throws(InputError) -> String? {
        guard let node = optional(key) else { return nil }
        return try Self.string(node, object: self, key: key)
    }

    /// The string `node` holds (numbers are read as their text).
    package static func string(_ node: ConfigNode, object: ConfigObject, key: String) throws(InputError) -> String {
        switch node.value {
        case .string(let text): return text
        case .number(_, let text): return text
        default: throw object.error(at: node, key: key, "expected a string, found \(node.kindDescription)")
        }
    }

    /// A boolean at `key`, or `nil`.
    package func optionalBool(_ key: String) throws(InputError) -> Bool? {
        guard let node = optional(key) else { return nil }
        guard case .bool(let flag) = node.value else {
            throw error(at: node, key: key, "expected true or false, found \(node.kindDescription)")
        }
        return flag
    }

    /// A number at `key`, or `nil`.
    package func optionalNumber(_ key: String) throws(InputError) -> Double? {
        guard let node = optional(key) else { return nil }
        guard case .number(let number, _) = node.value else {
            throw error(at: node, key: key, "expected a number, found \(node.kindDescription)")
        }
        return number
    }

    /// A number in `range` at `key`, or `nil`; `unit` (such as "seconds") goes into the error.
    package func optionalNumber(_ key: String, in range: ClosedRange<Double>, unit: String = "") throws(InputError)
        -> Double?
    {
        guard let node = optional(key) else { return nil }
        guard case .number(let number, _) = node.value, range.contains(number) else {
            let bounds = "\(ConfigObject.format(range.lowerBound)) to \(ConfigObject.format(range.upperBound))"
            throw error(
                at: node, key: key,
                "expected a number from \(bounds)\(unit.isEmpty ? "" : " " + unit), found \(node.kindDescription)")
        }
        return number
    }

    /// A number in `range` at `key`, which must be present; `unit` goes into the errors.
    package func number(_ key: String, in range: ClosedRange<Double>, unit: String = "") throws(InputError) -> Double {
        let bounds = "\(ConfigObject.format(range.lowerBound)) to \(ConfigObject.format(range.upperBound))"
        _ = try required(key, expected: "a number from \(bounds)\(unit.isEmpty ? "" : " " + unit)")
        return try optionalNumber(key, in: range, unit: unit)!
    }

    /// `12`, `1e+12`, `0.5`: a bound in a message.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// An app id at `key`: a non-empty string of printable characters (see `AppID.problem(with:)`).
    package func appID(_ key: String) throws(InputError) -> AppID {
        let node = try required(key, expected: "an app id")
        guard case .string(let text) = node.value else {
            throw error(at: node, key: key, "expected an app id (a string), found \(node.kindDescription)")
        }
        if let problem = AppID.problem(with: text) { throw error(at: node, key: key, problem) }
        return AppID(text)
    }

    /// An integer in `range` at `key`, or `nil`.
    package func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(InputError) -> Int? {
        guard let node = optional(key) else { return nil }
        return try Self.int(node, in: range, object: self, key: key)
    }

    /// An integer in `range` at `key`, which must be present.
    package func int(_ key: String, in range: ClosedRange<Int>) throws(InputError) -> Int {
        let node = try required(key, expected: "an integer from \(range.lowerBound) to \(range.upperBound)")
        return try Self.int(node, in: range, object: self, key: key)
    }

    /// The integer in `range` that `node` holds.
    package static func int(_ node: ConfigNode, in range: ClosedRange<Int>, object: ConfigObject, key: String)
        throws(InputError)
        -> Int
    {
        guard case .number(let number, _) = node.value, let integer = Int(exactly: number), range.contains(integer)
        else {
            throw object.error(
                at: node, key: key,
                "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(node.kindDescription)")
        }
        return integer
    }

    /// A size at `key`: an integer of bytes or a string with a unit (`"40MiB"`).
    package func size(_ key: String) throws(InputError) -> Bytes {
        try Self.size(try required(key, expected: "a size such as 4096 or 40MiB"), object: self, key: key)
    }

    /// A size at `key`, or `nil`.
    package func optionalSize(_ key: String) throws(InputError) -> Bytes? {
        guard let node = optional(key) else { return nil }
        return try Self.size(node, object: self, key: key)
    }

    /// The size `node` holds: bytes, or a string with a unit, from 0 to `Bytes.maximum`.
    package static func size(_ node: ConfigNode, object: ConfigObject, key: String) throws(InputError) -> Bytes {
        switch try sizeOrPercent(node, object: object, key: key, allowsPercent: false) {
        case .bytes(let bytes): return bytes
        case .percent: fatalError("unreachable: percentages are refused above")
        }
    }

    /// An amount at `key`: a size, or a percentage of memory (`"15%"`).
    package func amount(_ key: String) throws(InputError) -> MemoryAmount {
        let node = try required(key, expected: "a size such as 40MiB or a percentage such as 15%")
        return try Self.sizeOrPercent(node, object: self, key: key, allowsPercent: true)
    }

    /// The text of `Bytes.maximum` in messages.
    static let maximumSizeText = "1 PiB (\(Bytes.maximum.value) bytes)"

    private static func sizeOrPercent(_ node: ConfigNode, object: ConfigObject, key: String, allowsPercent: Bool)
        throws(InputError) -> MemoryAmount
    {
        switch node.value {
        case .number(let number, _) where number >= 0 && number == number.rounded():
            guard number <= Double(Bytes.maximum.value) else {
                throw object.error(
                    at: node, key: key, "expected a size of at most \(maximumSizeText), found \(node.kindDescription)")
            }
            return .bytes(Bytes(Int64(number)))
        case .string(let text):
            if allowsPercent, let amount = MemoryAmount(parsing: text) { return amount }
            switch Bytes.parse(text) {
            case .bytes(let value): return .bytes(Bytes(value))
            case .tooLarge:
                throw object.error(
                    at: node, key: key, "expected a size of at most \(maximumSizeText), found \(node.kindDescription)")
            case .invalid: break
            }
        default: break
        }
        if allowsPercent {
            throw object.error(
                at: node, key: key,
                "expected a size such as 40MiB or a percentage from 0% to 100%, found \(node.kindDescription)")
        }
        throw object.error(
            at: node, key: key, "expected a size such as 4096, 640KiB or 40MiB, found \(node.kindDescription)")
    }

    /// The mapping at `key`.
    package func object(_ key: String) throws(InputError) -> ConfigObject {
        try ConfigObject(try required(key, expected: "a mapping"), file: file, path: Self.join(path, key))
    }

    /// The mapping at `key`, or `nil`.
    package func optionalObject(_ key: String) throws(InputError) -> ConfigObject? {
        guard let node = optional(key) else { return nil }
        return try ConfigObject(node, file: file, path: Self.join(path, key))
    }

    /// The list at `key`, or `nil`; each element comes with its path (`apps[3]`).
    package func optionalList(_ key: String) throws(InputError) -> [(path: String, node: ConfigNode)]? {
        guard let node = optional(key) else { return nil }
        guard case .array(let elements) = node.value else {
            throw error(at: node, key: key, "expected a list, found \(node.kindDescription)")
        }
        let base = Self.join(path, key)
        return elements.enumerated().map { ("\(base)[\($0.offset)]", $0.element) }
    }

    /// The list of strings at `key`, or `nil`.
    package func optionalStringList(_ key: String) throws(InputError) -> [String]? {
        guard let list = try optionalList(key) else { return nil }
        var strings: [String] = []
        for (path, node) in list {
            guard case .string(let text) = node.value else {
                throw InputError(
                    file: file, line: node.line, column: node.column, path: path,
                    message: "expected a string, found \(node.kindDescription)")
            }
            strings.append(text)
        }
        return strings
    }

    /// A value at `key` that must be one of `cases` (by raw value); the error lists them.
    package func optionalEnum<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(InputError)
        -> E?
    where E.RawValue == String {
        guard let node = optional(key) else { return nil }
        return try Self.enumValue(node, type, object: self, key: key)
    }

    /// The case of `E` whose raw value `node` holds.
    package static func enumValue<E: RawRepresentable & CaseIterable>(
        _ node: ConfigNode, _ type: E.Type, object: ConfigObject, key: String
    ) throws(InputError) -> E where E.RawValue == String {
        if case .string(let text) = node.value, let value = E(rawValue: text) { return value }
        let names = E.allCases.map(\.rawValue).joined(separator: ", ")
        throw object.error(at: node, key: key, "expected one of \(names), found \(node.kindDescription)")
    }
}
