import CJemalloc

/// The index of a jemalloc arena, as used in `arena.<i>.*` and `stats.arenas.<i>.*` controls and
/// in `MALLOCX_ARENA(i)`.
public struct ArenaIndex: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// jemalloc's `unsigned` arena index.
    public var rawValue: UInt32

    /// The arena with index `rawValue`; it need not exist (controls on it then fail with a
    /// ``MallctlError``).
    ///
    /// - Complexity: O(1)
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The pseudo-index `MALLCTL_ARENAS_ALL`: addresses every arena at once (for `purge` and
    /// for the merged statistics of the whole process).
    public static let all = ArenaIndex(rawValue: cjemalloc_arena_all())

    /// Orders indices numerically.
    ///
    /// - Complexity: O(1)
    public static func < (lhs: ArenaIndex, rhs: ArenaIndex) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The index as it appears in control names (`4096` for ``all``).
    public var description: String { String(rawValue) }
}
