import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// The policy keys issue 12 adds, on their own: how they load, what they reject, and what the
// engine does with them beyond the shipped policies.

/// A policy with one level and the bands given (YAML lines, indented under `bands:`).
private func policy(comparison: String = "below", _ bands: String, extra: String = "") throws -> Policy {
    try Policy(
        yaml: """
            name: t
            comparison: \(comparison)
            thresholds:
              critical: { enter: 5%, clear: 6% }
            kill:
              startLevel: critical
              target: 6%
            \(extra)
            bands:
            \(bands)
            """, file: "t.yaml")
}

private func problems(_ text: String) -> [String] {
    do {
        _ = try Policy(yaml: text, file: "t.yaml")
        return []
    } catch {
        return error.problems.map(\.message)
    }
}

@Suite("policy keys of issue 12")
struct FidelitySchemaTests {
    @Test("killUntil above killBelow: a band's kills, once started, go on to its own stop point")
    func stopPointAboveStartPoint() throws {
        let hysteresis = try policy(
            """
              - name: idle
                match: { states: [suspended] }
                order: firstInFirstOut
                killBelow: 10%
                killUntil: 14%
                reason: r
            """)
        // 1000 MiB, no reserve: 9 % free, four idle apps of 2 % each.
        let percent = Int64(10 << 20)
        var apps = (0..<4).map {
            ResidentApp(
                id: AppID("idle-\($0)"), state: .suspended, footprint: Bytes(2 * percent), lastActive: Double(10 - $0))
        }
        apps.append(
            ResidentApp(id: "front", state: .active, footprint: Bytes(100 * percent - 9 * percent - 8 * percent)))
        let engine = try PressureEngine(
            snapshot: Snapshot(device: Device(memory: .mebibytes(1000)), apps: apps), policy: hysteresis)
        try engine.apply(.tick, at: 1)
        let kills = engine.takeEvents().compactMap { event -> String? in
            guard case .kill(let app, _, _, _, _) = event.kind else { return nil }
            return app.rawValue
        }
        #expect(kills == ["idle-0", "idle-1", "idle-2"])  // 11 %, 13 %, 15 %: past 10 %, up to 14 %
        #expect(engine.free.value == 15 * percent)
    }

    @Test("comparison atOrBelow lets clear equal enter; below does not")
    func clearEqualsEnter() {
        let text = { (comparison: String) in
            """
            name: t
            comparison: \(comparison)
            thresholds:
              critical: { enter: 5%, clear: 5% }
            kill: { startLevel: critical, target: 5% }
            bands:
              - { name: a, match: { states: [suspended] }, reason: r }
            """
        }
        #expect(problems(text("atOrBelow")).isEmpty)
        #expect(problems(text("below")).first?.contains("expected \"clear\" (5%) above \"enter\" (5%)") == true)
        #expect(problems(text("sometimes")).first?.contains("expected one of below, atOrBelow") == true)
    }

    @Test("band keys that contradict each other are rejected, each naming what was expected")
    func contradictions() {
        let band = { (keys: String) in
            """
            name: t
            thresholds:
              critical: { enter: 5%, clear: 6% }
            kill: { startLevel: critical, target: 6% }
            bands:
              - { name: a, match: { states: [suspended] }, reason: r, \(keys) }
            """
        }
        #expect(problems(band("slotsByOomScoreAdj: true, slotsByPriority: true")).first?.contains("not both") == true)
        #expect(problems(band("killUntil: 5%")).first?.contains("needs \"killBelow\"") == true)
        #expect(problems(band("killBelow: 5%, killableFrom: critical")).first?.contains("not both") == true)
        #expect(problems(band("killBelow: 10%, killUntil: 5%")).first?.contains("at or above") == true)
        #expect(
            problems(band("killBelow: [{ upTo: 6GiB, amount: 4% }, { upTo: 3GiB, amount: 5% }, { amount: 3% }]"))
                .first?.contains("increasing") == true)
        #expect(problems(band("killBelow: [{ upTo: 3GiB, amount: 5% }]")).first?.contains("last tier") == true)
        #expect(
            problems(band("killBelow: { low: 1MiB, high: 2MiB, scaleFrom: 700MiB, scaleTo: 350MiB }")).first?
                .contains("below \"scaleTo\"") == true)
        #expect(problems(band("ties: coinToss")).first?.contains("expected one of id, firstAppeared") == true)
        #expect(problems(band("killBelow: 10%, ties: newestInBand")).isEmpty)
    }

    @Test("by-background-mode keys accept audio, location and voip only")
    func byMode() throws {
        let loaded = try policy(
            """
              - { name: a, match: { states: [background] }, reason: r }
            """, extra: "oomScoreAdjByBackgroundMode: { voip: 200 }\npriorityByBackgroundMode: { location: 40 }")
        #expect(loaded.oomScoreAdjByBackgroundMode == [.voip: 200])
        #expect(loaded.priorityByBackgroundMode == [.location: 40])
        #expect(
            problems(
                """
                name: t
                thresholds:
                  critical: { enter: 5%, clear: 6% }
                kill: { startLevel: critical, target: 6% }
                oomScoreAdjByBackgroundMode: { music: 200 }
                bands:
                  - { name: a, match: { states: [suspended] }, reason: r }
                """
            ).first?.contains("expected audio, location or voip") == true)
    }

    @Test("a snapshot's device swapFree is read and checked against swap")
    func snapshotSwapFree() throws {
        let snapshot = try Snapshot(
            text: "device: { memory: 1GiB, swap: 2GiB, swapFree: 512MiB }\napps: []\n", file: "s.yaml")
        #expect(snapshot.device.swapFree == .mebibytes(512))
        #expect(throws: InputError.self) {
            try Snapshot(text: "device: { memory: 1GiB, swap: 1GiB, swapFree: 2GiB }\n", file: "s.yaml")
        }
    }
}

@Suite("band start points and the cost of a pressure check")
struct BandStartPointCostTests {
    @Test(
        "below the idle threshold with no idle app, a footprint change does not walk the kill queue")
    func emptyIdleBandIsCheap() throws {
        // 20,000 background apps (priority 30, killable only below 5 %) and 8 % free: the idle
        // band may kill but holds nobody, so every check stops at the first victim it looks at.
        let count = 20_000
        let memory = Bytes.gibibytes(1)
        let each = (memory.value * 92 / 100) / Int64(count + 1)
        var apps = (0..<count).map {
            ResidentApp(id: AppID("bg-\($0)"), state: .background, footprint: Bytes(each), lastActive: Double($0))
        }
        apps.append(ResidentApp(id: "front", state: .active, footprint: Bytes(each)))
        let engine = try PressureEngine(
            snapshot: Snapshot(device: Device(memory: memory), apps: apps), policy: try Policy.shipped("jetsam"))
        let front = try #require(engine.reference(to: "front"))
        #expect(engine.free.value < memory.value / 10 && engine.free.value > memory.value / 20)
        for step in 0..<2_000 {
            try engine.changeFootprint(of: front, by: .kibibytes(step % 2 == 0 ? 4 : -4), at: Double(step))
        }
        #expect(engine.takeEvents().allSatisfy { if case .kill = $0.kind { false } else { true } })
        #expect(engine._invariantViolation() == nil)
        // No wall-clock limit (the machines are shared): the cost per change is a benchmark's job.
    }
}
