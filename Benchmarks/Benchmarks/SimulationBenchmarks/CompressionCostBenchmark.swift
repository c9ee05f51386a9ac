import Benchmark
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// What compressed memory and lmkd's PSI mode cost the engine (issue 25: "with compression on, the
/// engine's per-event cost stays within 1.5× of today's"): 30 users (seeds 1…30) of a workload,
/// one day each, replayed under one policy per iteration — the work of a 30-user `compare`
/// column. The kill-only policy and its compressing variants run side by side in one run.
///
/// The same harness measures what the learning policies cost (issue 26), against ios4.
///
/// Reported: the wall clock of the 30 replays (traces generated in setup) and the engine's actions
/// per second over them.
final class CompressionCostBenchmark {
    static let nanosecondsPerAction = BenchmarkMetric.custom(
        "ns per action", polarity: .prefersSmaller, useScalingFactor: false)

    static var metrics: [BenchmarkMetric] { [.wallClock, .throughput, nanosecondsPerAction] }

    /// The policies measured, each kill-only policy before the ones that reclaim.
    static let policies = [
        "jetsam", "jetsam-compressor", "android-lmkd", "android-lmkd-zram", "android-lmkd-psi",
        // earlyoom and its swap variants (earlyoom-swap and earlyoom-zswap are in Examples/policies).
        "earlyoom", "earlyoom-zram", "earlyoom-swap", "earlyoom-zswap",
        // systemd-oomd over the same zram, with its memory-pressure rule's checks between actions.
        "systemd-oomd",
    ]

    /// The learning policies measured (issue 26), after ios4, whose lifecycle they share;
    /// predictive-prewarm is the measured variant in Examples/policies (a prewarm decision per open).
    static let learningPolicies = ["ios4", "relaunch-aware", "predictive", "predictive-prewarm"]

    let workload: Workload
    let policyName: String
    var traces: [Trace] = []
    var policy: Policy?

    init(workload: Workload, policy: String) {
        self.workload = workload
        self.policyName = policy
    }

    func setUp() {
        let generator = WorkloadGenerator(workload: workload)
        traces = (1...30).map { generator.trace(seed: UInt64($0)) }
        policy = try? Policy.shipped(policyName)
        if policy == nil {
            // Not shipped: a policy file of Examples/policies (this file is four levels below the root).
            var root = URL(fileURLWithPath: #filePath)
            for _ in 0..<4 { root.deleteLastPathComponent() }
            let path = root.appendingPathComponent("Examples/policies/\(policyName).yaml").path
            policy = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { try? Policy(yaml: $0, file: path) }
        }
    }

    func tearDown() { traces = [] }

    func run(_ benchmark: Benchmark) {
        guard let policy else { fatalError("no shipped policy or example policy file \(policyName)") }
        var actions = 0
        let start = MonotonicClock.nanoseconds()
        benchmark.startMeasurement()
        for trace in traces {
            do {
                let run = try SimulationRun.run(trace, policy: policy, launchCost: workload.launchCost)
                actions += run.metrics.actions
                blackHole(run)
            } catch {
                fatalError("compression cost benchmark: \(error)")
            }
        }
        benchmark.stopMeasurement()
        let nanoseconds = Double(MonotonicClock.nanoseconds() - start)
        benchmark.measurement(Self.nanosecondsPerAction, Int((nanoseconds / Double(max(actions, 1))).rounded()))
    }
}

extension Workload {
    /// The built-in phone workload over seven days (the learning policies' history).
    static var phoneWeek: Workload {
        var workload = Workload.phone
        workload.hours = 168
        return workload
    }
}
