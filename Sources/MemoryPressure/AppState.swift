/// Where an app is in the iOS 4 multitasking lifecycle (docs/DESIGN.md, "The app lifecycle").
public enum AppState: String, Sendable, CaseIterable, Codable {
    /// Not in memory: never launched, terminated, or killed.
    case notRunning
    /// In the foreground but not receiving events (an interruption, the device locked).
    case inactive
    /// In the foreground and receiving events.
    case active
    /// In memory and still executing, behind the foreground app (a background mode or task).
    case background
    /// In memory but not executing: receives no callbacks, not even a warning or its own death.
    case suspended

    /// The state's position in the declaration, 0 (`notRunning`) to 4 (`suspended`): the tag a
    /// case without payload is stored as, read without a branch. Every engine checks it against
    /// `allCases` in debug builds (``PressureEngine/init(device:policy:)``).
    @inline(__always)
    var ordinal: UInt8 { unsafeBitCast(self, to: UInt8.self) }

    /// Whether the app is in memory (every state but ``notRunning``).
    @inline(__always)
    public var isResident: Bool { self != .notRunning }

    /// Whether the app executes code and so can receive callbacks (active, inactive, background).
    @inline(__always)
    public var isExecuting: Bool { self == .active || self == .inactive || self == .background }

    /// Whether the app is the frontmost one (active or inactive).
    @inline(__always)
    public var isForeground: Bool { self == .active || self == .inactive }

    /// The state's bit in a set of states kept in one byte.
    @inline(__always)
    var compressionBit: UInt8 {
        switch self {
        case .notRunning: 1
        case .inactive: 2
        case .active: 4
        case .background: 8
        case .suspended: 16
        }
    }
}

/// A background mode an app declares so it keeps executing after it leaves the foreground.
public enum BackgroundMode: String, Sendable, CaseIterable, Codable, Comparable {
    /// Plays audio (a music player).
    case audio
    /// Tracks the location (navigation).
    case location
    /// Keeps a voice-over-IP connection.
    case voip

    /// Orders modes by name, so sets print deterministically.
    ///
    /// - Complexity: O(1)
    public static func < (lhs: BackgroundMode, rhs: BackgroundMode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A set of background modes, stored in one byte.
public struct BackgroundModes: OptionSet, Sendable, Hashable {
    /// The bits: audio 1, location 2, voip 4.
    public var rawValue: UInt8

    /// A set from its bits.
    ///
    /// - Complexity: O(1)
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A set holding `modes`.
    ///
    /// - Complexity: O(length of `modes`)
    public init<S: Sequence>(_ modes: S) where S.Element == BackgroundMode {
        self.init(rawValue: 0)
        for mode in modes { insert(BackgroundModes(mode)) }
    }

    /// The one-element set holding `mode`.
    ///
    /// - Complexity: O(1)
    public init(_ mode: BackgroundMode) {
        switch mode {
        case .audio: self.init(rawValue: 1)
        case .location: self.init(rawValue: 2)
        case .voip: self.init(rawValue: 4)
        }
    }

    /// Audio playback.
    public static let audio = BackgroundModes(.audio)
    /// Location tracking.
    public static let location = BackgroundModes(.location)
    /// Voice over IP.
    public static let voip = BackgroundModes(.voip)

    /// The modes in the set, by name.
    public var modes: [BackgroundMode] { BackgroundMode.allCases.filter { contains(BackgroundModes($0)) } }
}
