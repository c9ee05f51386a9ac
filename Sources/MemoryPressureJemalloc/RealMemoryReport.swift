import MemoryPressure

/// What a ``RealMemoryHost`` measured: every kill and purge with the bytes the engine expected to
/// free and the bytes jemalloc measured as freed, and how the arenas' footprints compared with
/// the engine's books.
public struct RealMemoryReport: Sendable, Hashable {
    /// Real bytes per engine byte.
    public var scale: Double
    /// jemalloc's page size.
    public var pageSize: Int
    /// Every kill and purge, in the order the engine decided them.
    public internal(set) var releases: [MeasuredRelease] = []
    /// How many times an app's arena footprint was read and compared with the engine's.
    public internal(set) var footprintSamples = 0
    /// The largest `|arena resident − engine footprint × scale|` seen after an action, in real
    /// bytes: allocator overhead (the arena's metadata, page rounding, padding) that the engine's
    /// books do not count.
    public internal(set) var largestFootprintDrift: Bytes = .zero

    /// An empty report.
    ///
    /// - Complexity: O(1)
    public init(scale: Double, pageSize: Int) {
        self.scale = scale
        self.pageSize = pageSize
    }

    /// The kills.
    ///
    /// - Complexity: O(releases)
    public var kills: ReleaseSummary { ReleaseSummary(releases.lazy.filter { $0.cause == .kill }) }

    /// The purges, of every kind.
    ///
    /// - Complexity: O(releases)
    public var purges: ReleaseSummary { ReleaseSummary(releases.lazy.filter { $0.cause != .kill }) }

    /// Kills and purges together.
    ///
    /// - Complexity: O(releases)
    public var all: ReleaseSummary { ReleaseSummary(releases) }

    /// The largest relative difference between expected and measured bytes of any single kill or
    /// purge, page rounding included (see ``MeasuredRelease/relativeDifference``).
    ///
    /// - Complexity: O(releases)
    public var largestRelativeDifference: Double { all.worstRelativeDifference }

    /// Notes a footprint reading of `measured` real bytes where the engine's books say
    /// `expected` (already scaled).
    mutating func noteFootprint(measured: Bytes, expected: Bytes) {
        footprintSamples += 1
        let drift = Bytes(Int64((measured - expected).value.magnitude))
        if drift > largestFootprintDrift { largestFootprintDrift = drift }
    }
}
