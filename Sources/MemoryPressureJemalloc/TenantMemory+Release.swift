import MemoryPressure

extension TenantMemory {
    /// Frees every view-cache allocation (offscreen views) and, unless `purging` is false,
    /// purges the arena so the bytes go back to the OS.
    ///
    /// - Returns: the expected and measured bytes released (see ``release(_:purging:)``).
    /// - Complexity: O(live allocations + bytes freed / chunk size + dirty extents).
    @discardableResult
    public func releaseViewCaches(purging: Bool = true) throws(JemallocError) -> MemoryRelease {
        try release([.viewCache], purging: purging)
    }

    /// Frees every purgeable-cache allocation and, unless `purging` is false, purges the arena.
    ///
    /// - Returns: the expected and measured bytes released (see ``release(_:purging:)``).
    /// - Complexity: O(live allocations + bytes freed / chunk size + dirty extents).
    @discardableResult
    public func releasePurgeableCaches(purging: Bool = true) throws(JemallocError) -> MemoryRelease {
        try release([.purgeableCache], purging: purging)
    }

    /// Frees every allocation of `kinds` and, unless `purging` is false, purges the arena.
    ///
    /// - Returns: `expected`: the bytes freed now plus any freed earlier and not yet purged (when
    ///   purging) or the bytes freed now (when not); `measured`: the drop of the arena's
    ///   resident bytes from before the frees to after the purge.
    /// - Complexity: O(live allocations + bytes freed / chunk size + dirty extents).
    @discardableResult
    public func release(_ kinds: Set<TenantMemoryKind>, purging: Bool = true) throws(JemallocError) -> MemoryRelease {
        try measuringRelease(purging: purging) { () throws(JemallocError) in try free(kinds: kinds) }
    }

    /// Frees every allocation labelled `label` and, unless `purging` is false, purges the arena.
    ///
    /// - Returns: the expected and measured bytes released (see ``release(_:purging:)``).
    /// - Complexity: O(allocations freed + bytes freed / chunk size + dirty extents).
    @discardableResult
    public func release(label: String, purging: Bool = true) throws(JemallocError) -> MemoryRelease {
        try measuringRelease(purging: purging) { () throws(JemallocError) in try free(label: label) }
    }

    /// Returns the arena's unused pages to the OS (`arena.<i>.purge`).
    ///
    /// - Returns: `expected`: the bytes freed since the last purge or reset; `measured`: the drop
    ///   of the arena's resident bytes across the purge. (Under ``ArenaDecay/decay(milliseconds:)``
    ///   jemalloc may have purged some of them already, so `measured` can be smaller.)
    /// - Complexity: O(dirty extents).
    @discardableResult
    public func purge() throws(JemallocError) -> MemoryRelease {
        try measuringRelease(purging: true) { () throws(JemallocError) in Bytes.zero }
    }

    /// Kills the tenant's memory: discards every allocation at once (`arena.<i>.reset`) and purges
    /// the arena. Every ``TenantAllocation`` becomes invalid; the tenant can allocate again (a cold
    /// relaunch).
    ///
    /// - Returns: `expected`: every live byte plus bytes freed and not yet purged; `measured`: the
    ///   drop of the arena's resident bytes.
    /// - Complexity: O(live allocations + dirty extents).
    @discardableResult
    public func reset() throws(JemallocError) -> MemoryRelease {
        let before = try arena.statistics().resident
        try arena.reset()
        let expected = Bytes(bytesByKind.values.reduce(0, +) + freedSinceLastPurge)
        records = [:]
        idsByLabel = [:]
        bytesByKind = [:]
        freedSinceLastPurge = 0
        let after = try arena.statistics().resident
        return MemoryRelease(expected: expected, measured: before - after)
    }

    /// Destroys the tenant's arena (`arena.<i>.destroy`): every allocation and the arena's
    /// metadata go back to the OS. The tenant accepts no further calls.
    ///
    /// - Complexity: O(live allocations + extents).
    public func destroy() throws(JemallocError) {
        try arena.destroy()
        records = [:]
        idsByLabel = [:]
        bytesByKind = [:]
        freedSinceLastPurge = 0
    }

    /// Runs `frees`, then purges if asked, and reports expected against measured bytes.
    func measuringRelease(
        purging: Bool, _ frees: () throws(JemallocError) -> Bytes
    ) throws(JemallocError) -> MemoryRelease {
        let before = try arena.statistics().resident
        let freedNow = try frees()
        let expected: Bytes
        if purging {
            try arena.purge()
            expected = Bytes(freedSinceLastPurge)
            freedSinceLastPurge = 0
        } else {
            expected = freedNow
        }
        let after = try arena.statistics().resident
        return MemoryRelease(expected: expected, measured: before - after)
    }
}
