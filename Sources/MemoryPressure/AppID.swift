/// The identity of an app or tenant: a bundle-style id such as `com.example.mail`.
@frozen
public struct AppID: Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id as written, for example `com.example.mail`.
    public var rawValue: String

    /// An id with the given text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// An id from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Orders ids by their text.
    public static func < (lhs: AppID, rhs: AppID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The id as written.
    public var description: String { rawValue }

    /// Encodes as a plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Decodes from a plain string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
}
