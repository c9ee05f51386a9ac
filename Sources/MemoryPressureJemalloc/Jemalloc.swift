/// Facts about the jemalloc linked into this process.
public enum Jemalloc {
    /// jemalloc's version string (`version`), such as `5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c`.
    ///
    /// - Complexity: O(1)
    public static func version() throws(JemallocError) -> String {
        do { return try JemallocCalls.readString("version") } catch { throw .control(error) }
    }

    /// jemalloc's page size in bytes (`arenas.page`): the unit of `pactive`, `pdirty` and `pmuzzy`.
    ///
    /// - Complexity: O(1)
    public static func pageSize() throws(JemallocError) -> Int {
        do { return try pageSizeUnchecked() } catch { throw .control(error) }
    }

    /// Whether jemalloc was built with statistics (`config.stats`); without them every
    /// `stats.*` control fails with `ENOENT`.
    ///
    /// - Complexity: O(1)
    public static func hasStatistics() throws(JemallocError) -> Bool {
        do { return try JemallocCalls.read("config.stats", as: Bool.self) } catch { throw .control(error) }
    }

    /// The usable size jemalloc gives a request of `bytes` bytes (its size class, `nallocx`).
    ///
    /// - Complexity: O(1)
    public static func sizeClass(of bytes: Int) -> Int {
        JemallocCalls.sizeClass(of: max(bytes, 1), flags: 0)
    }

    /// `arenas.page` without wrapping the error.
    static func pageSizeUnchecked() throws(MallctlError) -> Int {
        Int(try JemallocCalls.read("arenas.page", as: Int.self))
    }
}
