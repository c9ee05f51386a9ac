import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// The simulated pressure stall in the event log (`pressure` events): crossings of lmkd's PSI
/// triggers — `psi_partial_stall_ms` (70 ms of "some" stall in a 1 s window) and
/// `psi_complete_stall_ms` (700 ms of "full"), system/memory/lmkd/lmkd.cpp, the values
/// android-lmkd-psi.yaml cites — and of systemd-oomd's limit on the "full" stall's `avg10`; and
/// the stall's figures over a run (`PressureEngine.pressureStallFigures`).
@Suite("pressure crossings: the simulated PSI made visible")
struct PressureCrossingTests {
    static let mib: Int64 = 1 << 20

    static func crossings(_ events: [Event]) -> [(time: Double, crossing: PressureCrossing)] {
        events.compactMap { event in
            guard case .pressure(let crossing) = event.kind else { return nil }
            return (event.time, crossing)
        }
    }

    /// Under the shipped android-lmkd-psi on 1 GiB: T (1 MiB) cached, C in front allocating until
    /// 2 MiB are free, below the min watermark (4 MiB) with nothing left to reclaim: allocations
    /// block, a complete stall, and lmkd kills.
    static func episode() throws -> (engine: PressureEngine, events: [Event]) {
        let engine = PressureEngine.scenario(
            memory: .gibibytes(1), reserved: .mebibytes(24), policy: try Policy.shipped("android-lmkd-psi"))
        try engine.apply(.launch(AppLaunch(id: "T", footprint: .mebibytes(1))), at: 0)
        try engine.apply(.home, at: 0.1)
        try engine.apply(.launch(AppLaunch(id: "C", footprint: .mebibytes(100))), at: 1)
        _ = engine.takeEvents()
        try engine.apply(.allocate(app: "C", bytes: Bytes(engine.free.value - 2 * mib), purgeable: false), at: 3)
        return (engine, engine.takeEvents())
    }

    @Test(
        "android-lmkd-psi: a complete stall crosses psi_partial_stall_ms and psi_complete_stall_ms up before lmkd's kill, and down once the window is over"
    )
    func lmkdCrossings() throws {
        let (engine, events) = try Self.episode()
        let firstKill = try #require(events.firstIndex { if case .kill = $0.kind { true } else { false } })
        guard case .kill(_, _, let reason, _, _) = events[firstKill].kind else { return }
        #expect(reason.hasPrefix("device is not responding"), "\(reason)")
        let ups = events[..<firstKill].compactMap { event -> PressureCrossing? in
            if case .pressure(let crossing) = event.kind, crossing.direction == .up { return crossing }
            return nil
        }
        #expect(ups.map(\.stall) == [.some, .full], "\(events.map(\.compact))")
        #expect(ups.map(\.window) == ["1s", "1s"])
        #expect(ups.map(\.threshold) == [7, 70], "70 ms and 700 ms of a 1 s window")
        #expect(ups.allSatisfy { $0.percent == 100 && $0.total == 1 && $0.resource == "memory" })
        #expect(Self.crossings(events).allSatisfy { $0.crossing.direction == .up }, "the window is not over yet")
        // The next action after the window's end (3 s + 1 s): both triggers fall back.
        try engine.apply(.tick, at: 10)
        let after = Self.crossings(engine.takeEvents())
        #expect(after.map(\.crossing.stall) == [.some, .full])
        #expect(after.allSatisfy { $0.crossing.direction == .down && $0.crossing.percent == 0 && $0.time == 10 })
        let figures = try #require(engine.pressureStallFigures)
        #expect(figures.someSeconds == 1 && figures.fullSeconds == 1)
        #expect(figures.thresholds.map(\.secondsAbove) == [1, 1], "from the trigger at 3 s to the window's end at 4 s")
        #expect(figures.thresholds.map(\.crossings) == [1, 1])
        #expect(figures.thresholds.map(\.peak) == [100, 100])
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a crossing's JSON line: PSI's names, percent of the window, the total in seconds")
    func jsonLine() throws {
        let (_, events) = try Self.episode()
        let up = try #require(events.first { if case .pressure = $0.kind { true } else { false } })
        #expect(
            up.jsonLine
                == #"{"t":3,"type":"pressure","resource":"memory","stall":"some","window":"1s","percent":100,"threshold":7,"direction":"up","total":1,"some":{"avg10":0,"avg60":0,"avg300":0},"full":{"avg10":0,"avg60":0,"avg300":0}}"#
        )
    }

    @Test(
        "android-lmkd-psi: each crossing carries PSI's some and full avg10/avg60/avg300 as of the last 2 s update, and the figures their peaks"
    )
    func lmkdAverages() throws {
        let (engine, events) = try Self.episode()
        // The stall of 3 s is averaged at the period's end, 4 s: the crossings at 3 s see none yet.
        for (_, crossing) in Self.crossings(events) {
            #expect(crossing.someAverages == .zero && crossing.fullAverages == .zero, "\(crossing)")
        }
        try engine.apply(.tick, at: 10)
        let after = Self.crossings(engine.takeEvents())
        #expect(after.count == 2)
        // 1 s of each stall in the period ending at 4 s (50 %): avg10 = 50 × 371 = 18550 in units
        // of 1/2048 %, then three periods of none, 18550 × 1677/2048 … = 10184: 4.97 %.
        let expected = PressureStallAverages(avg10: 4.97, avg60: 1.47, avg300: 0.33)
        for (_, crossing) in after {
            #expect(crossing.someAverages == expected && crossing.fullAverages == expected, "\(crossing)")
        }
        let figures = try #require(engine.pressureStallFigures)
        let peak = PressureStallAverages(avg10: 9.05, avg60: 1.63, avg300: 0.34)
        #expect(figures.someAveragePeaks == peak && figures.fullAveragePeaks == peak, "at 4 s")
        // Counting restarted after a warm-up: the peaks start from the averages now, and decay.
        engine.restartPressureStallPeaks()
        let restarted = try #require(engine.pressureStallFigures)
        #expect(restarted.fullAveragePeaks == expected)
        try engine.apply(.tick, at: 600)
        let later = try #require(engine.pressureStallFigures)
        #expect(later.fullAveragePeaks == expected, "nothing stalled since: the averages only fell")
        #expect(later.fullAveragePeaks?.avg10 ?? 0 > 0)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("systemd-oomd: the full avg10 crosses its limit up at a check, and down once the kill lets it fall")
    func oomdCrossings() throws {
        let engine = SystemdOomdTests.engine(try SystemdOomdPressureTests.policy())
        try SystemdOomdPressureTests.blockAtTen(engine)
        try engine.apply(.tick, at: 120)
        let events = engine.takeEvents()
        let crossings = Self.crossings(events)
        #expect(crossings.map(\.crossing.direction) == [.up, .down], "\(events.map(\.compact))")
        #expect(crossings.first?.time == 18, "55.06 % > 50 % at the check of 18 s")
        #expect(crossings.allSatisfy { $0.crossing.stall == .full && $0.crossing.window == "avg10" })
        #expect(crossings.first?.crossing.threshold == 50)
        #expect(crossings.first.map { $0.crossing.percent > 50 } == true)
        let firstKill = try #require(events.firstIndex { if case .kill = $0.kind { true } else { false } })
        let up = try #require(events.firstIndex { if case .pressure = $0.kind { true } else { false } })
        #expect(up < firstKill)
        let figures = try #require(engine.pressureStallFigures)
        #expect(figures.someSeconds == nil, "oomd's model counts the full stall only")
        #expect(figures.thresholds.count == 1 && figures.thresholds[0].crossings == 1)
        #expect(figures.thresholds[0].secondsAbove > 20)
        #expect(figures.thresholds[0].peak > 50)
        // The averages ride along: the full stall's only (oomd's model has no "some" stall), the
        // event's avg10 is its percent, and the figures' peak avg10 is the threshold's peak.
        for (_, crossing) in crossings {
            #expect(crossing.someAverages == nil)
            #expect(crossing.fullAverages?.avg10 == crossing.percent, "\(crossing)")
        }
        #expect(figures.someAveragePeaks == nil)
        let peaks = try #require(figures.fullAveragePeaks)
        #expect(peaks.avg10 == figures.thresholds[0].peak)
        #expect(peaks.avg10 > peaks.avg60 && peaks.avg60 > peaks.avg300 && peaks.avg300 > 0, "\(peaks)")
    }

    @Test(
        "policies without PSI thresholds log no crossing and have no stall figures",
        arguments: ["ios4", "jetsam", "android-lmkd", "android-lmkd-zram", "linux-oom", "earlyoom", "lru"])
    func noThresholdNoCrossing(name: String) throws {
        let engine = PressureEngine.scenario(
            memory: .gibibytes(1), reserved: .mebibytes(24), policy: try Policy.shipped(name))
        try engine.apply(.launch(AppLaunch(id: "T", footprint: .mebibytes(100))), at: 0)
        try engine.apply(.home, at: 0.1)
        try engine.apply(.launch(AppLaunch(id: "C", footprint: .mebibytes(100))), at: 1)
        try engine.apply(.allocate(app: "C", bytes: Bytes(engine.free.value - 2 * Self.mib), purgeable: false), at: 3)
        try engine.apply(.tick, at: 60)
        #expect(Self.crossings(engine.takeEvents()).isEmpty)
        #expect(engine.pressureStallFigures == nil)
    }
}
