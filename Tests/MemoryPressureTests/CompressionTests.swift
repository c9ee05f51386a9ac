import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

/// The compressed-memory model (`compression:` in a policy; docs/compression.md), rule by rule.
@Suite("Compressed memory: reclaim before kills, resume, kills and a short pool")
struct CompressionTests {
    /// ios4 with a compressor: on the 512 MiB test device (400 MiB usable) reclaim starts below
    /// 100 MiB free and stops at 150 MiB; half of an app's base memory compresses 5 to 1.
    static func policy(
        capacity: String = "200MiB", shortageAt: String? = nil, match: String = "{ states: [suspended] }",
        freezer: String? = nil
    ) throws -> Policy {
        var policy = Policy.ios4
        policy.name = "ios4-compressed"
        let shortage = (shortageAt.map { "\n  shortageAt: \($0)" } ?? "") + (freezer.map { "\n  freezer: \($0)" } ?? "")
        let text = """
            name: x
            thresholds: { critical: { enter: 1%, clear: 2% } }
            kill: { startLevel: critical, target: 1% }
            bands: [{ name: all, match: { states: [suspended] }, order: largestFirst, reason: r }]
            compression:
              mechanism: compressor
              match: \(match)
              capacity: \(capacity)
              ratio: 5
              compressible: 0.5
              startBelow: 100MiB
              stopAt: 150MiB
              compressSecondsPerMiB: 0.002
              decompressSecondsPerMiB: 0.001\(shortage)
            """
        policy.compression = try Policy(yaml: text, file: "test.yaml").compression
        return policy
    }

    static func engine(_ policy: Policy) -> PressureEngine {
        PressureEngine.scenario(memory: .mebibytes(512), reserved: .mebibytes(112), policy: policy)
    }

    /// A, B and C launched in turn (100 MiB each), A and B suspended, C in front: 100 MiB free.
    static func threeApps(_ engine: PressureEngine) throws {
        for (time, id) in [(0.0, "A"), (10, "B"), (20, "C")] {
            if time > 0 { try engine.step(time - 1, .home) }
            try engine.step(time, .launch(AppLaunch(id: AppID(id), footprint: .mebibytes(100))))
        }
        #expect(engine.free == .mebibytes(100))
    }

    @Test("reclaim compresses the least recently used suspended app first, and stops at its stop point")
    func reclaimOrder() throws {
        let engine = Self.engine(try Self.policy())
        try Self.threeApps(engine)
        let events = try engine.step(30, .allocate(app: "C", bytes: .mebibytes(20), purgeable: false))
        // 80 MiB free: A (frontmost longest ago) gives 50 MiB for 10 in the pool (+40), then B: 160 MiB.
        #expect(events == ["A compress 50MiB into 10MiB", "B compress 50MiB into 10MiB"])
        #expect(engine.free == .mebibytes(160))
        #expect(engine.status(of: "A")?.footprint == .mebibytes(50))
        #expect(engine.compressedBytes(of: "A") == .mebibytes(50))
        let status = try #require(engine.compressionStatus)
        #expect(status.pooled == .mebibytes(100) && status.stored == .mebibytes(20) && status.apps == 2)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("compression comes before warnings and kills: the same allocation kills without it")
    func beforeKills() throws {
        let plain = Self.engine(.ios4)
        try Self.threeApps(plain)
        let withoutCompression = try plain.step(30, .allocate(app: "C", bytes: .mebibytes(80), purgeable: false))
        #expect(withoutCompression.contains { $0.hasPrefix("A kill") })

        let compressed = Self.engine(try Self.policy())
        try Self.threeApps(compressed)
        let events = try compressed.step(30, .allocate(app: "C", bytes: .mebibytes(80), purgeable: false))
        #expect(events == ["A compress 50MiB into 10MiB", "B compress 50MiB into 10MiB"])
        #expect(compressed.free == .mebibytes(100))
        #expect(compressed.level == .normal)
    }

    @Test("an app brought back is decompressed whole, and its wait is priced by the decompression speed")
    func resume() throws {
        let engine = Self.engine(try Self.policy())
        try Self.threeApps(engine)
        try engine.step(30, .allocate(app: "C", bytes: .mebibytes(20), purgeable: false))
        try engine.apply(.open(AppLaunch(id: "A", footprint: .mebibytes(100))), at: 40)
        let events = engine.takeEvents()
        #expect(
            events.map(\.compact) == [
                "C willResignActive", "C active→inactive", "C inactive→background", "C didEnterBackground",
                "C background→suspended", "A willEnterForeground", "A suspended→inactive",
                "A decompress 50MiB from 10MiB", "A inactive→active", "A didBecomeActive",
            ])
        let decompress = try #require(
            events.first { if case .decompress = $0.kind { true } else { false } })
        #expect(
            decompress.jsonLine
                == #"{"t":40,"type":"decompress","app":"A","bytes":52428800,"stored":10485760,"refaulted":0,"seconds":0.05}"#
        )
        #expect(engine.status(of: "A")?.footprint == .mebibytes(100))
        #expect(engine.free == .mebibytes(120))
        #expect(engine.compressionStatus?.pooled == .mebibytes(50))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a kill frees the victim's resident bytes and its share of the pool; a full pool stops reclaim")
    func killAndCapacity() throws {
        let engine = Self.engine(try Self.policy(capacity: "60MiB"))
        try Self.threeApps(engine)
        // The pool takes 50 MiB of A and only 10 of B: 80 + 40 + 8 = 128 MiB free.
        let reclaim = try engine.step(30, .allocate(app: "C", bytes: .mebibytes(20), purgeable: false))
        #expect(reclaim == ["A compress 50MiB into 10MiB", "B compress 10MiB into 2MiB"])
        #expect(engine.free == .mebibytes(128))
        // 124 MiB more leaves 4 MiB (below the 1 % critical level): B, the heaviest suspended app
        // (90 MiB resident), goes, freeing 90 + 2 MiB.
        let kills = try engine.step(31, .allocate(app: "C", bytes: .mebibytes(124), purgeable: false))
        #expect(kills.contains("B kill suspended none 92MiB"))
        #expect(engine.compressionStatus?.pooled == .mebibytes(50))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("past its shortage line the pool kills in band order, whatever free memory is, and spares the foreground")
    func shortage() throws {
        let engine = Self.engine(try Self.policy(capacity: "60MiB", shortageAt: "0.5"))
        try Self.threeApps(engine)
        try engine.apply(.allocate(app: "C", bytes: .mebibytes(20), purgeable: false), at: 30)
        let kills = engine.takeEvents().compactMap { event -> (String, String)? in
            guard case .kill(let app, _, let reason, _, _) = event.kind else { return nil }
            return (app.rawValue, reason)
        }
        // A's 50 MiB pass the 30 MiB line: B (the heaviest) goes first though it holds nothing in
        // the pool, as XNU kills the top process; then A, which empties the pool.
        #expect(kills.map(\.0) == ["B", "A"])
        #expect(kills.allSatisfy { $0.1.hasPrefix("compressor space shortage: heaviest suspended app") })
        #expect(engine.status(of: "C")?.state == .active)
        #expect(engine.compressionStatus?.pooled == .zero)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a full pool with next to no file pages ends reclaim: it never spins on an app that gives nothing")
    func fullPoolEndsReclaim() throws {
        var policy = try Self.policy(capacity: "50MiB")
        policy.compression?.fileBacked = 1e-12
        let engine = Self.engine(policy)
        try Self.threeApps(engine)
        let events = try engine.step(30, .allocate(app: "C", bytes: .mebibytes(20), purgeable: false))
        #expect(events == ["A compress 50MiB into 10MiB"])
        #expect(engine.free == .mebibytes(120))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("an app's own ratio: the first entry of ratios that matches it, else the model's")
    func perAppRatio() throws {
        var policy = try Self.policy()
        policy.compression?.ratios = [
            MemoryCompression.AppRatio(matches: [AppMatch(names: ["^A$"])], ratio: 2.5),
            MemoryCompression.AppRatio(matches: [AppMatch(states: [.suspended])], ratio: 10),
        ]
        let engine = Self.engine(policy)
        try Self.threeApps(engine)
        let events = try engine.step(30, .allocate(app: "C", bytes: .mebibytes(20), purgeable: false))
        #expect(events == ["A compress 50MiB into 20MiB", "B compress 50MiB into 5MiB"])
        let shown = try Policy(yaml: PolicyYAML.render(policy), file: "shown.yaml")
        #expect(shown.compression == policy.compression)
        policy.compression?.ratios[0].ratio = 0.5
        #expect(policy.problems.map(\.path) == ["compression.ratios[0].ratio"])
    }

    @Test("only apps the compression matches are compressed: an app playing audio in the background is not")
    func matchesOnly() throws {
        let engine = Self.engine(try Self.policy())
        try engine.step(0, .launch(AppLaunch(id: "music", footprint: .mebibytes(100), backgroundModes: [.audio])))
        try engine.step(1, .home)
        try engine.step(2, .launch(AppLaunch(id: "B", footprint: .mebibytes(100))))
        try engine.step(3, .home)
        try engine.step(4, .launch(AppLaunch(id: "C", footprint: .mebibytes(100))))
        #expect(engine.status(of: "music")?.state == .background)
        let events = try engine.step(5, .allocate(app: "C", bytes: .mebibytes(20), purgeable: false))
        #expect(events.filter { $0.contains("compress") } == ["B compress 50MiB into 10MiB"])
        #expect(engine.compressedBytes(of: "music") == .zero)
    }

    @Test("a run's metrics count the bytes, the CPU time and the wait; the wait is part of the launch wait")
    func metrics() throws {
        var trace = Trace(device: Device(memory: .mebibytes(512), reserved: .mebibytes(112)))
        for (time, id) in [(0.0, "A"), (10, "B"), (20, "C")] {
            if time > 0 { trace.entries.append(Trace.Entry(time: time - 1, action: .home)) }
            trace.entries.append(
                Trace.Entry(time: time, action: .launch(AppLaunch(id: AppID(id), footprint: .mebibytes(100)))))
        }
        trace.entries.append(
            Trace.Entry(time: 30, action: .allocate(app: "C", bytes: .mebibytes(20), purgeable: false)))
        trace.entries.append(Trace.Entry(time: 40, action: .open(AppLaunch(id: "A", footprint: .mebibytes(100)))))
        let compressed = try SimulationRun.run(trace, policy: try Self.policy()).metrics
        let plain = try SimulationRun.run(trace, policy: .ios4).metrics
        #expect(compressed.bytesCompressed == 100 << 20)
        #expect(abs(compressed.compressionSeconds - 0.2) < 1e-9)
        #expect(compressed.bytesDecompressed == 50 << 20)
        #expect(compressed.decompressedResumes == 1)
        #expect(abs(compressed.decompressionWait - 0.05) < 1e-9)
        #expect(abs(compressed.launchWait - plain.launchWait - 0.05) < 1e-9)
        #expect(plain.bytesCompressed == 0 && plain.decompressedResumes == 0)
    }

    @Test(
        "the books never drift: invariants hold after every step of seeded random traces with compression",
        .singleThreadedLongRun)
    func randomTraces() throws {
        var policy = try Self.policy(capacity: "25%", shortageAt: "0.9")
        policy.compression?.startBelow = .fixed(.percent(30))
        policy.compression?.stopAt = .fixed(.percent(40))
        var compressedSomething = false
        for seed in UInt64(0)..<12 {
            let engine = PressureEngine.scenario(policy: policy)
            var generator = RandomActionGenerator(seed: seed, apps: 24)
            for step in 0..<1_500 {
                let (time, action) = generator.next()
                _ = try? engine.apply(action, at: time)
                for event in engine.takeEvents() {
                    if case .compress = event.kind { compressedSomething = true }
                }
                let violation = engine._invariantViolation()
                #expect(violation == nil, "seed \(seed) step \(step) after \(action): \(violation ?? "")")
                if violation != nil { return }
            }
        }
        #expect(compressedSomething)
    }
}

/// XNU's freezer (bsd/kern/kern_memorystatus_freeze.c) on the compression scenario: A and B
/// suspended (100 MiB each), C in front; reclaim compresses A, then B (50 MiB into 10 each).
@Suite("The freezer: eligibility, budget, thaw")
struct FreezerTests {
    static func freezer(minimum: String = "8MiB", maxFrozen: Int = 1, budget: String = "1GiB", threshold: Int = 2)
        -> String
    {
        "{ minimum: \(minimum), maxFrozen: \(maxFrozen), dailyBudget: \(budget), suspendedThreshold: \(threshold), "
            + "writeSecondsPerMiB: 0.002, thawSecondsPerMiB: 0.004 }"
    }

    static func reclaim(_ freezer: String) throws -> (PressureEngine, [String]) {
        let engine = CompressionTests.engine(try CompressionTests.policy(freezer: freezer))
        try CompressionTests.threeApps(engine)
        let events = try engine.step(30, .allocate(app: "C", bytes: .mebibytes(20), purgeable: false))
        return (engine, events)
    }

    @Test("a compressed suspended app is frozen: its pool memory comes back; at most maxFrozen apps")
    func freezes() throws {
        let (engine, events) = try Self.reclaim(Self.freezer())
        // A frozen gives its 10 MiB of pool back: 80 + 40 + 10 = 130 < 150, so B is compressed too,
        // but not frozen (memorystatus_frozen_processes_max, here 1).
        #expect(events == ["A compress 50MiB into 10MiB", "A freeze 10MiB", "B compress 50MiB into 10MiB"])
        #expect(engine.free == .mebibytes(170))
        #expect(engine.compressionStatus?.frozen == 1)
        #expect(engine.compressionStatus?.stored == .mebibytes(10))
        #expect(engine._invariantViolation() == nil)
    }

    @Test(
        "nothing is frozen below the minimum size, with too few suspended apps, or past the daily budget",
        arguments: [
            FreezerTests.freezer(minimum: "60MiB"), FreezerTests.freezer(threshold: 3),
            FreezerTests.freezer(maxFrozen: 0), FreezerTests.freezer(budget: "5MiB"),
        ])
    func eligibility(freezer: String) throws {
        let (engine, events) = try Self.reclaim(freezer)
        #expect(events == ["A compress 50MiB into 10MiB", "B compress 50MiB into 10MiB"])
        #expect(engine.compressionStatus?.frozen == 0)
    }

    @Test("the daily budget is renewed every 24 hours of engine time")
    func budget() throws {
        let (engine, events) = try Self.reclaim(Self.freezer(maxFrozen: 5, budget: "15MiB"))
        #expect(events == ["A compress 50MiB into 10MiB", "A freeze 10MiB", "B compress 50MiB into 10MiB"])
        // A day later B comes back and grows; reclaim compresses C (its 120 MiB: 60 into 12), which
        // the renewed 15 MiB budget can freeze (yesterday's 5 MiB left could not).
        try engine.step(90_000, .open(AppLaunch(id: "B", footprint: .mebibytes(100))))
        let later = try engine.step(90_001, .allocate(app: "B", bytes: .mebibytes(60), purgeable: false))
        #expect(
            later.filter { $0.contains("compress") || $0.contains("freeze") }
                == ["C compress 60MiB into 12MiB", "C freeze 12MiB"])
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a frozen app that comes back is thawed, then decompressed; it waits for both")
    func thaw() throws {
        var trace = Trace(device: Device(memory: .mebibytes(512), reserved: .mebibytes(112)))
        for (time, id) in [(0.0, "A"), (10, "B"), (20, "C")] {
            if time > 0 { trace.entries.append(Trace.Entry(time: time - 1, action: .home)) }
            trace.entries.append(
                Trace.Entry(time: time, action: .launch(AppLaunch(id: AppID(id), footprint: .mebibytes(100)))))
        }
        trace.entries.append(
            Trace.Entry(time: 30, action: .allocate(app: "C", bytes: .mebibytes(20), purgeable: false)))
        trace.entries.append(Trace.Entry(time: 40, action: .open(AppLaunch(id: "A", footprint: .mebibytes(100)))))
        let policy = try CompressionTests.policy(freezer: Self.freezer())
        let events = try Replay.events(trace, policy: policy).map(\.compact)
        let resume = events.drop { !$0.hasPrefix("A willEnterForeground") }
        #expect(
            Array(resume.prefix(4)) == [
                "A willEnterForeground", "A suspended→inactive", "A thaw 10MiB", "A decompress 50MiB from 10MiB",
            ])
        let metrics = try SimulationRun.run(trace, policy: policy).metrics
        #expect(metrics.bytesFrozen == 10 << 20 && metrics.thawedApps == 1)
        // 10 MiB read at 4 ms/MiB, then 50 MiB decompressed at 1 ms/MiB.
        #expect(abs(metrics.decompressionWait - 0.09) < 1e-9)
    }

    @Test("killing a frozen app frees its resident memory only: its compressed memory is in storage")
    func killFrozen() throws {
        let (engine, _) = try Self.reclaim(Self.freezer())
        // 170 MiB free; 170 MiB more leaves none: ios4 kills the heaviest suspended apps, A first
        // (50 MiB resident, as B; ties by id).
        let kills = try engine.step(31, .allocate(app: "C", bytes: .mebibytes(170), purgeable: false))
        #expect(kills.contains("A kill suspended none 50MiB"))
        #expect(engine._invariantViolation() == nil)
    }
}

@Suite("The compression section of a policy file")
struct CompressionLoadingTests {
    static let valid = """
        name: x
        thresholds: { critical: { enter: 1%, clear: 2% } }
        kill: { startLevel: critical, target: 1% }
        bands: [{ name: all, match: { states: [suspended] }, order: largestFirst, reason: r }]
        compression:
          mechanism: zram
          match: { oomScoreAdj: [900, 1000] }
          capacity: 50%
          ratio: 2.5
          compressible: 0.6
          startBelow: 200MiB
          stopAt: 256MiB
          compressSecondsPerMiB: 0.002
          decompressSecondsPerMiB: 0.001
        """

    @Test("every key is read, and policy show writes it back to the same policy")
    func roundTrip() throws {
        let policy = try Policy(yaml: Self.valid, file: "x.yaml")
        let model = try #require(policy.compression)
        #expect(model.mechanism == .zram && model.capacity == .percent(50) && model.ratio == 2.5)
        #expect(model.matches == [AppMatch(oomScoreAdj: 900...1000)])
        #expect(model.startBelow == .fixed(.bytes(.mebibytes(200))) && model.shortageAt == nil)
        #expect(try Policy(yaml: PolicyYAML.render(policy), file: "shown.yaml").compression == policy.compression)
    }

    @Test(
        "a bad compression section is refused with its line, its key and what was expected",
        arguments: [
            ("  mechanism: zram\n", "  mechanism: disk\n", "compression.mechanism", "compressor, zram, swap"),
            ("  ratio: 2.5\n", "  ratio: 0.5\n", "compression.ratio", "from 1 to 100"),
            ("  compressible: 0.6\n", "", "compression", "missing key \"compressible\""),
            ("  stopAt: 256MiB\n", "  stopAt: 100MiB\n", "compression", "at or above \"startBelow\""),
            ("  ratio: 2.5\n", "  ratio: 2.5\n  colour: red\n", "compression", "unknown key \"colour\""),
            (
                "  ratio: 2.5\n", "  ratio: 2.5\n  ratios: [{ match: { names: [a] }, ratio: 0.5 }]\n",
                "compression.ratios[0]", "from 1 to 100"
            ),
            (
                "  ratio: 2.5\n", "  ratio: 2.5\n  ratios: [{ ratio: 2 }]\n", "compression.ratios[0]",
                "missing key \"match\""
            ),
        ])
    func refused(old: String, new: String, path: String, expected: String) throws {
        let text = Self.valid.replacingOccurrences(of: old, with: new)
        #expect(text != Self.valid)
        do {
            _ = try Policy(yaml: text, file: "x.yaml")
            Issue.record("accepted: \(new)")
        } catch {
            let problem = try #require(error.problems.first)
            #expect(problem.file == "x.yaml" && problem.line > 4, "\(problem)")
            #expect(problem.path.hasPrefix(path), "\(problem)")
            #expect(problem.description.contains(expected), "\(problem)")
        }
    }

    @Test("a policy built in code with a bad model is refused by the engine with the loader's words")
    func builtInCode() throws {
        var policy = try Policy(yaml: Self.valid, file: "x.yaml")
        policy.compression?.ratio = 0.5
        policy.compression?.compressible = 2
        #expect(
            policy.problems.map(\.path) == ["compression.ratio", "compression.compressible", "compression.fileBacked"])
        #expect(throws: EngineError.self) { try PressureEngine(device: .iPhone4, policy: policy) }
    }
}
