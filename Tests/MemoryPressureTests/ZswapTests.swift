import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// zswap (`compression.mechanism: zswap`; mm/zswap.c, Documentation/admin-guide/mm/zswap.rst): a
/// compressed cache in RAM up to `max_pool_percent`, in front of a swap file; a full cache sends
/// new pages on to the file (`zswap_store()` rejects them) and writes its least recently stored
/// pages back until it is at `accept_threshold_percent` of its limit (`shrink_worker()`), and a
/// resume reads each part back at its own speed.
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

    @Test(
        "pages go to the cache while it has room and on to the swap file once it is full; the full cache is written back to 90 %"
    )
    func cacheThenFile() throws {
        let engine = ZramSwapTests.engine(try Self.policy())
        try ZramSwapTests.apps(engine)
        // 700 MiB leaves 0 free: A's 60 MiB are swapped, 40 of them into the full 20 MiB cache and
        // 20 on to the file. The full cache is written back to 18 MiB (90 %, the kernel's
        // accept_threshold_percent): 4 MiB of A's cached pages move to the file, freeing 2 MiB.
        // 42 MiB come back, and 40 % of swap is left (written-back pages stay swapped), so
        // earlyoom waits.
        let events = try engine.step(5, .allocate(app: "C", bytes: .mebibytes(700), purgeable: false))
        #expect(events == ["A compress 60MiB into 20MiB", "A writeback 4MiB from 2MiB"], "\(events)")
        #expect(engine.free == .mebibytes(42))
        #expect(engine.swapFree == .mebibytes(40))
        #expect(engine.compressionStatus?.stored == .mebibytes(18))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a full cache writes back the pages stored longest ago first, down to accept_threshold_percent")
    func writesBackOldestFirst() throws {
        var policy = try Self.policy()
        policy.compression?.zswapAcceptThresholdPercent = 50
        policy.compression?.capacity = .bytes(.mebibytes(200))  // swap never runs short: earlyoom waits
        let engine = ZramSwapTests.engine(policy)
        try ZramSwapTests.apps(engine)
        // A fills the cache (40 MiB into 20) and is written back to 10 MiB: 20 MiB to the file.
        let first = try engine.step(5, .allocate(app: "C", bytes: .mebibytes(700), purgeable: false))
        #expect(first == ["A compress 60MiB into 20MiB", "A writeback 20MiB from 10MiB"], "\(first)")
        #expect(engine.free == .mebibytes(50))
        // 48 MiB more passes the low watermark. B's 60 MiB: 20 into the cache's last 10 MiB, 40 to
        // the file; the cache is full again and A's pages, stored first, are written back before
        // B's: all of A's 10 MiB.
        let second = try engine.step(6, .allocate(app: "C", bytes: .mebibytes(48), purgeable: false))
        #expect(second == ["B compress 60MiB into 10MiB", "A writeback 20MiB from 10MiB"], "\(second)")
        #expect(engine.free == .mebibytes(62))
        #expect(engine.compressionStatus?.stored == .mebibytes(10))
        #expect(engine.compressedBytes(of: "A") == .mebibytes(60))
        #expect(engine._invariantViolation() == nil)
        // A resume now reads all of A from the file: 60 MiB × 10 ms.
        try engine.apply(.free(app: "C", bytes: .mebibytes(700), purgeable: false), at: 7)
        _ = engine.takeEvents()
        try engine.apply(.open(AppLaunch(id: "A", footprint: .mebibytes(100))), at: 8)
        let waits = engine.takeEvents().compactMap { event -> Double? in
            guard case .decompress(_, _, let stored, _, let seconds) = event.kind, stored == .zero else { return nil }
            return seconds
        }
        #expect(waits.count == 1 && abs(waits[0] - 0.6) < 1e-12, "\(waits)")
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
        // After the write-back to 18 MiB: 36 MiB × 1 ms + 24 MiB × 10 ms.
        #expect(resume.count == 1 && resume[0].bytes == .mebibytes(60) && resume[0].stored == .mebibytes(18))
        #expect(abs((resume.first?.seconds ?? 0) - 0.276) < 1e-12)
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
        zram.compression?.swapInSecondsPerMiB = nil
        zram.compression?.zswapAcceptThresholdPercent = 90
        #expect(zram.problems.map(\.path) == ["compression.zswapPool"])
        // The accept threshold is optional (the kernel's 90 by default), 0 to 100, written back when set.
        var threshold = try Self.policy()
        threshold.compression?.zswapAcceptThresholdPercent = 75
        let written = PolicyYAML.render(threshold)
        #expect(written.contains("  zswapAcceptThresholdPercent: 75\n"), "\(written)")
        #expect(try Policy(yaml: written, file: "shown.yaml").compression == threshold.compression)
        let outOfRange = written.replacingOccurrences(
            of: "zswapAcceptThresholdPercent: 75", with: "zswapAcceptThresholdPercent: 120")
        #expect {
            try Policy(yaml: outOfRange, file: "bad.yaml")
        } throws: { error in
            "\(error)".contains("bad.yaml") && "\(error)".contains("zswapAcceptThresholdPercent")
                && "\(error)".contains("from 0 to 100")
        }
    }
}
