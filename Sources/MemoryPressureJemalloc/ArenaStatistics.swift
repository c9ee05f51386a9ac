import MemoryPressure

/// One reading of an arena's statistics (`stats.arenas.<i>.*`, after refreshing `epoch`).
///
/// Page counts are in jemalloc pages (``pageSize`` bytes each, `arenas.page`).
public struct ArenaStatistics: Hashable, Sendable {
    /// The arena these statistics describe (``ArenaIndex/all`` for the merged statistics).
    public var arena: ArenaIndex
    /// jemalloc's page size in bytes (`arenas.page`).
    public var pageSize: Int
    /// Pages in active extents, that is backing live allocations (`pactive`).
    public var activePages: Int
    /// Unused pages still resident, waiting to be reused or purged (`pdirty`).
    public var dirtyPages: Int
    /// Unused pages purged lazily (`MADV_FREE`), resident until the kernel reclaims them (`pmuzzy`).
    public var muzzyPages: Int
    /// Upper bound of physically resident bytes: metadata, active and dirty pages (`resident`).
    public var resident: Bytes
    /// Bytes in active extents mapped by the arena (`mapped`).
    public var mapped: Bytes
    /// Bytes in live small allocations, by size class (`small.allocated`).
    public var smallAllocated: Bytes
    /// Bytes in live large allocations, by size class (`large.allocated`).
    public var largeAllocated: Bytes

    /// Statistics from their parts; see each property.
    ///
    /// - Complexity: O(1)
    public init(
        arena: ArenaIndex, pageSize: Int, activePages: Int, dirtyPages: Int, muzzyPages: Int,
        resident: Bytes, mapped: Bytes, smallAllocated: Bytes, largeAllocated: Bytes
    ) {
        self.arena = arena
        self.pageSize = pageSize
        self.activePages = activePages
        self.dirtyPages = dirtyPages
        self.muzzyPages = muzzyPages
        self.resident = resident
        self.mapped = mapped
        self.smallAllocated = smallAllocated
        self.largeAllocated = largeAllocated
    }

    /// Bytes in active pages (`pactive × page size`): live allocations rounded to whole pages.
    public var active: Bytes { Bytes(activePages * pageSize) }
    /// Bytes in dirty pages (`pdirty × page size`).
    public var dirty: Bytes { Bytes(dirtyPages * pageSize) }
    /// Bytes in muzzy pages (`pmuzzy × page size`).
    public var muzzy: Bytes { Bytes(muzzyPages * pageSize) }
    /// Bytes in live allocations by size class (small + large).
    public var allocated: Bytes { smallAllocated + largeAllocated }
}
