import MemoryPressure

/// The outcome of releasing memory: the bytes our own books expected to go back to the
/// operating system, and the bytes jemalloc's statistics show actually went (the drop of the
/// arena's `resident`).
public struct MemoryRelease: Hashable, Sendable {
    /// Bytes freed according to our own counters (the sizes requested).
    public var expected: Bytes
    /// The drop in the arena's resident bytes (`stats.arenas.<i>.resident`) across the release.
    public var measured: Bytes

    /// A release of `expected` bytes of which `measured` were seen to go.
    ///
    /// - Complexity: O(1)
    public init(expected: Bytes, measured: Bytes) {
        self.expected = expected
        self.measured = measured
    }

    /// `|measured − expected| / expected` (0 when both are zero, infinity when only `expected` is).
    public var relativeDifference: Double {
        let difference = Double((measured - expected).value.magnitude)
        if expected.value == 0 { return difference == 0 ? 0 : .infinity }
        return difference / Double(expected.value)
    }
}
