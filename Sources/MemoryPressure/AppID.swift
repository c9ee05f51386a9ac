/// The identity of an app or tenant: a bundle-style id such as `com.example.mail`.
@frozen
public struct AppID: Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id as written, for example `com.example.mail`.
    public var rawValue: String

    /// An id with the given text.
    ///
    /// - Complexity: O(1)
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// An id from a string literal.
    ///
    /// - Complexity: O(1)
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Orders ids by their text.
    ///
    /// - Complexity: O(length of the shorter id)
    public static func < (lhs: AppID, rhs: AppID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The id as written.
    public var description: String { rawValue }

    /// Encodes as a plain string.
    ///
    /// - Complexity: O(length of the id), plus the encoder's cost.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Decodes from a plain string.
    ///
    /// - Complexity: O(length of the id), plus the decoder's cost.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
}
