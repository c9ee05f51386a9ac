import MemoryPressure

/// The memory of one app or tenant, held in a jemalloc arena of its own.
///
/// Memory is allocated as ``TenantMemoryKind/base``, ``TenantMemoryKind/viewCache`` or
/// ``TenantMemoryKind/purgeableCache`` so the caches can be released on a warning, and the
/// tenant's footprint is read from the arena's statistics (``footprint()``), not from our own
/// counters, which exist only to report what we *expected* (``expectedFootprint``).
///
/// A request is split into pieces of at most ``chunkSize`` bytes, then into exact jemalloc size
/// classes, so that the pages jemalloc uses match the bytes requested up to one page of
/// cache-oblivious padding per large piece (0.4 % for 1 MiB chunks) and one small remainder below
/// 16 KiB, instead of up to 25 % of size-class rounding for a single `mallocx`.
///
/// Not thread-safe: use one tenant from one task at a time.
public final class TenantMemory {
    /// A name for messages and reports (an app id, a tenant id).
    public let name: String
    /// The arena every allocation of this tenant lives in.
    public let arena: JemallocArena
    /// The largest single `mallocx` a request is split into, in bytes.
    public let chunkSize: Int
    /// Whether allocations write to every page, so they are resident for the OS too.
    public let touchesPages: Bool

    /// One live allocation: its handle and the arena pieces it is made of.
    struct Record {
        var handle: TenantAllocation
        var pieces: [ArenaAllocation]
    }

    /// Live allocations by id.
    var records: [UInt64: Record] = [:]
    /// Ids of live allocations by label.
    var idsByLabel: [String: Set<UInt64>] = [:]
    /// The id the next allocation gets.
    var nextID: UInt64 = 0
    /// Bytes requested and not freed, by kind.
    var bytesByKind: [TenantMemoryKind: Int64] = [:]
    /// Bytes freed since the last purge or reset.
    var freedSinceLastPurge: Int64 = 0

    /// A tenant with a new arena.
    ///
    /// - Parameters:
    ///   - name: the tenant's name, in errors and reports.
    ///   - decay: when its arena returns freed pages to the OS (default: only on ``purge()``).
    ///   - chunkSize: the largest single `mallocx`, a power of two from 16 KiB to 4 MiB.
    ///   - touchesPages: write to every allocated page so it is really resident.
    /// - Throws: ``JemallocError/invalidChunkSize(bytes:)``, or ``JemallocError/control(_:)``
    ///   if the arena cannot be created.
    /// - Complexity: O(1)
    public init(
        name: String,
        decay: ArenaDecay = .explicitPurgeOnly,
        chunkSize: Bytes = .mebibytes(1),
        touchesPages: Bool = true
    ) throws(JemallocError) {
        let chunk = chunkSize.value
        guard chunk >= 16 << 10, chunk <= 4 << 20, chunk & (chunk - 1) == 0 else {
            throw .invalidChunkSize(bytes: chunk)
        }
        self.name = name
        self.arena = try JemallocArena(decay: decay)
        self.chunkSize = Int(chunk)
        self.touchesPages = touchesPages
    }

    /// The tenant's footprint: the resident bytes of its arena (`stats.arenas.<i>.resident`:
    /// live pages, dirty pages not yet purged, and the arena's metadata).
    ///
    /// - Complexity: O(number of arenas) for the statistics refresh.
    public func footprint() throws(JemallocError) -> Bytes {
        try arena.statistics().resident
    }

    /// The arena's current statistics.
    ///
    /// - Complexity: O(number of arenas) for the statistics refresh.
    public func statistics() throws(JemallocError) -> ArenaStatistics {
        try arena.statistics()
    }

    /// Bytes requested and not yet freed, of `kind`, by our own counters.
    ///
    /// - Complexity: O(1)
    public func expectedBytes(of kind: TenantMemoryKind) -> Bytes {
        Bytes(bytesByKind[kind, default: 0])
    }

    /// Bytes requested and not yet freed, of every kind, by our own counters.
    ///
    /// - Complexity: O(1)
    public var expectedFootprint: Bytes {
        Bytes(bytesByKind.values.reduce(0, +))
    }

    /// The number of live allocations.
    ///
    /// - Complexity: O(1)
    public var allocationCount: Int { records.count }

    /// The live allocations, in the order they were made.
    ///
    /// - Complexity: O(n log n) in the number of live allocations.
    public var allocations: [TenantAllocation] {
        records.values.map(\.handle).sorted { $0.id < $1.id }
    }
}
