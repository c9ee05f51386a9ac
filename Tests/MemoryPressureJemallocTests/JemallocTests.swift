import MemoryPressure
import MemoryPressureJemalloc
import Testing

/// Every jemalloc test, run one at a time: they create and destroy real arenas, and jemalloc
/// reuses the index of a destroyed arena for the next one created.
@Suite(.serialized)
struct JemallocTests {
    /// jemalloc's page size (`arenas.page`).
    static let page = (try? Jemalloc.pageSize()) ?? 4096
    /// One mebibyte.
    static let mebibyte = 1 << 20
}
