import MemoryPressure

extension ArenaStatistics {
    /// Refreshes jemalloc's statistics (`epoch`) and reads those of `arena`.
    ///
    /// - Throws: ``JemallocError/control(_:)`` naming the first control that failed, for
    ///   example `stats.arenas.99999.pactive` with `ENOENT` for an arena that does not exist.
    /// - Complexity: O(number of arenas) inside jemalloc for the `epoch` refresh, then O(1).
    public static func read(arena: ArenaIndex) throws(JemallocError) -> ArenaStatistics {
        do {
            try JemallocCalls.refreshStatistics()
            return try readWithoutRefresh(arena: arena)
        } catch {
            throw .control(error)
        }
    }

    /// Reads the statistics of `arena` from the current `epoch` snapshot.
    static func readWithoutRefresh(arena: ArenaIndex) throws(MallctlError) -> ArenaStatistics {
        let prefix = "stats.arenas.\(arena)."
        func size(_ name: String) throws(MallctlError) -> Int {
            Int(try JemallocCalls.read(prefix + name, as: Int.self))
        }
        return ArenaStatistics(
            arena: arena,
            pageSize: try Jemalloc.pageSizeUnchecked(),
            activePages: try size("pactive"),
            dirtyPages: try size("pdirty"),
            muzzyPages: try size("pmuzzy"),
            resident: Bytes(try size("resident")),
            mapped: Bytes(try size("mapped")),
            smallAllocated: Bytes(try size("small.allocated")),
            largeAllocated: Bytes(try size("large.allocated"))
        )
    }
}
