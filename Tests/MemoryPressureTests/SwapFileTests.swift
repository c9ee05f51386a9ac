import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// Swap on storage (`compression.mechanism: swap`; mm/swapfile.c): reclaim writes idle apps' pages
/// out as they are, nothing of them stays in memory, free swap falls, and a resume waits to read
/// them back.
@Suite("Swap on storage: nothing in memory, free swap, the wait to read back")
struct SwapFileTests {
    /// `earlyoom-zram` turned into a 100 MiB swap file (10 ms per MiB read back, no file pages),
    /// on ZramSwapTests' 1 GiB device (1000 MiB usable).
    static func policy() throws -> Policy {
        var policy = try ZramSwapTests.policy()
        policy.compression?.mechanism = .swap
        policy.compression?.ratio = 1
        policy.compression?.decompressSecondsPerMiB = 0.01
        return policy
    }

    @Test("a page swapped out frees all of itself: the swap file keeps nothing in memory, and free swap falls")
    func nothingInMemory() throws {
        let engine = ZramSwapTests.engine(try Self.policy())
        try ZramSwapTests.apps(engine)
        #expect(engine.swapFree == .mebibytes(100))
        // 740 MiB leaves −40 MiB: kswapd writes A's 60 MiB out, which frees 60 (zram freed 30).
        let events = try engine.step(5, .allocate(app: "C", bytes: .mebibytes(740), purgeable: false))
        #expect(events == ["A compress 60MiB into 0MiB"], "\(events)")
        #expect(engine.free == .mebibytes(20))
        #expect(engine.swapFree == .mebibytes(40))
        #expect(engine.compressionStatus?.stored == .zero && engine.compressionStatus?.pooled == .mebibytes(60))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("earlyoom waits while the swap file has room, and kills once memory and swap are both low")
    func earlyoomReadsTheSwapFile() throws {
        let engine = ZramSwapTests.engine(try Self.policy())
        try ZramSwapTests.apps(engine)
        // 20 MiB available is below earlyoom's 5 % (50 MiB), but 40 % of swap is free: no kill.
        #expect(
            try engine.step(5, .allocate(app: "C", bytes: .mebibytes(740), purgeable: false))
                .allSatisfy { !$0.contains(" kill ") })
        // 60 MiB more: B's first 40 MiB fill the file; memory and swap are both at 0.
        let events = try engine.step(6, .allocate(app: "C", bytes: .mebibytes(60), purgeable: false))
        #expect(events.first == "B compress 40MiB into 0MiB", "\(events)")
        #expect(events.contains { $0.contains(" kill ") })
        #expect(engine._invariantViolation() == nil)
    }

    @Test("an app brought back waits to read its pages back: bytes × decompressSecondsPerMiB")
    func resumeWaits() throws {
        let engine = ZramSwapTests.engine(try Self.policy())
        try ZramSwapTests.apps(engine)
        try engine.apply(.allocate(app: "C", bytes: .mebibytes(740), purgeable: false), at: 5)
        try engine.apply(.free(app: "C", bytes: .mebibytes(700), purgeable: false), at: 6)
        _ = engine.takeEvents()
        try engine.apply(.open(AppLaunch(id: "A", footprint: .mebibytes(100))), at: 7)
        let resume = engine.takeEvents().compactMap { event -> String? in
            guard case .decompress = event.kind else { return nil }
            return event.jsonLine
        }
        #expect(
            resume == [
                #"{"t":7,"type":"decompress","app":"A","bytes":62914560,"stored":0,"refaulted":0,"seconds":0.6}"#
            ])
        #expect(engine.swapFree == .mebibytes(100))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("swap writes pages as they are: a ratio other than 1, a freezer or a thrashing rule is refused")
    func refused() throws {
        var ratio = try Self.policy()
        ratio.compression?.ratio = 2
        #expect(ratio.problems.map(\.path) == ["compression.ratio"])
        var freezer = try Self.policy()
        freezer.compression?.freezer = MemoryCompression.Freezer(
            minimum: .mebibytes(8), maxFrozen: 1, dailyBudget: .gibibytes(1), suspendedThreshold: 1,
            writeSecondsPerMiB: 0, thawSecondsPerMiB: 0)
        #expect(freezer.problems.map(\.path) == ["compression.freezer"])
        let text = PolicyYAML.render(try Self.policy()).replacingOccurrences(of: "ratio: 1\n", with: "ratio: 3\n")
        do {
            _ = try Policy(yaml: text, file: "swap.yaml")
            Issue.record("a swap file with ratio 3 was accepted")
        } catch {
            let problem = try #require(error.problems.first)
            #expect(
                problem.file == "swap.yaml" && problem.description.contains("expected 1 and no \"ratios\" for swap"))
        }
    }
}
