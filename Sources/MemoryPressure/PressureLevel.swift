/// How short memory is: each level is entered when free memory falls below its threshold and left
/// only when free memory rises above its (higher) clear threshold.
public enum PressureLevel: Int, Sendable, CaseIterable, Comparable, Codable, CustomStringConvertible {
    /// Enough free memory.
    case normal = 0
    /// Level 1: running apps are warned and asked to release caches.
    case warning = 1
    /// Level 2: a second, stronger warning; kills usually start here.
    case urgent = 2
    /// The last level: kills are certain.
    case critical = 3

    /// Orders levels from normal to critical.
    ///
    /// - Complexity: O(1)
    public static func < (lhs: PressureLevel, rhs: PressureLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level's name as it appears in files and the event log (`normal`, `warning`, `urgent`, `critical`).
    public var name: String {
        switch self {
        case .normal: "normal"
        case .warning: "warning"
        case .urgent: "urgent"
        case .critical: "critical"
        }
    }

    /// The level named `name`, or `nil`.
    ///
    /// - Complexity: O(1) (four names, compared with `name`).
    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    /// The memory-warning level an app receives on entering this level: 1 for ``warning``, 2 for
    /// ``urgent`` and ``critical``, `nil` for ``normal``.
    public var warningLevel: Int? {
        switch self {
        case .normal: nil
        case .warning: 1
        case .urgent, .critical: 2
        }
    }

    /// The level's name.
    public var description: String { name }

    /// Encodes as the level's name.
    ///
    /// - Complexity: O(1), plus the encoder's cost.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// Decodes from a level name.
    ///
    /// - Complexity: O(length of the text), plus the decoder's cost.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let level = PressureLevel(name: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected normal, warning, urgent or critical, found \"\(text)\"")
        }
        self = level
    }
}
