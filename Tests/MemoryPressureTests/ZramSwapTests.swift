import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// zram is swap (drivers/block/zram/zram_drv.c): under a policy that compresses into zram, its size
/// adds to the swap earlyoom's `lowmem_sig()` reads, and an app's pages in it are swap entries
/// that `oom_badness()` counts (mm/oom_kill.c, `MM_SWAPENTS`).
@Suite("zram as swap: earlyoom's swap condition and oom_badness")
struct ZramSwapTests {
    /// `earlyoom-zram` with a 100 MiB zram and no file pages, on a 1 GiB device (1000 MiB usable).
    static func policy() throws -> Policy {
        var policy = try Policy.shipped("earlyoom-zram")
        policy.compression?.capacity = .bytes(.mebibytes(100))
        policy.compression?.fileBacked = 0
        return policy
    }

    static func engine(_ policy: Policy) -> PressureEngine {
        PressureEngine.scenario(memory: .gibibytes(1), reserved: .mebibytes(24), policy: policy)
    }

    /// A and B (100 MiB each) idle, C (100 MiB) in front.
    static func apps(_ engine: PressureEngine) throws {
        try engine.step(0, .launch(AppLaunch(id: "A", footprint: .mebibytes(100))))
        try engine.step(1, .home)
        try engine.step(2, .launch(AppLaunch(id: "B", footprint: .mebibytes(100))))
        try engine.step(3, .home)
        try engine.step(4, .launch(AppLaunch(id: "C", footprint: .mebibytes(100))))
    }

    @Test("with zram free, earlyoom waits at 5 % available; without swap it kills there")
    func waitsWhileZramIsFree() throws {
        let zram = Self.engine(try Self.policy())
        try Self.apps(zram)
        #expect(zram.swapFree == .mebibytes(100))
        let waiting = try zram.step(5, .allocate(app: "C", bytes: .mebibytes(650), purgeable: false))
        #expect(!waiting.contains { $0.contains(" kill ") }, "\(waiting)")
        #expect(zram.free == .mebibytes(50))

        let plain = Self.engine(try Policy.shipped("earlyoom"))
        try Self.apps(plain)
        let killing = try plain.step(5, .allocate(app: "C", bytes: .mebibytes(650), purgeable: false))
        #expect(killing.contains { $0.contains(" kill ") })
    }

    @Test("once reclaim fills zram, free swap is at or below 10 % and earlyoom kills")
    func killsWhenZramIsFull() throws {
        let engine = Self.engine(try Self.policy())
        try Self.apps(engine)
        // 740 MiB leaves −40 MiB: kswapd swaps A (60 MiB into 30) and 40 MiB of B (into 20) into
        // zram, which is then full; memory and swap are both low, and earlyoom kills.
        let events = try engine.step(5, .allocate(app: "C", bytes: .mebibytes(740), purgeable: false))
        #expect(events.prefix(2) == ["A compress 60MiB into 30MiB", "B compress 40MiB into 20MiB"])
        #expect(events.contains { $0.contains(" kill ") })
        #expect(engine._invariantViolation() == nil)
    }

    @Test("an app's pages in zram count in its oom_score as swap entries: swapping it out does not lower it")
    func badnessCountsZram() throws {
        let engine = Self.engine(try Self.policy())
        try Self.apps(engine)
        let before = engine.killOrder(limit: 3).first { $0.app == "A" }?.reason
        try engine.step(5, .allocate(app: "C", bytes: .mebibytes(650), purgeable: false))
        try engine.step(6, .allocate(app: "C", bytes: .mebibytes(47), purgeable: false))  // below the low watermark
        #expect(engine.compressedBytes(of: "A") == .mebibytes(60))
        let after = engine.killOrder(limit: 3).first { $0.app == "A" }?.reason
        #expect(before != nil && before == after)
        #expect(engine.swapFree == .mebibytes(40))
    }
}
