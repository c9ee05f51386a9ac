import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// systemd-oomd's memory-pressure rule (systemd v252, src/oom/, with Debian's and Fedora's
/// drop-ins): `monitor_memory_pressure_contexts_handler()` looks every second; once
/// `oomd_pressure_above()` has seen the session's PSI `full avg10` above 50 % for 20 s, and the
/// session reclaimed within 30 s, `oomd_kill_by_pgscan_rate()` kills the app with the highest
/// pgscan rate, then waits 15 s (`POST_ACTION_DELAY_USEC`). The average is kernel/sched/psi.c's
/// `calc_avgs()`: every 2 s, avg = avg × 1677/2048 + pct × (1 − 1677/2048), in the kernel's
/// fixed point (`calc_load()`, include/linux/sched/loadavg.h), printed with two decimals.
@Suite("systemd-oomd: the memory-pressure rule")
struct SystemdOomdPressureTests {
    /// `systemd-oomd` on a 1 GiB device (1000 MiB usable, min watermark 4 MiB) whose zram takes
    /// nothing (no compressible memory), so the swap rule never fires and memory can stay short.
    static func policy(_ change: (inout MemoryPressureLimit) -> Void = { _ in }) throws -> Policy {
        var policy = try SystemdOomdTests.policy()
        policy.compression?.compressible = 0
        change(&policy.memoryPressureLimit!)
        return policy
    }

    /// `calc_load()` as include/linux/sched/loadavg.h writes it: `FIXED_1` = 2048, `EXP_10s` = 1677.
    static func calcLoad(_ load: UInt64, _ active: UInt64) -> UInt64 {
        var next = load * 1677 + active * (2048 - 1677)
        if active >= load { next += 2047 }
        return next / 2048
    }

    /// A fixed-point average as `/proc/pressure/memory` prints it: `LOAD_INT`.`LOAD_FRAC`.
    static func printed(_ average: UInt64) -> Double {
        let whole: UInt64 = (average >> 11) * 100
        let fraction: UInt64 = ((average & 2047) * 100) >> 11
        return Double(whole + fraction) / 100
    }

    /// The kernel's `avg10` after `periods` updates of a stall that filled each of them.
    static func average(afterFullPeriods periods: Int) -> Double {
        var average: UInt64 = 0
        for _ in 0..<periods { average = calcLoad(average, 100 * 2048) }
        return printed(average)
    }

    static func kills(_ events: [String]) -> [String] { events.filter { $0.contains(" kill ") } }

    /// The kills `action` at `time` led to: when, whom, why.
    static func kills(_ engine: PressureEngine, _ time: Double, _ action: Action) throws -> [(
        time: Double, app: AppID, reason: String
    )] {
        try engine.apply(action, at: time)
        return engine.takeEvents().compactMap { event in
            guard case .kill(let app, _, let reason, _, _) = event.kind else { return nil }
            return (event.time, app, reason)
        }
    }

    /// A (300 MiB) idle; C in front grows to 720 MiB at 10 s: 20 MiB short, allocations block.
    static func blockAtTen(_ engine: PressureEngine) throws {
        try engine.step(0, .launch(AppLaunch(id: "A", footprint: .mebibytes(300))))
        try engine.step(1, .home)
        try engine.step(2, .launch(AppLaunch(id: "C", footprint: .mebibytes(100))))
        let events = try engine.step(10, .allocate(app: "C", bytes: .mebibytes(620), purgeable: false))
        #expect(Self.kills(events).isEmpty, "\(events)")
    }

    @Test(
        "the stall's avg10 follows calc_avgs(): a period's integer percentage, weighted 1677/2048 a period (kernel/sched/psi.c)"
    )
    func averageFollowsTheKernel() throws {
        let engine = SystemdOomdTests.engine(try Self.policy())
        try Self.blockAtTen(engine)
        #expect(engine.memoryPressureLimitStatus?.fullAverage10 == 0)
        #expect(engine.memoryPressureLimitVictim == "C", "the largest resident app, in front")
        // Blocked from 10 s: the periods ending at 12, 14, 16 and 18 s are fully stalled.
        try engine.step(18, .tick)
        let status = try #require(engine.memoryPressureLimitStatus)
        #expect(status.fullAverage10 == Self.average(afterFullPeriods: 4), "\(status)")
        #expect(status.fullTotalSeconds == 8)
        // 55.06 % > 50 % since the check at 18 s.
        #expect(status.limitExceededSince == 18)
        #expect(engine.pressureStallStatus == nil, "oomd's rule is not lmkd's PSI mode")
    }

    @Test(
        "20 s above the limit, the app with the most resident memory dies, in front or not (oomd_pressure_above, oomd_kill_by_pgscan_rate)"
    )
    func killsAfterTheDuration() throws {
        let engine = SystemdOomdTests.engine(try Self.policy())
        try Self.blockAtTen(engine)
        // The check at 37 s is 19 s after the limit was crossed: nothing yet.
        #expect(try Self.kills(engine, 37.5, .tick).isEmpty)
        let kills = try Self.kills(engine, 60, .tick)
        let percent = Self.average(afterFullPeriods: 14)  // 38 s: 14 periods since 10 s
        let expected =
            "memory pressure above 50.00% for > 20s with reclaim activity (full avg10 \(Self.oomdPercent(percent))): "
            + "highest pgscan rate: 720.0 MiB resident"
        #expect(kills.count == 1, "\(kills)")
        #expect(kills.first?.app == "C" && kills.first?.reason == expected, "\(kills)")
        #expect(kills.first?.time == 38, "killed at the check of 38 s")
        #expect(engine.memoryPressureLimitVictim == "A", "with C gone, A is the largest resident app")
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a footprint change through an app reference runs the checks due first, as an action does")
    func referencePath() throws {
        let engine = SystemdOomdTests.engine(try Self.policy())
        try engine.step(0, .launch(AppLaunch(id: "A", footprint: .mebibytes(300))))
        try engine.step(1, .home)
        try engine.step(2, .launch(AppLaunch(id: "C", footprint: .mebibytes(100))))
        let reference = try #require(engine.reference(to: "C"))
        try engine.changeFootprint(of: reference, by: .mebibytes(620), at: 10)
        #expect(engine.memoryPressureLimitStatus?.fullAverage10 == 0)
        // C was killed at the check of 38 s, before this change at 60 s.
        #expect(throws: EngineError.self) { try engine.changeFootprint(of: reference, by: .mebibytes(1), at: 60) }
        let kills = engine.takeEvents().compactMap { event -> (Double, AppID)? in
            guard case .kill(let app, _, _, _, _) = event.kind else { return nil }
            return (event.time, app)
        }
        #expect(kills.count == 1 && kills.first?.0 == 38 && kills.first?.1 == "C", "\(kills)")
        #expect(engine._invariantViolation() == nil)
    }

    @Test("after a kill oomd waits 15 s before it acts again (POST_ACTION_DELAY_USEC)")
    func waitsAfterAKill() throws {
        let engine = SystemdOomdTests.engine(try Self.policy())
        // Five apps of 250 MiB: 250 MiB short, more than any one app frees.
        for (offset, id) in ["A", "B", "C", "D", "E"].enumerated() {
            try engine.step(Double(offset * 2), .launch(AppLaunch(id: AppID(id), footprint: .mebibytes(250))))
            if id != "E" { try engine.step(Double(offset * 2 + 1), .home) }
        }
        let kills = try Self.kills(engine, 100, .tick)
        // Blocked from 6 s (D's launch fills the 1000 MiB): above 50 % at 14 s, the first kill at
        // 34 s, the next 15 s later.
        // Equal footprints: the smallest id first.
        #expect(kills.map(\.app) == ["A", "B"], "\(kills)")
        #expect(kills.map(\.time) == [34, 49], "\(kills)")
    }

    @Test("pressure without reclaim in the last 30 s kills nothing (RECLAIM_DURATION_USEC)")
    func needsRecentReclaim() throws {
        // A 1 % limit holds long after the stall ends at 20 s; eligible from 40 s after 12 s.
        func run(reclaimWithin: Double) throws -> [String] {
            let engine = SystemdOomdTests.engine(
                try Self.policy {
                    $0.limitPercent = 1
                    $0.durationSeconds = 40
                    $0.reclaimWithinSeconds = reclaimWithin
                })
            try Self.blockAtTen(engine)
            try engine.step(20, .free(app: "C", bytes: .mebibytes(200), purgeable: false))
            return try Self.kills(engine, 120, .tick).map(\.reason)
        }
        #expect(try run(reclaimWithin: 30).isEmpty)
        #expect(try run(reclaimWithin: 60).count == 1)
    }

    @Test(
        "a long stretch folds its alike periods together: blocked with nothing to kill, a billion seconds pass at once")
    func longStretches() throws {
        // The system holds all but 1 MiB, under the 4 MiB min watermark: blocked, no app to kill.
        let engine = PressureEngine.scenario(
            memory: .gibibytes(1), reserved: .mebibytes(1023), policy: try Self.policy())
        try engine.step(0, .tick)
        #expect(try Self.kills(engine, 1e9, .tick).isEmpty)
        let status = try #require(engine.memoryPressureLimitStatus)
        #expect(status.fullAverage10 == 100 && status.fullTotalSeconds == 1e9, "\(status)")

        // Unblocked after a stall, the average decays as calc_load_n() says: 10 quiet periods.
        let other = SystemdOomdTests.engine(try Self.policy())
        try Self.blockAtTen(other)
        try other.step(18, .free(app: "C", bytes: .mebibytes(200), purgeable: false))
        #expect(try #require(other.memoryPressureLimitStatus).fullAverage10 == Self.average(afterFullPeriods: 4))
        try other.step(38, .tick)
        let decayed = try #require(other.memoryPressureLimitStatus).fullAverage10
        var expected: UInt64 = 0
        for _ in 0..<4 { expected = Self.calcLoad(expected, 100 * 2048) }
        for _ in 0..<10 { expected = Self.calcLoad(expected, 0) }
        #expect(decayed == Self.printed(expected), "\(decayed) \(expected)")
        // …and reaches 0, as the kernel's integer arithmetic does, long before a thousand periods.
        try other.step(2038, .tick)
        #expect(other.memoryPressureLimitStatus?.fullAverage10 == 0)
    }

    @Test(
        "the average matches a reference that steps every period of a random blocked/unblocked timeline",
        arguments: 1...20)
    func matchesReference(seed: UInt64) throws {
        // A limit of 100 % is never exceeded, so nothing is killed and the timeline is the actions'.
        let engine = SystemdOomdTests.engine(try Self.policy { $0.limitPercent = 100 })
        var random = SplitMix64(seed: seed)
        let minimum = ZoneWatermark.min.resolved(on: engine.device).value
        var time = 0.0
        var blockedFrom: [(time: Double, blocked: Bool)] = [(0, false)]
        try engine.step(0, .launch(AppLaunch(id: "A", footprint: .mebibytes(900))))
        blockedFrom.append((0, engine.free.value < minimum))
        var held: Int64 = 900 << 20  // the policy warns and purges nothing: only A's actions move it
        for _ in 0..<200 {
            // Steps from a fraction of a period to a minute; A swings across the min watermark.
            time += [0.3, 1.7, 2, 5.5, 13, 60][Int(random.next() % 6)]
            let target = Int64(random.next() % 160 + 860) << 20  // 860…1019 MiB of 1000 usable
            let action: Action =
                target >= held
                ? .allocate(app: "A", bytes: Bytes(target - held), purgeable: false)
                : .free(app: "A", bytes: Bytes(held - target), purgeable: false)
            try engine.step(time, action)
            held = target
            blockedFrom.append((time, engine.free.value < minimum))
        }
        // The reference: every 2 s period, the blocked time in it, calc_avgs()'s update.
        var average: UInt64 = 0
        var total = 0.0
        var period = 2.0
        while period <= time {
            var stall = 0.0
            for (index, change) in blockedFrom.enumerated() where change.blocked {
                let end = index + 1 < blockedFrom.count ? blockedFrom[index + 1].time : .infinity
                stall += Swift.max(0, Swift.min(end, period) - Swift.max(change.time, period - 2))
            }
            total += stall
            average = Self.calcLoad(average, UInt64((stall * 100 / 2).rounded(.down)) * 2048)
            period += 2
        }
        let status = try #require(engine.memoryPressureLimitStatus)
        #expect(
            status.fullAverage10 == Self.printed(average), "seed \(seed): \(status.fullAverage10) against \(average)")
        #expect(status.fullTotalSeconds >= total - 1e-6, "seed \(seed)")
    }

    @Test("the rule round-trips through a policy file, and a value out of range names its key")
    func policyFile() throws {
        let shipped = try Policy.shipped("systemd-oomd")
        #expect(shipped.memoryPressureLimit == MemoryPressureLimit())
        let shown = PolicyYAML.render(shipped)
        #expect(shown.contains("\nmemoryPressureLimit:\n  limitPercent: 50\n  durationSeconds: 20\n"), "\(shown)")
        let reloaded = try Policy(yaml: shown, file: "shown.yaml")
        #expect(reloaded.memoryPressureLimit == shipped.memoryPressureLimit)
        #expect(PolicyYAML.render(reloaded) == shown)
        let text = try #require(Policy.shippedSource("systemd-oomd"))
            .replacingOccurrences(of: "  limitPercent: 50 ", with: "  limitPercent: 101 ")
        do {
            _ = try Policy(yaml: text, file: "oomd.yaml")
            Issue.record("a limit of 101 % was accepted")
        } catch {
            let message = error.problems.first.map { "\($0)" } ?? ""
            #expect(message.contains("oomd.yaml:") && message.contains("limitPercent"), "\(message)")
        }
        var policy = shipped
        policy.memoryPressureLimit?.intervalSeconds = 0
        #expect(policy.problems.map(\.path) == ["memoryPressureLimit.intervalSeconds"])
    }

    /// oomd's two-decimal percentage.
    static func oomdPercent(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)%"
    }
}
