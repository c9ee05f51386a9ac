import MemoryPressure

/// Several policies replaying the very same samples (a seed's user-day, a user of a usage log, a
/// trace file), with every run's metrics.
public struct Comparison: Sendable {
    /// The workload's name.
    public var workload: String
    /// The policies, in the order given.
    public var policies: [String]
    /// The samples' labels (the seed, the user's id, the trace file), in run order.
    public var samples: [String]
    /// `runs[p][s]`: policy `p` on sample `s`. Only the first sample's runs keep their
    /// ``SimulationRun/freeMemory`` timeline (charts draw that sample); the others' is empty, so
    /// that memory does not grow by a timeline per run.
    public var runs: [[SimulationRun]]
    /// The device of the first sample (for level thresholds on charts).
    public var device: Device
    /// The policies themselves.
    public var policyValues: [Policy]

    /// A comparison from its parts (``run(workload:policies:seeds:warmUp:parallelism:progress:)`` makes one).
    ///
    /// - Complexity: O(1)
    public init(
        workload: String, policies: [String], samples: [String], runs: [[SimulationRun]], device: Device,
        policyValues: [Policy]
    ) {
        self.workload = workload
        self.policies = policies
        self.samples = samples
        self.runs = runs
        self.device = device
        self.policyValues = policyValues
    }

    /// Generates the trace of every seed from `workload` (for the phone workload, each seed is
    /// another user) and replays each under every policy.
    ///
    /// Runs are spread over `parallelism` tasks (structured concurrency); every run is
    /// independent and deterministic, so the result equals a sequential run's, whatever the
    /// parallelism. `progress` receives the number of finished runs and the total. Metrics count
    /// from `warmUp` seconds into each trace (see ``SimulationRun/run(_:policy:launchCost:file:warmUp:scores:onEvents:progress:)``).
    ///
    /// - Throws: ``ReplayError`` if a policy cannot be used.
    /// - Complexity: O(apps) for the generator's catalogue, one ``WorkloadGenerator/trace(seed:)``
    ///   per seed, plus one `SimulationRun.run` per (policy, seed), spread over `parallelism` tasks.
    public static func run(
        workload: Workload, policies: [Policy], seeds: [UInt64], warmUp: Double = 0, parallelism: Int = 2,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Comparison {
        let generator = WorkloadGenerator(workload: workload)
        // Each seed's trace is made when its first run starts and dropped when its last run ends
        // (the runs go sample by sample), so memory holds a few traces, not one per seed.
        let traces = GeneratedTraces(generator: generator, seeds: seeds, runsEach: policies.count)
        // The informed references' scores, per sample, for each horizon they price by.
        var scores: [Double?: [Score?]] = [:]
        for policy in policies where Informed.isInformed(policy) && scores[policy.prediction.horizon] == nil {
            guard let model = workload.user else {
                throw ComparisonError.informedNeedsUserModel(workload: workload.name)
            }
            scores[policy.prediction.horizon] = seeds.map { seed in
                generator.user(seed: seed).map {
                    Informed.score(
                        user: $0, model: model, launchCost: workload.launchCost, horizon: policy.prediction.horizon)
                }
            }
        }
        return try await run(
            trace: traces.take, finished: traces.finish, count: seeds.count, device: workload.device,
            name: workload.name, policies: policies, samples: seeds.map(String.init), launchCost: workload.launchCost,
            warmUp: warmUp, informedScores: scores, parallelism: parallelism, progress: progress)
    }

    /// An external score: for an app, its size and the time, the key of its band (higher is killed first).
    typealias Score = @Sendable (AppID, Bytes, Double) -> Double

    /// Replays each of `traces` (one per sample, labelled by `samples`) under every policy,
    /// counting metrics from `warmUp` seconds into each. `informedScores` (one per sample) score
    /// every ``Informed`` reference among `policies`, whatever its horizon; they cannot run
    /// without them.
    ///
    /// - Throws: ``ReplayError`` if a policy cannot be used or a trace has an action the engine
    ///   refuses for another reason than a kill.
    /// - Complexity: O(policies × traces) for the bookkeeping, plus one `SimulationRun.run` per (policy,
    ///   trace), spread over `parallelism` tasks.
    public static func run(
        traces: [Trace], name: String, policies: [Policy], samples: [String], launchCost: LaunchCost = .phone,
        warmUp: Double = 0, informedScores: [(@Sendable (AppID, Bytes, Double) -> Double)?]? = nil,
        parallelism: Int = 2, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Comparison {
        var scores: [Double?: [Score?]] = [:]
        if let informedScores {
            for policy in policies where Informed.isInformed(policy) {
                scores[policy.prediction.horizon] = informedScores
            }
        }
        return try await run(
            traces: traces, name: name, policies: policies, samples: samples, launchCost: launchCost, warmUp: warmUp,
            informedScores: scores, parallelism: parallelism, progress: progress)
    }

    /// ``run(traces:name:policies:samples:launchCost:warmUp:informedScores:parallelism:progress:)``
    /// with the informed references' scores per sample for each horizon they price by.
    private static func run(
        traces: [Trace], name: String, policies: [Policy], samples: [String], launchCost: LaunchCost,
        warmUp: Double, informedScores: [Double?: [Score?]], parallelism: Int,
        progress: (@Sendable (Int, Int) -> Void)?
    ) async throws -> Comparison {
        precondition(traces.count == samples.count, "one label per trace")
        return try await run(
            trace: { traces[$0] }, finished: { _ in }, count: traces.count, device: traces.first?.device ?? .iPhone4,
            name: name, policies: policies, samples: samples, launchCost: launchCost, warmUp: warmUp,
            informedScores: informedScores, parallelism: parallelism, progress: progress)
    }

    /// The runs of every policy on `count` samples whose traces `trace(sample)` gives, each once
    /// per policy; `finished(sample)` is called after each run of the sample.
    private static func run(
        trace: @escaping @Sendable (Int) -> Trace, finished: @escaping @Sendable (Int) -> Void, count: Int,
        device: Device, name: String, policies: [Policy], samples: [String], launchCost: LaunchCost, warmUp: Double,
        informedScores: [Double?: [Score?]], parallelism: Int, progress: (@Sendable (Int, Int) -> Void)?
    ) async throws -> Comparison {
        for policy in policies where Informed.isInformed(policy) {
            guard let scores = informedScores[policy.prediction.horizon], scores.count == count,
                scores.allSatisfy({ $0 != nil })
            else { throw ComparisonError.informedNeedsUserModel(workload: name) }
        }
        let runs = try await runJobs(
            policies: policies.count, samples: count, parallelism: parallelism, progress: progress
        ) { policy, sample in
            defer { finished(sample) }
            return try SimulationRun.run(
                trace(sample), policy: policies[policy], launchCost: launchCost, file: samples[sample], warmUp: warmUp,
                scores: Informed.isInformed(policies[policy])
                    ? informedScores[policies[policy].prediction.horizon]?[sample] : nil)
        }
        return Comparison(
            workload: name, policies: policies.map(\.name), samples: samples, runs: runs, device: device,
            policyValues: policies)
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

    /// Every metric comparisons show, in order: the user-felt costs first.
    public static let all: [MetricDefinition] = [
        .init(name: "launch wait (s)", key: "launchWait", better: .lower, isDeterministic: true) { $0.launchWait },
        .init(name: "  of cold relaunches (s)", key: "coldRelaunchWait", better: .lower, isDeterministic: true) {
            $0.coldRelaunchWait
        },
        .init(name: "cold launches", key: "coldLaunches", better: .neither, isDeterministic: true) {
            Double($0.coldLaunches)
        },
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
        .init(name: "MiB compressed", key: "mibCompressed", better: .neither, isDeterministic: true) {
            Double($0.bytesCompressed) / 1_048_576
        },
        .init(name: "CPU compressing (s)", key: "compressionSeconds", better: .lower, isDeterministic: true) {
            $0.compressionSeconds
        },
        .init(name: "resumes decompressed", key: "decompressedResumes", better: .neither, isDeterministic: true) {
            Double($0.decompressedResumes)
        },
        .init(name: "  decompression wait (s)", key: "decompressionWait", better: .lower, isDeterministic: true) {
            $0.decompressionWait
        },
        .init(name: "MiB frozen", key: "mibFrozen", better: .neither, isDeterministic: true) {
            Double($0.bytesFrozen) / 1_048_576
        },
        .init(name: "apps thawed", key: "thawedApps", better: .neither, isDeterministic: true) {
            Double($0.thawedApps)
        },
        .init(name: "MiB written back", key: "mibWrittenBack", better: .neither, isDeterministic: true) {
            Double($0.bytesWrittenBack) / 1_048_576
        },
        .init(name: "prewarms", key: "prewarms", better: .neither, isDeterministic: true) { Double($0.prewarms) },
        .init(name: "  opened while resident", key: "prewarmsOpened", better: .higher, isDeterministic: true) {
            Double($0.prewarmsOpened)
        },
        .init(name: "  launch work (s)", key: "prewarmSeconds", better: .lower, isDeterministic: true) {
            $0.prewarmSeconds
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

extension MetricDefinition {
    /// The metric with `key`, if any.
    ///
    /// - Complexity: O(metric definitions) (a linear search of ``all``).
    public static func named(_ key: String) -> MetricDefinition? { all.first { $0.key == key } }

    /// Total launch wait: the default metric for choosing the baseline.
    public static var launchWait: MetricDefinition { named("launchWait")! }
}

extension Comparison {
    /// The values of `metric` for policy `policy`, one per sample, in sample order.
    ///
    /// - Complexity: O(samples)
    public func values(of metric: MetricDefinition, policy: Int) -> [Double] {
        runs[policy].map { metric.value($0.metrics) }
    }

    /// The mean of `metric` with its 95 % interval, for each policy in policy order.
    ///
    /// - Complexity: O(policies × samples)
    public func intervals(of metric: MetricDefinition) -> [MeanInterval] {
        policies.indices.map { MeanInterval(values(of: metric, policy: $0)) }
    }

    /// The index of the best policy for `metric` (by mean), or `nil` when the metric has no better
    /// direction or every policy ties.
    ///
    /// - Complexity: O(policies × samples)
    public func best(for metric: MetricDefinition) -> Int? {
        let means = policies.indices.map { Statistics.mean(values(of: metric, policy: $0)) }
        guard means.count > 1, Set(means).count > 1 else { return nil }
        switch metric.better {
        case .lower: return means.indices.min { means[$0] < means[$1] }
        case .higher: return means.indices.max { means[$0] < means[$1] }
        case .neither: return nil
        }
    }

    /// The baseline of the paired comparison: the policy named `name`, or the real killer (see
    /// ``isRealKiller(_:)``) with the lowest mean launch wait (the first of equals; the first policy
    /// if none is a real killer).
    ///
    /// - Returns: `nil` if no policy has that name.
    /// - Complexity: O(policies) with a name; otherwise O(policies × (samples + bands)).
    public func baseline(named name: String?) -> Int? {
        if let name { return policies.firstIndex(of: name) }
        let real = policies.indices.filter { Self.isRealKiller(policyValues[$0]) }
        let means = policies.indices.map { Statistics.mean(values(of: .launchWait, policy: $0)) }
        return real.min { (means[$0], $0) < (means[$1], $1) } ?? 0
    }

    /// Whether `policy` models a real system's killer: it orders no band by learnt relaunch cost
    /// (`BandOrder.expectedRelaunchCost`, `BandOrder.predictedReuse`) or by clairvoyant scores (the
    /// oracle).
    ///
    /// - Complexity: O(bands of `policy`)
    public static func isRealKiller(_ policy: Policy) -> Bool {
        !policy.bands.contains {
            $0.order == .expectedRelaunchCost || $0.order == .predictedReuse || $0.order == .externalScore
        }
    }

    /// The oracle the gap is measured to: the first policy named `oracle` or `oracle@…`
    /// (``Oracle/isOracleName(_:)``), else the first oracle that prewarms (`oracle-prewarm` or
    /// `oracle-prewarm@…`, ``Oracle/isPrewarmingName(_:)``), or `nil` without either.
    ///
    /// - Complexity: O(policies)
    public var gapReference: Int? { Self.gapReference(among: policies) }

    /// The index of the oracle the gap is measured to among the policies `names`, as
    /// ``gapReference`` chooses it (compare's and sweep's rule).
    ///
    /// - Complexity: O(names)
    public static func gapReference(among names: [String]) -> Int? {
        names.firstIndex(where: Oracle.isOracleName) ?? names.firstIndex(where: Oracle.isPrewarmingName)
    }

    /// The share of the gap in mean launch wait between `baseline` and the oracle
    /// (``gapReference``) that each policy closes (baseline 0, oracle 1; negative for policies
    /// worse than the baseline), or `nil` without an oracle among the policies or without a gap.
    ///
    /// - Complexity: O(policies × samples)
    public func gapToOracleClosed(baseline: Int) -> [Double]? {
        guard let oracle = gapReference else { return nil }
        let means = policies.indices.map { Statistics.mean(values(of: .launchWait, policy: $0)) }
        return Self.sharesOfGap(means: means, baseline: baseline, oracle: oracle)
    }

    /// Each mean's share of the gap from `means[baseline]` down to `means[oracle]` (the
    /// baseline's 0, the oracle's 1), or `nil` when the oracle is not below the baseline.
    ///
    /// - Complexity: O(means)
    static func sharesOfGap(means: [Double], baseline: Int, oracle: Int) -> [Double]? {
        let gap = means[baseline] - means[oracle]
        guard gap > 0 else { return nil }
        return means.map { (means[baseline] - $0) / gap }
    }

    /// A 95 % interval of each share ``gapToOracleClosed(baseline:)`` gives, from a percentile
    /// bootstrap over the samples (``Statistics/bootstrapRatioInterval(_:_:)``: each sample's
    /// baseline-minus-policy wait over its baseline-minus-oracle wait, resampled together; an end
    /// is infinite where too many resamples have no gap); `nil` where the share is not a ratio (the
    /// baseline's 0 and the oracle's 1), and `nil` for all without a share.
    ///
    /// - Complexity: O(policies × samples × ``Statistics/bootstrapResamples``)
    public func gapToOracleClosedIntervals(baseline: Int) -> [ClosedRange<Double>?]? {
        guard let oracle = gapReference, gapToOracleClosed(baseline: baseline) != nil else { return nil }
        let launchWaits = policies.indices.map { values(of: .launchWait, policy: $0) }
        return Self.intervalsOfShares(launchWaits: launchWaits, baseline: baseline, oracle: oracle)
    }

    /// The 95 % interval of each policy's share of the gap, from each policy's launch wait per
    /// sample (`launchWaits[policy][sample]`): compare's and sweep's computation.
    ///
    /// - Complexity: O(policies × samples × ``Statistics/bootstrapResamples``)
    static func intervalsOfShares(launchWaits: [[Double]], baseline: Int, oracle: Int) -> [ClosedRange<Double>?] {
        let reference = launchWaits[baseline]
        let gaps = zip(reference, launchWaits[oracle]).map { $0 - $1 }
        return launchWaits.indices.map { index in
            guard index != baseline && index != oracle else { return nil }
            let closed = zip(reference, launchWaits[index]).map { $0 - $1 }
            return Statistics.bootstrapRatioInterval(closed, gaps)
        }
    }

    /// The paired differences `policy − baseline` of `metric` for every policy (`nil` for the
    /// baseline itself), with p-values Holm-adjusted over the policies compared.
    ///
    /// - Complexity: O(policies × samples) with the t method, O(policies × samples ×
    ///   ``Statistics/bootstrapResamples``) for differences bootstrapped, plus O(policies log policies)
    ///   for Holm's adjustment.
    public func pairedDifferences(of metric: MetricDefinition, baseline: Int) -> [PairedDifference?] {
        let reference = values(of: metric, policy: baseline)
        var differences: [PairedDifference?] = policies.indices.map { index in
            index == baseline ? nil : PairedDifference(values(of: metric, policy: index), baseline: reference)
        }
        let compared = differences.indices.filter { differences[$0] != nil }
        let adjusted = Statistics.holm(compared.map { differences[$0]!.p })
        for (position, index) in compared.enumerated() { differences[index]!.adjustedP = adjusted[position] }
        return differences
    }
}
