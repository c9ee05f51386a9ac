import MemoryPressure

/// Several policies replaying the very same traces (one per seed), with every run's metrics.
public struct Comparison: Sendable {
    /// The workload's name.
    public var workload: String
    /// The policies, in the order given.
    public var policies: [String]
    /// The seeds, one trace each.
    public var seeds: [UInt64]
    /// `runs[p][s]`: policy `p` on the trace of seed `s`.
    public var runs: [[SimulationRun]]
    /// The device of the workload (for level thresholds on charts).
    public var device: Device
    /// The policies themselves.
    public var policyValues: [Policy]

    /// A comparison from its parts (``run(workload:policies:seeds:parallelism:progress:)`` makes one).
    public init(
        workload: String, policies: [String], seeds: [UInt64], runs: [[SimulationRun]], device: Device,
        policyValues: [Policy]
    ) {
        self.workload = workload
        self.policies = policies
        self.seeds = seeds
        self.runs = runs
        self.device = device
        self.policyValues = policyValues
    }

    /// Generates one trace per seed from `workload` and replays each under every policy.
    ///
    /// Runs are spread over `parallelism` tasks (structured concurrency); every run is
    /// independent and deterministic, so the result equals a sequential run's, whatever the
    /// parallelism. `progress` receives the number of finished runs.
    public static func run(
        workload: Workload, policies: [Policy], seeds: [UInt64], parallelism: Int = 2,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Comparison {
        let generator = WorkloadGenerator(workload: workload, seed: seeds.first ?? 0)
        let traces = seeds.map { generator.trace(seed: $0) }
        return try await run(
            traces: traces, name: workload.name, policies: policies, seeds: seeds,
            parallelism: parallelism, progress: progress)
    }

    /// Replays each of `traces` (one per seed) under every policy.
    public static func run(
        traces: [Trace], name: String, policies: [Policy], seeds: [UInt64], parallelism: Int = 2,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Comparison {
        let jobs = policies.indices.flatMap { policy in traces.indices.map { (policy, $0) } }
        var results = [[SimulationRun?]](
            repeating: [SimulationRun?](repeating: nil, count: traces.count), count: policies.count)
        try await withThrowingTaskGroup(of: (Int, Int, SimulationRun).self) { group in
            var next = 0
            var done = 0
            func submit() {
                let (policy, seed) = jobs[next]
                next += 1
                group.addTask {
                    (policy, seed, try SimulationRun.run(traces[seed], policy: policies[policy]))
                }
            }
            while next < min(max(parallelism, 1), jobs.count) { submit() }
            while let (policy, seed, run) = try await group.next() {
                results[policy][seed] = run
                done += 1
                progress?(done, jobs.count)
                if next < jobs.count { submit() }
            }
        }
        return Comparison(
            workload: name, policies: policies.map(\.name), seeds: seeds,
            runs: results.map { $0.map { $0! } }, device: traces.first?.device ?? .iPhone4, policyValues: policies)
    }
}

/// One metric as comparisons show it: a name, how to read it from a run, and which way is better.
public struct MetricDefinition: Sendable {
    /// Which way is better.
    public enum Better: Sendable {
        /// Smaller values are better (kills, cold relaunches…).
        case lower
        /// Larger values are better (warm resumes, resident apps…).
        case higher
        /// Neither: shown for information.
        case neither
    }

    /// The row label.
    public var name: String
    /// The JSON/CSV key.
    public var key: String
    /// Which way is better.
    public var better: Better
    /// Whether the figure is deterministic (wall-clock figures are not).
    public var isDeterministic: Bool
    /// Reads the figure from metrics.
    public var value: @Sendable (Metrics) -> Double

    /// Every metric comparisons show, in order.
    public static let all: [MetricDefinition] = [
        .init(name: "cold relaunches", key: "coldRelaunches", better: .lower, isDeterministic: true) {
            Double($0.coldRelaunches)
        },
        .init(name: "warm resumes", key: "warmResumes", better: .higher, isDeterministic: true) {
            Double($0.warmResumes)
        },
        .init(name: "kills", key: "kills", better: .lower, isDeterministic: true) { Double($0.kills) },
        .init(name: "  of suspended apps", key: "killsSuspended", better: .neither, isDeterministic: true) {
            Double($0.killsByState[.suspended] ?? 0)
        },
        .init(name: "  of background apps", key: "killsBackground", better: .neither, isDeterministic: true) {
            Double($0.killsByState[.background] ?? 0)
        },
        .init(name: "foreground kills", key: "foregroundKills", better: .lower, isDeterministic: true) {
            Double($0.foregroundKills)
        },
        .init(name: "level-1 warnings", key: "level1Warnings", better: .neither, isDeterministic: true) {
            Double($0.level1Warnings)
        },
        .init(name: "level-2 warnings", key: "level2Warnings", better: .neither, isDeterministic: true) {
            Double($0.level2Warnings)
        },
        .init(name: "MiB freed by purging", key: "mibFreedByPurging", better: .neither, isDeterministic: true) {
            Double($0.bytesFreedByPurging) / 1_048_576
        },
        .init(name: "MiB freed by killing", key: "mibFreedByKilling", better: .lower, isDeterministic: true) {
            Double($0.bytesFreedByKilling) / 1_048_576
        },
        .init(name: "minutes at warning", key: "minutesAtWarning", better: .lower, isDeterministic: true) {
            ($0.secondsAtLevel[.warning] ?? 0) / 60
        },
        .init(name: "minutes at urgent", key: "minutesAtUrgent", better: .lower, isDeterministic: true) {
            ($0.secondsAtLevel[.urgent] ?? 0) / 60
        },
        .init(name: "minutes at critical", key: "minutesAtCritical", better: .lower, isDeterministic: true) {
            ($0.secondsAtLevel[.critical] ?? 0) / 60
        },
        .init(name: "views reloaded", key: "viewsReloaded", better: .lower, isDeterministic: true) {
            Double($0.viewsReloaded)
        },
        .init(name: "apps resident (mean)", key: "averageResidentApps", better: .higher, isDeterministic: true) {
            $0.averageResidentApps
        },
        .init(name: "actions skipped", key: "skippedActions", better: .lower, isDeterministic: true) {
            Double($0.skippedActions)
        },
        .init(name: "engine events/s", key: "eventsPerSecond", better: .higher, isDeterministic: false) {
            $0.eventsPerSecond
        },
        .init(name: "engine ns/decision", key: "nanosecondsPerDecision", better: .lower, isDeterministic: false) {
            $0.nanosecondsPerDecision
        },
    ]
}

/// The mean and spread of one figure over seeds.
public struct Summary: Sendable, Hashable {
    /// The mean.
    public var mean: Double
    /// The sample standard deviation (0 for one seed).
    public var standardDeviation: Double

    /// The summary of `values`.
    public init(_ values: [Double]) {
        let count = Double(max(values.count, 1))
        let mean = values.reduce(0, +) / count
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        self.mean = mean
        standardDeviation = values.count > 1 ? (squares / (count - 1)).squareRoot() : 0
    }
}

extension Comparison {
    /// The summary of `metric` for each policy, in policy order.
    public func summaries(of metric: MetricDefinition) -> [Summary] {
        runs.map { Summary($0.map { metric.value($0.metrics) }) }
    }

    /// The index of the best policy for `metric` (by mean), or `nil` when the metric has no better
    /// direction or every policy ties.
    public func best(for metric: MetricDefinition) -> Int? {
        let means = summaries(of: metric).map(\.mean)
        guard means.count > 1, Set(means).count > 1 else { return nil }
        switch metric.better {
        case .lower: return means.indices.min { means[$0] < means[$1] }
        case .higher: return means.indices.max { means[$0] < means[$1] }
        case .neither: return nil
        }
    }
}
