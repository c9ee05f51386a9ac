import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

/// The clairvoyant oracle and the relaunch-aware policy against what they promise (issue 13).
@Suite("Oracle and relaunch-aware policy")
struct OracleTests {
    /// A small random day: `apps` apps of 30–110 MiB opened `opens` times on a 256 MiB device
    /// (200 MiB for apps), so that a few kills are needed and every choice matters.
    static func smallTrace(seed: UInt64, apps: Int = 5, opens: Int = 14) -> Trace {
        var random = SeededGenerator(seed: seed)
        let launches = (0..<apps).map { index in
            AppLaunch(id: AppID("app\(index)"), footprint: .mebibytes(Int64.random(in: 30...110, using: &random)))
        }
        var entries: [Trace.Entry] = []
        var previous = -1
        for step in 0..<opens {
            var pick = Int.random(in: 0..<apps, using: &random)
            if pick == previous { pick = (pick + 1) % apps }
            previous = pick
            entries.append(Trace.Entry(time: Double(step) * 60, action: .open(launches[pick])))
        }
        return Trace(device: Device(memory: .mebibytes(256), reserved: .mebibytes(56)), entries: entries)
    }

    /// The launch wait of `trace` under the oracle's lifecycle when, at victim choice d, the
    /// `choices[d]`-th suspended app (by id) is killed (later rounds take the first), and the
    /// number of suspended candidates at each round.
    static func forcedRun(_ trace: Trace, choices: [Int]) throws -> (wait: Double, candidates: [Int]) {
        let engine = try PressureEngine(device: trace.device, policy: Oracle.policy)
        var candidates: [[AppID]] = []
        var counts: [Int] = []
        engine.externalScore = { [unowned engine] app, _, _ in
            let round = engine.externalScoreRounds - 1
            if candidates.count <= round {
                // First call of the round: list the suspended apps, the band chosen from first.
                let suspended = engine.killOrder(limit: 64).filter { $0.state == .suspended }.map(\.app).sorted()
                candidates.append(suspended)
                counts.append(suspended.count)
            }
            let list = candidates[round]
            guard !list.isEmpty else { return 0 }
            let chosen = list[min(round < choices.count ? choices[round] : 0, list.count - 1)]
            return app == chosen ? 1 : 0
        }
        var player = TracePlayer(engine: engine)
        var collector = MetricsCollector(launchCost: .phone)
        for entry in trace.entries {
            guard let events = try player.apply(entry) else { continue }
            collector.noteAction(entry.action)
            for event in events { collector.record(event) }
        }
        return (collector.metrics.launchWait, counts)
    }

    /// The least launch wait over every sequence of victim choices among suspended apps
    /// (depth-first, replaying from the start for each prefix).
    static func exhaustiveBest(_ trace: Trace) throws -> Double {
        var best = Double.infinity
        func explore(_ prefix: [Int]) throws {
            let run = try forcedRun(trace, choices: prefix)
            guard run.candidates.count > prefix.count else {
                best = min(best, run.wait)
                return
            }
            for choice in 0..<max(run.candidates[prefix.count], 1) { try explore(prefix + [choice]) }
        }
        try explore([])
        return best
    }

    @Test("the oracle against an exhaustive search of every victim choice on small traces", .singleThreadedLongRun)
    func oracleNearOptimum() throws {
        var excess: [Double] = []
        var optimal = 0
        for seed in UInt64(1)...12 {
            let trace = Self.smallTrace(seed: seed)
            let best = try Self.exhaustiveBest(trace)
            let oracle = try SimulationRun.run(trace, policy: Oracle.policy).metrics.launchWait
            // The search covers the oracle's own choices, so it can never do worse.
            #expect(best <= oracle + 1e-9, "seed \(seed)")
            if oracle <= best + 1e-9 { optimal += 1 }
            excess.append(oracle / best - 1)
        }
        // README ("Beyond the shipped killers") states these figures, rounded: optimal on 8 of 12,
        // 1.9 % above the optimum on average, 6.2 % at most. The traces are seeded, so they are
        // exact; a change to the oracle or the workload that moves them must update the README.
        let mean = Statistics.mean(excess)
        let worst = excess.max() ?? 0
        #expect(optimal == 8, "optimal on \(optimal) of 12; excess \(excess)")
        #expect((mean * 1000).rounded() == 19, "mean excess \(mean)")
        #expect((worst * 1000).rounded() == 62, "largest excess \(worst)")
    }

    @Test("the oracle is never worse than the ios4 lifecycle it shares, on average over generated users")
    func oracleBeatsHeaviestFirst() async throws {
        var workload = Workload.phone
        workload.hours = 24
        let comparison = try await Comparison.run(
            workload: workload, policies: [.ios4, Oracle.policy], seeds: Array(1...10), parallelism: 2)
        let difference = PairedDifference(
            comparison.values(of: .launchWait, policy: 1), baseline: comparison.values(of: .launchWait, policy: 0))
        #expect(difference.mean < 0)
        #expect(comparison.runs[1].allSatisfy { $0.metrics.foregroundKills == 0 })
    }

    @Test(
        "oracle@P keeps every part of P's lifecycle, orders every band with foresight, and learns nothing; informed@P keeps P's horizon too"
    )
    func lifecycleOfAnotherPolicy() throws {
        let prewarming = try Policy(
            yaml: try String(
                contentsOfFile: PackagePaths.path("Examples/policies/predictive-prewarm.yaml"), encoding: .utf8),
            file: "predictive-prewarm")
        for base in [try Policy.shipped("predictive"), try Policy.shipped("jetsam"), prewarming] {
            for reference in [Oracle.policy(lifecycleOf: base), Informed.policy(lifecycleOf: base)] {
                // Everything is the base's but the names, the orders, the reasons' suffixes and the
                // learning; informed@P prices by P's horizon (its scores do, from the true weights).
                var expected = base
                expected.name = reference.name
                expected.summary = reference.summary
                expected.prediction = Policy.ios4.prediction
                if Informed.isInformed(reference) { expected.prediction.horizon = base.prediction.horizon }
                for index in expected.bands.indices {
                    #expect(reference.bands[index].reason.hasPrefix(base.bands[index].reason + " ("))
                    expected.bands[index].order = .externalScore
                    expected.bands[index].reason = reference.bands[index].reason
                }
                #expect(reference == expected)
                #expect(reference.prediction.prewarm == nil, "\(reference.name) learns nothing and prewarms nothing")
                #expect(throws: Never.self) { try reference.validate() }
            }
            #expect(Oracle.policy(lifecycleOf: base).name == "oracle@\(base.name)")
            #expect(Informed.isInformed(Informed.policy(lifecycleOf: base)))
            #expect(!Informed.isInformed(Oracle.policy(lifecycleOf: base)))
            let prewarm = Oracle.prewarmingPolicy(lifecycleOf: base)
            #expect(prewarm.name == "oracle-prewarm@\(base.name)" && prewarm.kills == base.kills)
            #expect(prewarm.prediction.prewarm == Oracle.prewarmingPolicy.prediction.prewarm)
        }
        #expect(Oracle.isOracleName("oracle") && Oracle.isOracleName("oracle@predictive"))
        #expect(!Oracle.isOracleName("oracle-prewarm") && !Oracle.isOracleName("oracle-prewarm@predictive"))
        #expect(!Oracle.isOracleName("informed@predictive") && !Oracle.isOracleName("oracles"))
        #expect(Oracle.isPrewarmingName("oracle-prewarm") && Oracle.isPrewarmingName("oracle-prewarm@predictive"))
        #expect(!Oracle.isPrewarmingName("oracle") && !Oracle.isPrewarmingName("oracle-prewarmed"))
        // The gap is measured to the first oracle, else to the first oracle that prewarms.
        #expect(Comparison.gapReference(among: ["jetsam", "oracle-prewarm", "oracle@jetsam", "oracle"]) == 2)
        #expect(Comparison.gapReference(among: ["jetsam", "oracle-prewarm@p", "oracle-prewarm"]) == 1)
        #expect(Comparison.gapReference(among: ["jetsam", "informed@jetsam"]) == nil)
    }

    @Test("oracle@predictive is never worse than predictive, the policy whose lifecycle it shares, on average")
    func oracleBeatsTheLearnerOnItsLifecycle() async throws {
        var workload = Workload.phone
        workload.hours = 24
        let predictive = try Policy.shipped("predictive")
        let comparison = try await Comparison.run(
            workload: workload, policies: [predictive, Oracle.policy(lifecycleOf: predictive), Oracle.policy],
            seeds: Array(1...10), parallelism: 2)
        #expect(comparison.gapReference == 1, "the first oracle given is the gap's reference")
        let difference = PairedDifference(
            comparison.values(of: .launchWait, policy: 1), baseline: comparison.values(of: .launchWait, policy: 0))
        #expect(difference.mean < 0)
        #expect(comparison.runs[1].allSatisfy { $0.metrics.foregroundKills == 0 })
    }

    @Test(
        "the learning policies do not read the future: changing the trace after t changes no decision before t",
        arguments: ["relaunch-aware", "predictive", "predictive-prewarm"])
    func noFuture(name: String) throws {
        let generator = WorkloadGenerator(workload: .phone)
        // predictive-prewarm is a measured variant in Examples/policies, not a shipped policy.
        let policy =
            name == "predictive-prewarm"
            ? try Policy(
                yaml: try String(contentsOfFile: PackagePaths.path("Examples/policies/\(name).yaml"), encoding: .utf8),
                file: name)
            : try Policy.shipped(name)
        // Kills, and the prewarms a policy decides from the same prediction.
        func kills(_ trace: Trace, _ policy: Policy, before cut: Double) throws -> [String] {
            try Replay.events(trace, policy: policy).filter { $0.time < cut }.compactMap { event in
                switch event.kind {
                case .kill, .prewarm: return event.jsonLine
                default: return nil
                }
            }
        }
        var checked = 0
        var oracleChanged = 0
        // Users until three have four kills or more (predictive kills only at the critical level,
        // so fewer users have that many than under ios4's rule).
        for seed in UInt64(1)...40 where checked < 3 {
            let trace = generator.trace(seed: seed)
            let all = try kills(trace, policy, before: .infinity)
            guard all.count >= 4 else { continue }
            // Cut just after the third kill; after it, another user's day.
            let third = try Replay.events(trace, policy: policy).filter {
                if case .kill = $0.kind { return true } else { return false }
            }[2].time
            let cut = third + 1
            var altered = trace
            altered.entries =
                trace.entries.filter { $0.time < cut }
                + generator.trace(seed: seed + 100).entries.filter { $0.time >= cut }
            let before = try kills(trace, policy, before: cut)
            #expect(before.count >= 3)
            #expect(try kills(altered, policy, before: cut) == before, "seed \(seed)")
            checked += 1
            // The oracle, by design, reads the future: its earlier decisions may change.
            if try kills(trace, Oracle.policy, before: cut) != kills(altered, Oracle.policy, before: cut) {
                oracleChanged += 1
            }
        }
        #expect(checked >= 3)
        #expect(oracleChanged >= 1, "the test would not notice a policy that reads the future")
    }

    @Test("the prewarming oracle's chance is 1 for the app of the next open after the time, 0 for every other")
    func prewarmChance() {
        let chance = Oracle.prewarmChance(openTimes: ["a": [1, 5], "b": [3], "c": [5]])
        #expect([chance("a", 0), chance("b", 0), chance("c", 0)] == [1, 0, 0])
        // Strictly after: at 1, a's open is the one just made; b's at 3 is next.
        #expect([chance("a", 1), chance("b", 1)] == [0, 1])
        // Two opens at 5: the one of the lower id is taken as first.
        #expect([chance("a", 3), chance("c", 3)] == [1, 0])
        #expect([chance("a", 5), chance("b", 5), chance("c", 5)] == [0, 0, 0])
    }

    @Test("the prewarming oracle prewarms the app the user opens next: the user opens nearly all of them")
    func prewarmingOracle() throws {
        let generator = WorkloadGenerator(workload: .phone)
        var prewarms = 0
        var opened = 0
        for seed in UInt64(1)...20 {
            let run = try SimulationRun.run(generator.trace(seed: seed), policy: Oracle.prewarmingPolicy)
            prewarms += run.metrics.prewarms
            opened += run.metrics.prewarmsOpened
            #expect(run.metrics.foregroundKills == 0)
        }
        #expect(prewarms > 0)
        // Only a prewarmed app killed before its open (memory taken by the apps in between) is missed.
        #expect(Double(opened) >= 0.9 * Double(prewarms), "\(opened) of \(prewarms)")
        #expect(Oracle.prewarmingPolicy.problems.isEmpty)
    }
}

/// The oracle with a lifecycle that compresses (compression.order).
@Suite("Oracle: what reclaim compresses first")
struct OracleCompressionOrderTests {
    @Test("the oracle with a compressing lifecycle compresses by its foresight; without compression nothing changes")
    func oracleOrder() throws {
        let compressing = try Policy.shipped("jetsam-compressor")
        #expect(compressing.compression?.order == .leastRecentlyUsed)
        #expect(Oracle.policy(lifecycleOf: compressing).compression?.order == .externalScore)
        #expect(Oracle.policy(lifecycleOf: try .shipped("jetsam")).compression == nil)
    }
}
