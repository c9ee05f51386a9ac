import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// zswap (`compression.mechanism: zswap`; mm/zswap.c, Documentation/admin-guide/mm/zswap.rst): a
/// compressed cache in RAM up to `max_pool_percent`, in front of a swap file; a full cache sends
/// new pages on to the file, and a resume reads each part back at its own speed.
@Suite("zswap: a compressed cache in front of a swap file")
struct ZswapTests {
    /// ZramSwapTests' policy as zswap: a 100 MiB swap file behind a 20 MiB cache (ratio 2),
    /// 1 ms per MiB to decompress and 10 ms per MiB to read from the file.
    static func policy() throws -> Policy {
        var policy = try ZramSwapTests.policy()
        policy.compression?.mechanism = .zswap
        policy.compression?.zswapPool = .bytes(.mebibytes(20))
        policy.compression?.swapInSecondsPerMiB = 0.01
        return policy
    }

    @Test("pages go to the cache while it has room, and on to the swap file once it is full")
    func cacheThenFile() throws {
        let engine = ZramSwapTests.engine(try Self.policy())
        try ZramSwapTests.apps(engine)
        // 700 MiB leaves 0 free: A's 60 MiB are swapped, 40 of them into the full 20 MiB cache and
        // 20 on to the file; 40 MiB come back, and 40 % of swap is left, so earlyoom waits.
        let events = try engine.step(5, .allocate(app: "C", bytes: .mebibytes(700), purgeable: false))
        #expect(events == ["A compress 60MiB into 20MiB"], "\(events)")
        #expect(engine.free == .mebibytes(40))
        #expect(engine.swapFree == .mebibytes(40))
        #expect(engine.compressionStatus?.stored == .mebibytes(20))
        // The cache is full: B's pages go to the file whole, freeing all they held.
        let more = try engine.step(6, .allocate(app: "C", bytes: .mebibytes(40), purgeable: false))
        #expect(more.first == "B compress 40MiB into 0MiB", "\(more)")
        #expect(engine.compressionStatus?.stored == .mebibytes(20))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a resume waits for the cached part at the decompression speed and the rest at the file's")
    func resumeWaits() throws {
        let engine = ZramSwapTests.engine(try Self.policy())
        try ZramSwapTests.apps(engine)
        try engine.apply(.allocate(app: "C", bytes: .mebibytes(700), purgeable: false), at: 5)
        try engine.apply(.free(app: "C", bytes: .mebibytes(600), purgeable: false), at: 6)
        _ = engine.takeEvents()
        try engine.apply(.open(AppLaunch(id: "A", footprint: .mebibytes(100))), at: 7)
        let resume = engine.takeEvents().compactMap { event -> (bytes: Bytes, stored: Bytes, seconds: Double)? in
            guard case .decompress(_, let bytes, let stored, _, let seconds) = event.kind else { return nil }
            return (bytes, stored, seconds)
        }
        // 40 MiB × 1 ms + 20 MiB × 10 ms.
        #expect(resume.count == 1 && resume[0].bytes == .mebibytes(60) && resume[0].stored == .mebibytes(20))
        #expect(abs((resume.first?.seconds ?? 0) - 0.24) < 1e-12)
        #expect(engine.compressionStatus?.stored == .zero && engine.swapFree == .mebibytes(100))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("zswap needs its cache limit and read speed, which no other mechanism takes; written back the same")
    func loading() throws {
        let shown = PolicyYAML.render(try Self.policy())
        #expect(shown.contains("  zswapPool: 20.0 MiB\n") || shown.contains("  zswapPool: 20971520\n"), "\(shown)")
        #expect(try Policy(yaml: shown, file: "shown.yaml").compression == Self.policy().compression)
        var missing = try Self.policy()
        missing.compression?.zswapPool = nil
        missing.compression?.swapInSecondsPerMiB = nil
        #expect(missing.problems.map(\.path) == ["compression.zswapPool", "compression.swapInSecondsPerMiB"])
        var zram = try ZramSwapTests.policy()
        zram.compression?.swapInSecondsPerMiB = 0.01
        #expect(zram.problems.map(\.path) == ["compression.zswapPool"])
    }
}
