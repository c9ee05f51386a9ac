import MemoryPressure

/// How a ``RealMemoryHost`` turns the engine's bytes into real allocations and gives freed pages
/// back to the operating system.
public struct RealMemoryConfiguration: Sendable, Hashable {
    /// Real bytes per engine byte: `1.0 / 16` allocates a 30 MiB app as about 1.9 MiB, so a
    /// phone's workload fits in a test. Every real allocation is the engine's bytes times `scale`,
    /// rounded to the nearest jemalloc page.
    public var scale: Double
    /// When freed pages go back to the operating system.
    public var pageReturn: PageReturn
    /// Whether every allocated page is written to, so it is resident for the operating system
    /// too (and not only counted by jemalloc).
    public var touchesPages: Bool
    /// The largest single `mallocx` an allocation is split into (see ``TenantMemory``).
    public var chunkSize: Bytes
    /// Whether the host reads the arenas of the apps each action touched and compares their
    /// footprints with the engine's (``RealMemoryReport/largestFootprintDrift``). Each reading
    /// refreshes jemalloc's statistics, which costs O(number of arenas): turn it off for
    /// thousands of tenants. Kills and purges are measured either way.
    public var readsFootprints: Bool

    /// A configuration; see each property.
    ///
    /// - Complexity: O(1)
    public init(
        scale: Double = 1.0 / 16,
        pageReturn: PageReturn = .purge,
        touchesPages: Bool = true,
        chunkSize: Bytes = .mebibytes(1),
        readsFootprints: Bool = true
    ) {
        self.scale = scale
        self.pageReturn = pageReturn
        self.touchesPages = touchesPages
        self.chunkSize = chunkSize
        self.readsFootprints = readsFootprints
    }

    /// When a ``RealMemoryHost`` returns freed pages to the operating system.
    public enum PageReturn: Sendable, Hashable {
        /// Arenas never purge on their own (``ArenaDecay/explicitPurgeOnly``); every purge,
        /// `free` and handler release ends with `arena.<i>.purge`, so the bytes are back at once
        /// and each release is measured exactly.
        case purge
        /// Arenas purge along jemalloc's decay curve (``ArenaDecay/decay(milliseconds:)``) and the
        /// host never calls `arena.<i>.purge`. A release is measured right after its frees, so
        /// with a decay above 0 ms the measured bytes fall short of the expected ones by the
        /// pages jemalloc has not purged yet; 0 ms purges at every free.
        case decay(milliseconds: Int)

        /// The arena decay this mode needs.
        var arenaDecay: ArenaDecay {
            switch self {
            case .purge: return .explicitPurgeOnly
            case .decay(let milliseconds): return .decay(milliseconds: milliseconds)
            }
        }

        /// Whether the host purges explicitly after freeing.
        var purgesExplicitly: Bool {
            if case .purge = self { return true }
            return false
        }
    }

    /// The real bytes for `engineBytes`: times ``scale``, rounded to the nearest multiple of `page`.
    ///
    /// - Complexity: O(1)
    func realBytes(_ engineBytes: Int64, page: Int) -> Bytes {
        let pages = (Double(engineBytes) * scale / Double(page)).rounded()
        return Bytes(Int64(pages) * Int64(page))
    }

    /// `engineBytes` times ``scale``, rounded to the nearest byte: what a release is expected to free.
    ///
    /// - Complexity: O(1)
    func scaled(_ engineBytes: Int64) -> Bytes {
        Bytes(Int64((Double(engineBytes) * scale).rounded()))
    }
}
