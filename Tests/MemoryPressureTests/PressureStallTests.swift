import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// lmkd's PSI mode (`psi:`), one rule of `mp_event_psi()` (system/memory/lmkd/lmkd.cpp) per test.
///
/// The device has 1 GiB (1000 MiB usable), so the kernel's zone watermarks (mm/page_alloc.c,
/// `calculate_min_free_kbytes()` and `__setup_per_zone_wmarks()`) are min 4096 KiB, low 5144 KiB
/// and high 6192 KiB. Apps: suspended apps are cached (oom_score_adj 900), a background app with
/// audio is perceptible (200), the foreground app 0.
@Suite("lmkd's PSI mode: mp_event_psi()'s rules")
struct PressureStallTests {
    static let mib: Int64 = 1 << 20

    static func policy(
        compress names: String, capacity: String = "200MiB", fileBacked: Double = 0.25, swapFreeLow: Int = 10,
        thrashingLimit: Int = 100, decompress: Double = 0.001
    ) throws -> Policy {
        try Policy(
            yaml: """
                name: psi-test
                thresholds: { critical: { enter: 1MiB, clear: 2MiB } }
                kill: { startLevel: critical, target: 1MiB }
                oomScoreAdjByState: { active: 0, inactive: 100, background: 500, suspended: 900 }
                oomScoreAdjByBackgroundMode: { audio: 200 }
                bands:
                  - { name: cached, match: { oomScoreAdj: [900, 1000] }, order: firstInFirstOut, slotsByOomScoreAdj: true, reason: oldest cached app }
                  - { name: services, match: { oomScoreAdj: [201, 899] }, order: firstInFirstOut, slotsByOomScoreAdj: true, reason: oldest service }
                  - { name: perceptible, match: { oomScoreAdj: [0, 200] }, order: largestFirst, slotsByOomScoreAdj: true, reason: heaviest }
                compression:
                  mechanism: zram
                  match: { names: ["\(names)"] }
                  capacity: \(capacity)
                  ratio: 4
                  compressible: 0.5
                  fileBacked: \(fileBacked)
                  startBelow: lowWatermark
                  stopAt: highWatermark
                  compressSecondsPerMiB: 0.002
                  decompressSecondsPerMiB: \(decompress)
                  refaultSecondsPerMiB: 0.004
                psi:
                  swapFreeLowPercentage: \(swapFreeLow)
                  thrashingLimit: \(thrashingLimit)
                  thrashingLimitCritical: 1000
                """, file: "psi-test.yaml")
    }

    static func engine(_ policy: Policy) -> PressureEngine {
        PressureEngine.scenario(memory: .gibibytes(1), reserved: .mebibytes(24), policy: policy)
    }

    /// Launches `id` with `mib` MiB and sends it home (suspended, or background with audio).
    static func idle(
        _ engine: PressureEngine, _ id: String, mib: Int64, at time: Double, audio: Bool = false, adj: Int? = nil
    )
        throws
    {
        try engine.apply(
            .launch(
                AppLaunch(
                    id: AppID(id), footprint: .mebibytes(mib), backgroundModes: audio ? [.audio] : [], oomScoreAdj: adj)
            ),
            at: time)
        try engine.apply(.home, at: time + 0.1)
    }

    /// Allocates (or frees) in `app` so that free memory becomes `free` bytes, before reclaim.
    static func allocate(_ engine: PressureEngine, _ app: AppID, toFree free: Int64, at time: Double) throws {
        let bytes = engine.free.value - free
        if bytes >= 0 {
            try engine.apply(.allocate(app: app, bytes: Bytes(bytes), purgeable: false), at: time)
        } else {
            try engine.apply(.free(app: app, bytes: Bytes(-bytes), purgeable: false), at: time)
        }
    }

    static func kills(_ events: [Event]) -> [(app: String, reason: String)] {
        events.compactMap { event in
            guard case .kill(let app, _, let reason, _, _) = event.kind else { return nil }
            return (app.rawValue, reason)
        }
    }

    @Test("the watermarks follow the kernel's formula, and the status reports them")
    func watermarks() throws {
        let engine = Self.engine(try Self.policy(compress: "^Z$"))
        let status = try #require(engine.pressureStallStatus)
        #expect(status.minWatermark == Bytes(4096 * 1024))
        #expect(status.lowWatermark == Bytes(5144 * 1024))
        #expect(status.highWatermark == Bytes(6192 * 1024))
        #expect(ZoneWatermark.min.resolved(on: Device(memory: .gibibytes(8))) == Bytes(11_585 * 1024))
        #expect(status.swapTotal == .mebibytes(200) && status.swapFree == .mebibytes(200))
    }

    @Test("no stall, no kill: below the low watermark with nothing to reclaim, lmkd sleeps (it wakes on PSI events)")
    func noStallNoKill() throws {
        let engine = Self.engine(try Self.policy(compress: "^none$"))
        try Self.idle(engine, "A", mib: 100, at: 0)
        try engine.apply(.launch(AppLaunch(id: "C", footprint: .mebibytes(100))), at: 1)
        try Self.allocate(engine, "C", toFree: 4_608 * 1024, at: 2)  // 4.5 MiB: between min and low
        #expect(Self.kills(engine.takeEvents()).isEmpty)
        #expect(engine.status(of: "A")?.state == .suspended)
    }

    @Test(
        "NOT_RESPONDING on a complete stall, then PRESSURE_AFTER_KILL while below the min watermark, then LOW_MEM_AND_SWAP, which spares perceptible apps (min_score_adj 201)",
        arguments: [900, 200])
    func notRespondingThenAfterKill(zAdj: Int) throws {
        let engine = Self.engine(try Self.policy(compress: "^Z$", fileBacked: 0, swapFreeLow: 100))
        try Self.idle(engine, "T", mib: 1, at: 0)
        try Self.idle(engine, "Z", mib: 100, at: 1, adj: zAdj)
        try Self.idle(engine, "M", mib: 100, at: 2, audio: true)
        try engine.apply(.launch(AppLaunch(id: "C", footprint: .mebibytes(100))), at: 3)
        // Between min and low: kswapd compresses Z (50 MiB into 12.5), back above high; no stall, no kill.
        try Self.allocate(engine, "C", toFree: 4_608 * 1024, at: 4)
        let reclaim = engine.takeEvents()
        #expect(reclaim.contains { if case .compress(let app, _, _, _, _) = $0.kind { app == "Z" } else { false } })
        #expect(Self.kills(reclaim).isEmpty)
        // 3 MiB free, nothing left to reclaim: allocations block, a complete stall. T (1 MiB, the
        // oldest cached app) goes for "not responding"; 4 MiB free is not below min but below
        // low, with swap low (pct 100): LOW_MEM_AND_SWAP may kill only above adj 200.
        try Self.allocate(engine, "C", toFree: 3 * Self.mib, at: 10)
        let kills = Self.kills(engine.takeEvents())
        #expect(kills.first?.app == "T")
        #expect(kills.first?.reason.hasPrefix("device is not responding: oldest cached app") == true)
        if zAdj == 900 {
            #expect(kills.count == 2)
            #expect(kills.last?.app == "Z")
            #expect(
                kills.last?.reason.hasPrefix("low watermark is breached and swap is low (153600kB < 204800kB)") == true)
        } else {
            #expect(kills.count == 1, "Z at adj 200 and M are perceptible: min_score_adj 201 spares them")
            #expect(engine.status(of: "Z")?.state == .suspended)
        }
        #expect(engine.status(of: "M")?.state == .background)
        #expect(engine._invariantViolation() == nil)
    }

    @Test(
        "PRESSURE_AFTER_KILL: a kill that leaves free memory below the min watermark is followed by another, down to adj 0"
    )
    func pressureAfterKill() throws {
        let engine = Self.engine(try Self.policy(compress: "^none$"))
        try Self.idle(engine, "T", mib: 1, at: 0)
        try Self.idle(engine, "B", mib: 300, at: 1)
        try engine.apply(.launch(AppLaunch(id: "C", footprint: .mebibytes(300))), at: 2)
        try Self.allocate(engine, "C", toFree: 2 * Self.mib, at: 3)
        let kills = Self.kills(engine.takeEvents())
        #expect(kills.map(\.app) == ["T", "B"])
        #expect(kills[0].reason.hasPrefix("device is not responding"))
        #expect(kills[1].reason.hasPrefix("min watermark is breached even after kill"))
        #expect(engine.status(of: "C")?.state == .active)
    }

    /// Y and Z (50 MiB each) compressed by reclaim — 25 MiB each into 6.25, 12.5 MiB of file
    /// pages dropped — with C (100 MiB) in front, leaving 22.5 MiB free. Reopened later, Z waits
    /// 25 ms for decompression and 50 ms for its refaults: a "some" stall of 75 ms ≥ 70, and its
    /// refaults are a few percent of the file cache (thrashing).
    static func thrashingSetup(_ engine: PressureEngine) throws {
        try Self.idle(engine, "Y", mib: 50, at: 0)
        try Self.idle(engine, "Z", mib: 50, at: 1)
        try engine.apply(.launch(AppLaunch(id: "C", footprint: .mebibytes(100))), at: 2)
        try Self.allocate(engine, "C", toFree: -40 * Self.mib, at: 3)
        let reclaimed = engine.takeEvents().compactMap { event -> String? in
            if case .compress(let app, _, _, _, _) = event.kind { return app.rawValue }
            return nil
        }
        #expect(reclaimed == ["Y", "Z"])
        #expect(engine.free.value == 45 * Self.mib / 2)
    }

    @Test("LOW_SWAP_AND_THRASHING: swap low and thrashing kill whatever free memory is, above adj 200")
    func lowSwapAndThrashing() throws {
        let engine = Self.engine(try Self.policy(compress: "^[YZ]$", swapFreeLow: 100, thrashingLimit: 2))
        try Self.thrashingSetup(engine)
        try engine.apply(.free(app: "C", bytes: .mebibytes(300), purgeable: false), at: 4)
        try engine.apply(.open(AppLaunch(id: "Z", footprint: .mebibytes(50))), at: 10)
        let kills = Self.kills(engine.takeEvents())
        #expect(kills.map(\.app) == ["Y"], "Y is the oldest cached app; C, just left, entered the slot later")
        #expect(kills.first?.reason.hasPrefix("device is low on swap (179200kB < 204800kB) and thrashing (") == true)
        #expect(engine.free.value > 100 * Self.mib)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("LOW_MEM_AND_THRASHING: below the low watermark and thrashing; each such kill lowers the limit by its decay")
    func lowMemoryAndThrashing() throws {
        let engine = Self.engine(try Self.policy(compress: "^[YZ]$", thrashingLimit: 2))
        try Self.thrashingSetup(engine)
        // Z comes back needing 37.5 MiB and giving 6.25 back to the pool: leave free memory so
        // that it lands between the min and low watermarks (4.5 MiB), with nothing left to reclaim.
        try Self.allocate(engine, "C", toFree: 4_608 * 1024 + 125 * Self.mib / 4, at: 4)
        #expect(Self.kills(engine.takeEvents()).isEmpty)
        try engine.apply(.open(AppLaunch(id: "Z", footprint: .mebibytes(50))), at: 10)
        let events = engine.takeEvents()
        let kills = Self.kills(events)
        #expect(kills.map(\.app) == ["Y"])
        #expect(kills.first?.reason.hasPrefix("low watermark is breached and thrashing (") == true)
        #expect(engine.pressureStallStatus?.thrashingLimit == 1, "2 × (100 − 10) / 100, in integers")
        #expect(engine._invariantViolation() == nil)
    }

    @Test(
        "DIRECT_RECL_AND_THRASHING: an allocation below the min watermark reclaims directly while the window thrashes")
    func directReclaimAndThrashing() throws {
        let engine = Self.engine(try Self.policy(compress: "^[XYZ]$", thrashingLimit: 2))
        try Self.thrashingSetup(engine)
        try engine.apply(.free(app: "C", bytes: .mebibytes(300), purgeable: false), at: 4)
        try Self.idle(engine, "X", mib: 100, at: 5)  // X: the next app reclaim can take
        _ = engine.takeEvents()
        // Z comes back (refaults: thrashing, a 75 ms stall, but memory is plentiful: no rule holds).
        try engine.apply(.open(AppLaunch(id: "Z", footprint: .mebibytes(50))), at: 10)
        #expect(Self.kills(engine.takeEvents()).isEmpty)
        // In the same window Z allocates past the min watermark: it reclaims X itself (direct).
        try Self.allocate(engine, "Z", toFree: 2 * Self.mib, at: 10.5)
        let events = engine.takeEvents()
        #expect(events.contains { if case .compress(let app, _, _, _, _) = $0.kind { app == "X" } else { false } })
        let kills = Self.kills(events)
        #expect(kills.map(\.app) == ["Y"])
        #expect(kills.first?.reason.hasPrefix("device is in direct reclaim and thrashing (") == true)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a window later the stall is gone, the thrashing is the last window's and the limit is reset")
    func windowReset() throws {
        let engine = Self.engine(try Self.policy(compress: "^[YZ]$", swapFreeLow: 0, thrashingLimit: 100))
        try Self.thrashingSetup(engine)
        try engine.apply(.free(app: "C", bytes: .mebibytes(300), purgeable: false), at: 4)
        try engine.apply(.open(AppLaunch(id: "Z", footprint: .mebibytes(50))), at: 10)
        let during = try #require(engine.pressureStallStatus)
        #expect(abs(during.someMilliseconds - 75) < 1e-9 && during.fullMilliseconds == 0, "\(during)")
        #expect(during.thrashing > 2)
        try engine.apply(.tick, at: 11.5)
        let after = try #require(engine.pressureStallStatus)
        #expect(after.someMilliseconds == 0)
        #expect(after.thrashing == during.thrashing)
        #expect(after.thrashingLimit == 100)
    }

    /// Z (50 MiB) is reclaimed first, then W (400 MiB): 300 MiB evicted after Z. When Z comes back
    /// the working set — the file cache (a quarter of what is resident) and the anonymous memory of
    /// the executing apps — is smaller than that refault distance, so by `workingset_refault()`
    /// (mm/workingset.c) its pages are not working set and reading them back is no stall
    /// (`swap_readpage()`, mm/page_io.c, enters a memory stall only for a working-set page), though
    /// the refaults still count toward thrashing (`workingset_refault_file` counts every one). On a
    /// real kernel, 121 MiB read back from zram that way gave a 0.17 s wait and no PSI stall at all
    /// (`scripts/measure-zram-swap.py`, docs/compression.md).
    @Test("a resume long after its reclaim waits without a stall: its refault distance passes the working set")
    func coldResumeDoesNotStall() throws {
        let engine = Self.engine(try Self.policy(compress: "^[WZ]$", swapFreeLow: 0, thrashingLimit: 1000))
        try Self.idle(engine, "Z", mib: 50, at: 0)
        try Self.idle(engine, "W", mib: 400, at: 1)
        try engine.apply(.launch(AppLaunch(id: "C", footprint: .mebibytes(100))), at: 2)
        try Self.allocate(engine, "C", toFree: -40 * Self.mib, at: 3)
        let reclaimed = engine.takeEvents().compactMap { event -> String? in
            if case .compress(let app, _, _, _, _) = event.kind { return app.rawValue }
            return nil
        }
        #expect(reclaimed == ["Z", "W"])
        try engine.apply(.open(AppLaunch(id: "Z", footprint: .mebibytes(50))), at: 10)
        let events = engine.takeEvents()
        let wait = events.compactMap { event -> Double? in
            if case .decompress(let app, _, _, _, let seconds) = event.kind, app == "Z" { return seconds }
            return nil
        }
        #expect(
            wait.count == 1 && abs(wait[0] - 0.075) < 1e-12,
            "25 MiB decompressed at 1 ms and 12.5 MiB of file pages at 4 ms a MiB")
        let status = try #require(engine.pressureStallStatus)
        #expect(status.someMilliseconds == 0 && status.fullMilliseconds == 0, "\(status)")
        #expect(status.thrashing > 0, "the refaults count toward thrashing all the same")
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a policy with psi may not keep minfree levels, and its section is checked")
    func schema() throws {
        var policy = try Self.policy(compress: "^Z$")
        policy.bands[0].killBelow = .fixed(.bytes(.mebibytes(100)))
        #expect(policy.problems.map(\.path) == ["bands[0].killBelow"])
        let bad = try Self.policy(compress: "^Z$")
        var rule = try #require(bad.psi)
        rule.swapFreeLowPercentage = 101
        rule.partialStallMs = 0
        var withBadRule = bad
        withBadRule.psi = rule
        #expect(Set(withBadRule.problems.map(\.path)) == ["psi.partialStallMs", "psi.swapFreeLowPercentage"])
        #expect(throws: PolicyErrors.self) {
            try Policy(
                yaml:
                    "name: x\nthresholds: { critical: { enter: 1%, clear: 2% } }\nkill: { startLevel: critical, target: 1% }\nbands: [{ name: a, match: { states: [suspended] }, order: largestFirst, reason: r }]\npsi: { thrashingLimit: -1 }",
                file: "x.yaml")
        }
        let shown = try Policy(yaml: PolicyYAML.render(try Policy.shipped("android-lmkd-psi")), file: "shown.yaml")
        #expect(shown.psi == (try Policy.shipped("android-lmkd-psi")).psi)
        #expect(shown.compression?.startBelow == .watermark(.low))
    }
}
