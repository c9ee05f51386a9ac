/// Memory figures of the whole process, from the jemalloc linked into it.
///
/// jemalloc from libjemalloc-dev has no symbol prefix, so a process that links this module has
/// jemalloc as its `malloc`: these figures count every allocation of the process (Swift's
/// objects and arrays included), not only those made in tenant arenas. They are what benchmarks
/// and diagnostics use to measure how much memory a piece of code holds:
///
///     let before = try JemallocProcessStatistics.allocated()
///     let engine = try buildEngine()
///     let bytes = try JemallocProcessStatistics.allocated() - before
public enum JemallocProcessStatistics {
    /// Bytes in live allocations of the whole process, counted by size class (`stats.allocated`,
    /// after refreshing `epoch`).
    ///
    /// The calling thread's cache is flushed first (`thread.tcache.flush`): jemalloc counts the
    /// blocks a thread cache keeps for reuse as allocated, so without the flush a reading would
    /// include up to a few hundred KiB of freed blocks. Other threads' caches are not flushed.
    ///
    /// - Throws: ``JemallocError/control(_:)`` if jemalloc was built without statistics.
    /// - Complexity: O(number of arenas) inside jemalloc.
    public static func allocated() throws(JemallocError) -> Int {
        do {
            try JemallocCalls.run("thread.tcache.flush")
            try JemallocCalls.refreshStatistics()
            return try JemallocCalls.read("stats.allocated", as: Int.self)
        } catch {
            throw .control(error)
        }
    }

    /// An upper bound of the bytes jemalloc keeps physically resident for the whole process:
    /// its metadata, the pages of live allocations and dirty pages not yet returned to the
    /// system (`stats.resident`, after refreshing `epoch`).
    ///
    /// - Throws: ``JemallocError/control(_:)`` if jemalloc was built without statistics.
    /// - Complexity: O(number of arenas) inside jemalloc.
    public static func resident() throws(JemallocError) -> Int {
        do {
            try JemallocCalls.refreshStatistics()
            return try JemallocCalls.read("stats.resident", as: Int.self)
        } catch {
            throw .control(error)
        }
    }

    /// The highest value that (bytes allocated − bytes deallocated) by the calling thread reached
    /// since its last ``resetThreadPeak()`` (`thread.peak.read`): the peak memory of the work the
    /// thread did in between. jemalloc keeps it accurate to within about 100 KiB.
    ///
    /// - Throws: ``JemallocError/control(_:)`` if jemalloc was built without statistics.
    /// - Complexity: O(1)
    public static func threadPeak() throws(JemallocError) -> Int {
        do {
            return Int(try JemallocCalls.read("thread.peak.read", as: UInt64.self))
        } catch {
            throw .control(error)
        }
    }

    /// Starts a new peak for ``threadPeak()`` at the calling thread's current allocations
    /// (`thread.peak.reset`).
    ///
    /// - Throws: ``JemallocError/control(_:)`` if jemalloc was built without statistics.
    /// - Complexity: O(1)
    public static func resetThreadPeak() throws(JemallocError) {
        do {
            try JemallocCalls.run("thread.peak.reset")
        } catch {
            throw .control(error)
        }
    }
}
