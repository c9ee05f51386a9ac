/// A number of bytes of memory: the unit every size in the engine is kept in.
///
/// Sizes are parsed from integers or from strings with a binary unit (`"512MiB"`, `"1.5GiB"`,
/// `"640KiB"`, `"4096B"`), printed human-readably in tables (``formatted``) and as plain integers in
/// machine-readable output (``value``).
@frozen
public struct Bytes: Hashable, Comparable, Sendable, Codable {
    /// The number of bytes; negative values express a deficit (free memory below zero).
    public var value: Int64

    /// A size of `value` bytes.
    ///
    /// - Complexity: O(1)
    @inlinable
    public init(_ value: Int64) { self.value = value }

    /// A size of `value` bytes.
    ///
    /// - Complexity: O(1)
    @inlinable
    public init(_ value: Int) { self.value = Int64(value) }

    /// No bytes.
    public static let zero = Bytes(0 as Int64)

    /// The largest size any input may give, for one app or one device: 2^50 bytes (1 PiB).
    /// Sizes are range-checked against it when they are parsed, so that the engine's sums of
    /// up to ``PressureEngine/maximumApps`` footprints stay far from `Int64.max` (see
    /// ``PressureEngine/maximumTotalFootprint``).
    public static let maximum = Bytes(1 << 50 as Int64)

    /// `n` kibibytes (1024 bytes each).
    ///
    /// - Complexity: O(1)
    @inlinable public static func kibibytes(_ n: Int64) -> Bytes { Bytes(n << 10) }
    /// `n` mebibytes (1024² bytes each).
    ///
    /// - Complexity: O(1)
    @inlinable public static func mebibytes(_ n: Int64) -> Bytes { Bytes(n << 20) }
    /// `n` gibibytes (1024³ bytes each).
    ///
    /// - Complexity: O(1)
    @inlinable public static func gibibytes(_ n: Int64) -> Bytes { Bytes(n << 30) }

    /// Orders sizes by their byte count.
    ///
    /// - Complexity: O(1)
    @inlinable public static func < (lhs: Bytes, rhs: Bytes) -> Bool { lhs.value < rhs.value }
    /// The sum of two sizes.
    ///
    /// - Complexity: O(1)
    @inlinable public static func + (lhs: Bytes, rhs: Bytes) -> Bytes { Bytes(lhs.value + rhs.value) }
    /// The difference of two sizes.
    ///
    /// - Complexity: O(1)
    @inlinable public static func - (lhs: Bytes, rhs: Bytes) -> Bytes { Bytes(lhs.value - rhs.value) }
    /// Adds `rhs` to `lhs`.
    ///
    /// - Complexity: O(1)
    @inlinable public static func += (lhs: inout Bytes, rhs: Bytes) { lhs.value += rhs.value }
    /// Subtracts `rhs` from `lhs`.
    ///
    /// - Complexity: O(1)
    @inlinable public static func -= (lhs: inout Bytes, rhs: Bytes) { lhs.value -= rhs.value }

    /// Encodes as a plain integer.
    ///
    /// - Complexity: O(1), plus the encoder's cost.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    /// Decodes from an integer or from a string with a unit (see ``init(parsing:)``).
    ///
    /// - Complexity: O(1) for an integer, O(length of the text) for a size with a unit; plus the
    ///   decoder's cost.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self.value = integer
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = Bytes(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a size such as 4096, \"512MiB\" or \"1.5GiB\", found \"\(text)\""
            )
        }
        self = parsed
    }
}

extension Bytes {
    /// The binary units a size may carry, largest first.
    static let units: [(suffix: String, multiplier: Int64)] = [
        ("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10),
        ("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10),
        ("T", 1 << 40), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1),
    ]

    /// Parses `"4096"`, `"512MiB"`, `"1.5 GiB"`, `"640KiB"` or `"12B"`; returns `nil` for anything
    /// else (including negative sizes, percentages and sizes above ``maximum``). `MB`, `M` and
    /// friends are read as binary units, as memory sizes conventionally are.
    ///
    /// - Complexity: O(length of `text`)
    public init?(parsing text: String) {
        guard case .bytes(let value) = Self.parse(text) else { return nil }
        self.value = value
    }

    /// What ``init(parsing:)`` made of a text.
    package enum ParseResult: Equatable {
        /// A size within `0...maximum`.
        case bytes(Int64)
        /// A well-formed size above ``maximum``.
        case tooLarge
        /// Not a size.
        case invalid
    }

    /// Parses a size, telling a size that is too large from text that is not a size.
    package static func parse(_ text: String) -> ParseResult {
        let trimmed = text.trimmingWhitespace()
        var number = Substring(trimmed)
        var multiplier: Int64 = 1
        for (suffix, factor) in Self.units where trimmed.hasSuffix(suffix) {
            number = trimmed.dropLast(suffix.count)
            multiplier = factor
            break
        }
        let digits = String(number).trimmingWhitespace()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return .invalid }
        if let integer = Int64(digits) {
            let (product, overflow) = integer.multipliedReportingOverflow(by: multiplier)
            return !overflow && product <= Self.maximum.value ? .bytes(product) : .tooLarge
        }
        guard let real = Double(digits) else { return .invalid }
        guard real.isFinite, real * Double(multiplier) <= Double(Self.maximum.value) else { return .tooLarge }
        return .bytes(Int64((real * Double(multiplier)).rounded()))
    }

    /// A human-readable size with a binary unit and at most one decimal: `38.0 MiB`, `1.5 GiB`, `512 B`.
    public var formatted: String {
        let magnitude = value.magnitude
        let sign = value < 0 ? "-" : ""
        for (suffix, factor) in Self.units.prefix(4) where magnitude >= UInt64(factor) {
            let scaled = Double(magnitude) / Double(factor)
            let tenths = (scaled * 10).rounded() / 10
            return "\(sign)\(tenths) \(suffix)"
        }
        return "\(sign)\(magnitude) B"
    }
}

extension Bytes: CustomStringConvertible {
    /// The human-readable form (see ``formatted``).
    public var description: String { formatted }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
