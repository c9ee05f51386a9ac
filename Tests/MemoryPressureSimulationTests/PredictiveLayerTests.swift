import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

/// `predictive@P` (issue 48): `predictive`'s learnt victim choice layered on the lifecycle and
/// mechanisms of any policy, as `oracle@P` layers foresight.
@Suite("predictive@P: a learnt victim choice on any policy")
struct PredictiveLayerTests {
    /// A policy file of `Examples/policies`.
    static func example(_ name: String) throws -> Policy {
        try Policy(
            yaml: try String(contentsOfFile: PackagePaths.path("Examples/policies/\(name).yaml"), encoding: .utf8),
            file: name)
    }

    @Test(
        "predictive@P keeps every part of P but the bands' orders and reasons, reclaim's order and the learning, which are predictive's"
    )
    func keepsTheLifecycle() throws {
        let learner = try Policy.shipped("predictive")
        let bases = [
            try Policy.shipped("jetsam-compressor"), try Policy.shipped("jetsam"),
            try Policy.shipped("android-lmkd-zram"),
            try Policy.shipped("relaunch-aware"), try Self.example("predictive-prewarm"),
            try Self.example("jetsam-compressor-kill-unlikely"),
        ]
        for base in bases {
            let layered = Predictive.policy(lifecycleOf: base)
            var expected = base
            expected.name = "predictive@\(base.name)"
            expected.summary = layered.summary
            for index in expected.bands.indices {
                expected.bands[index].order = .predictedReuse
                if base.bands[index].order == .predictedReuse {
                    #expect(layered.bands[index].reason == base.bands[index].reason)
                } else {
                    #expect(
                        layered.bands[index].reason
                            == "least likely to be reopened soon per byte, in \(base.name)'s \(base.bands[index].name) band"
                    )
                }
                expected.bands[index].reason = layered.bands[index].reason
            }
            if base.compression != nil { expected.compression?.order = .predictedReuse }
            // The learning and the relaunch's price are predictive's; the mechanisms P switches
            // on with its prediction (prewarming, killing instead of compressing) stay P's.
            expected.prediction = learner.prediction
            expected.prediction.prewarm = base.prediction.prewarm
            expected.prediction.killInsteadOfCompressingAbove = base.prediction.killInsteadOfCompressingAbove
            expected.relaunch = learner.relaunch
            #expect(layered == expected, "\(base.name)")
            #expect(throws: Never.self) { try layered.validate() }
            #expect(!Oracle.isClairvoyant(layered) && !Comparison.isRealKiller(layered))
            // It is an ordinary policy: its YAML (every default resolved) loads back and prints the same.
            let yaml = PolicyYAML.render(layered)
            #expect(PolicyYAML.render(try Policy(yaml: yaml, file: layered.name)) == yaml, "\(base.name)")
        }
        #expect(Predictive.policy(lifecycleOf: try Self.example("predictive-prewarm")).prediction.prewarm != nil)
    }

    @Test("predictive@predictive makes every decision predictive makes, on generated users' days")
    func onItselfIsItself() throws {
        let predictive = try Policy.shipped("predictive")
        let layered = Predictive.policy(lifecycleOf: predictive)
        var workload = Workload.phone
        workload.hours = 48
        let generator = WorkloadGenerator(workload: workload)
        var kills = 0
        for seed in UInt64(1)...6 {
            let trace = generator.trace(seed: seed)
            // Every event but a foreground kill's reason (the one band whose order changes holds
            // the foreground app, one at a time).
            func decisions(_ policy: Policy) throws -> [String] {
                try Replay.events(trace, policy: policy).map { event in
                    if case .kill(let app, let state, _, let notice, let freed) = event.kind, state.isForeground {
                        return "\(event.time) kill \(app) \(state) \(notice) \(freed.value)"
                    }
                    return event.jsonLine
                }
            }
            let expected = try decisions(predictive)
            #expect(try decisions(layered) == expected, "seed \(seed)")
            kills += expected.count(where: { $0.contains("\"type\":\"kill\"") })
        }
        #expect(kills > 10, "the users' days need kills for the check to mean anything")
    }

    /// Five apps of 100 MiB on a 1 GiB phone: `fav` opened after each of the others, so that it
    /// is by far the likeliest to be reopened; then `a`…`d` once more (`fav` is now the app that
    /// entered the idle band first). Then, from time 3000 on, thirty apps of 200 MiB, each opened
    /// once: memory falls below the compressor's start (15 % free) and, once the freezer and the
    /// compressor are full, the idle band kills.
    static var scenario: (trace: Trace, historyEnds: Int) {
        func app(_ id: String, _ mebibytes: Int64) -> AppLaunch {
            AppLaunch(id: AppID(id), footprint: .mebibytes(mebibytes))
        }
        var entries: [Trace.Entry] = []
        var time = 0.0
        func open(_ launch: AppLaunch) {
            entries.append(Trace.Entry(time: time, action: .open(launch)))
            time += 60
        }
        for _ in 0..<3 {
            for name in ["a", "b", "c", "d"] {
                open(app("fav", 100))
                open(app(name, 100))
            }
        }
        open(app("fav", 100))
        for name in ["a", "b", "c", "d"] { open(app(name, 100)) }
        let historyEnds = entries.count
        time = 3000
        for index in 1...30 { open(app("big\(index)", 200)) }
        return (Trace(device: Device(memory: .gibibytes(1)), entries: entries), historyEnds)
    }

    @Test("predictive@jetsam-compressor compresses like jetsam-compressor and picks victims like predictive")
    func compressesAndLearns() throws {
        let (trace, historyEnds) = Self.scenario
        let compressor = try Policy.shipped("jetsam-compressor")
        let predictive = try Policy.shipped("predictive")
        let layered = Predictive.policy(lifecycleOf: compressor)
        // After the history, before any pressure: the order of the suspended apps.
        func suspendedOrder(_ policy: Policy) throws -> [AppID] {
            let engine = try PressureEngine(device: trace.device, policy: policy)
            var player = TracePlayer(engine: engine)
            for entry in trace.entries.prefix(historyEnds) { _ = try player.apply(entry) }
            return engine.killOrder(limit: 16).filter { $0.state == .suspended }.map(\.app)
        }
        let learnt = try suspendedOrder(predictive)
        #expect(learnt.count == 4 && learnt.last == "fav", "predictive keeps the favourite longest: \(learnt)")
        #expect(try suspendedOrder(layered) == learnt, "the same learnt order over jetsam-compressor's idle band")
        #expect(try suspendedOrder(compressor).first == "fav", "jetsam-compressor's idle band: first in, first out")

        func events(_ policy: Policy) throws -> [Event] { try Replay.events(trace, policy: policy) }
        func compressions(_ log: [Event]) -> [(time: Double, app: AppID)] {
            log.compactMap {
                if case .compress(let app, _, _, _, _) = $0.kind { (time: $0.time, app: app) } else { nil }
            }
        }
        func kills(_ log: [Event]) -> [AppID] {
            log.compactMap { if case .kill(let app, _, _, _, _) = $0.kind { app } else { nil } }
        }
        let byCompressor = try events(compressor)
        let byLayered = try events(layered)
        let byLearner = try events(predictive)
        // The compressor's mechanism, at the compressor's moment: reclaim starts when free memory
        // falls below 15 %, on the same open for both; predictive alone never compresses.
        let compressed = compressions(byCompressor)
        let layeredCompressed = compressions(byLayered)
        #expect(!compressed.isEmpty && !layeredCompressed.isEmpty && compressions(byLearner).isEmpty)
        #expect(layeredCompressed.first?.time == compressed.first?.time)
        // What reclaim compresses first: the least recently used under jetsam-compressor (the
        // favourite); under predictive@jetsam-compressor the app predictive kills first.
        #expect(compressed.first?.app == "fav")
        #expect(layeredCompressed.first?.app == kills(byLearner).first)
        // Victims: jetsam-compressor's idle band kills the favourite first; the learnt order,
        // as predictive's, spares it and the apps opened four times, and kills only apps opened once.
        let opened = Set(["fav", "a", "b", "c", "d"].map { AppID($0) })
        let layeredKills = kills(byLayered)
        #expect(kills(byCompressor).first == "fav", "\(kills(byCompressor))")
        #expect(!layeredKills.isEmpty && opened.isDisjoint(with: layeredKills), "\(layeredKills)")
        #expect(!kills(byLearner).isEmpty && opened.isDisjoint(with: kills(byLearner)), "\(kills(byLearner))")
    }

    @Test(
        "predictive@jetsam-compressor decides as the measured example file jetsam-compressor-predicted-reclaim.yaml, and predictive@ that file as the file itself"
    )
    func matchesTheExampleFile() async throws {
        let file = try Self.example("jetsam-compressor-predicted-reclaim")
        let policies = [
            file, Predictive.policy(lifecycleOf: try Policy.shipped("jetsam-compressor")),
            Predictive.policy(lifecycleOf: file),
        ]
        for workload in [Workload.phone, Workload.phone2024] {
            var day = workload
            day.hours = 48
            let comparison = try await Comparison.run(
                workload: day, policies: policies, seeds: Array(1...8), parallelism: 2)
            // The same decisions; the kinds of kill reasons may differ (predictive@P renames the
            // reasons of every band whose order it replaces, the file only its idle band's).
            func decisions(_ runs: [SimulationRun]) -> [Metrics] {
                runs.map {
                    var metrics = $0.metrics.deterministic
                    metrics.killsByReason = ["kills": metrics.kills]
                    return metrics
                }
            }
            let reference = decisions(comparison.runs[0])
            #expect(
                workload.name != "phone" || comparison.runs[0].contains { $0.metrics.kills > 0 },
                "kills are needed for the check to mean anything")
            for index in 1..<policies.count {
                #expect(decisions(comparison.runs[index]) == reference, "\(policies[index].name)")
            }
        }
    }
}
