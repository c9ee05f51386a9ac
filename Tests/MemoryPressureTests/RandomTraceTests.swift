import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

@Suite("Accountant invariant and determinism on long random traces")
struct RandomTraceTests {
    @Test(
        "the books never drift: the invariant holds after every event of seeded random traces", .singleThreadedLongRun)
    func invariantAfterEveryStep() throws {
        for seed in UInt64(0)..<20 {
            let engine = PressureEngine.scenario()
            var generator = RandomActionGenerator(seed: seed, apps: 24)
            var refused = 0
            for step in 0..<2_000 {
                let (time, action) = generator.next()
                let before = engine.allApps
                do {
                    try engine.apply(action, at: time)
                } catch {
                    refused += 1
                    // A refused action changes nothing but the expiry of background tasks (states).
                    let after = engine.allApps
                    #expect(after.map(\.id) == before.map(\.id), "seed \(seed) step \(step)")
                    #expect(after.map(\.footprint) == before.map(\.footprint), "seed \(seed) step \(step)")
                    #expect(
                        after.map { $0.views.map(\.name) } == before.map { $0.views.map(\.name) },
                        "seed \(seed) step \(step)")
                }
                _ = engine.takeEvents()
                let violation = engine._invariantViolation()
                #expect(violation == nil, "seed \(seed) step \(step) after \(action): \(violation ?? "")")
                #expect(
                    engine.free == engine.device.usable - Bytes(engine.allApps.reduce(0) { $0 + $1.footprint.value }))
                if violation != nil { return }
            }
            #expect(refused < 2_000, "seed \(seed): every action was refused")
        }
    }

    @Test("replaying the same trace twice gives the same log, byte for byte")
    func determinism() throws {
        var generator = RandomActionGenerator(seed: 42, apps: 30)
        var trace = Trace()
        let probe = PressureEngine.scenario()
        for _ in 0..<3_000 {
            let (time, action) = generator.next()
            if (try? probe.apply(action, at: time)) != nil {
                trace.entries.append(Trace.Entry(time: time, action: action))
            }
        }
        let first = try Replay.events(trace, policy: .ios4).map(\.jsonLine).joined(separator: "\n")
        let second = try Replay.events(trace, policy: .ios4).map(\.jsonLine).joined(separator: "\n")
        #expect(first == second)
        #expect(first.contains("\"type\":\"kill\""))
        // The trace survives a round trip through its JSON Lines form.
        let reparsed = try Trace(jsonLines: trace.jsonLines)
        #expect(reparsed.entries.map(\.action) == trace.entries.map(\.action))
        let third = try Replay.events(reparsed, policy: .ios4).map(\.jsonLine).joined(separator: "\n")
        #expect(third == first)
    }
}
