import MemoryPressure

/// How many generated samples a comparison runs when the user names no count: enough that every
/// paired launch-wait difference against the baseline is either resolved or known to be small.
///
/// The comparison looks at the data at a few sizes only — ``first``, then doubling, up to
/// ``maximum`` (30, 60, 120, 240, 480 and 960 by default: six looks). At each look every policy's
/// paired difference in launch wait against the baseline is **settled** when
///
/// - it is resolved at a stricter level, its Holm-adjusted p-value below 5 % / looks (and its 95 %
///   interval excluding zero): a Bonferroni split of the error over the looks, so that looking
///   more than once cannot make a false "better" likelier than 5 % at the early stops; or
/// - its 95 % interval is narrow: at most ±``resolve``/2, so a true difference of ``resolve``
///   seconds a day would be resolved (at the strictest Holm level over a dozen policies, with about
///   85 % power), and a difference left unresolved is smaller than that. Stopping on the width
///   alone is the fixed-width rule of Chow and Robbins (Annals of Mathematical Statistics 1965),
///   whose intervals keep their coverage.
///
/// The run stops at the first look where every difference is settled, or at ``maximum``; the report
/// says which, and names the differences left unsettled. The intervals printed are the usual ones
/// at the final size. Across the two stopping reasons a policy with no true difference is called
/// better or worse with probability at most 5 % (early stops) + 5 % (final look): the rule trades
/// that bound for a default run that resolves what it prints.
public struct SequentialSampling: Sendable, Hashable {
    /// The difference in launch wait, in seconds per sample, the run must be able to resolve.
    public var resolve: Double
    /// The samples of the first look.
    public var first: Int
    /// The most samples run.
    public var maximum: Int

    /// A rule; see each property.
    ///
    /// - Complexity: O(1)
    public init(resolve: Double, first: Int, maximum: Int) {
        self.resolve = resolve
        self.first = first
        self.maximum = maximum
    }

    /// `compare`'s default: resolve 1 s a day, looks at 30, 60, … 960 samples.
    public static let standard = SequentialSampling(resolve: 1, first: 30, maximum: 960)

    /// The sample sizes looked at: ``first``, doubling while at most ``maximum`` (just ``maximum``
    /// if it is below ``first``).
    ///
    /// - Complexity: O(log(maximum / first))
    public var looks: [Int] {
        guard first >= 1, maximum > first else { return [Swift.max(Swift.min(first, maximum), 1)] }
        var sizes: [Int] = []
        var size = first
        while size <= maximum {
            sizes.append(size)
            size *= 2
        }
        return sizes
    }

    /// The adjusted p-value below which a difference counts as resolved at a look: 5 % / looks.
    public var earlyLevel: Double { (1 - Statistics.confidence) / Double(looks.count) }

    /// Whether one paired difference is settled under this rule.
    ///
    /// - Complexity: O(1)
    public func isSettled(_ difference: PairedDifference) -> Bool {
        let excludesZero = difference.low > 0 || difference.high < 0
        return (excludesZero && difference.adjustedP < earlyLevel)
            || (difference.high - difference.low) / 2 <= resolve / 2
    }

    /// What the rule did: the sizes looked at, and the differences still unsettled at the last.
    public struct Outcome: Sendable, Hashable {
        /// The rule followed.
        public var rule: SequentialSampling
        /// The sample sizes looked at, in order; the last is the comparison's.
        public var sizes: [Int]
        /// The policies whose difference from the baseline was not settled at the last look
        /// (empty when the rule stopped because every one was).
        public var unsettled: [String]

        /// Whether the run stopped because every difference was settled (not at the maximum).
        public var settled: Bool { unsettled.isEmpty }

        /// One sentence on the rule and why the run stopped.
        public var summary: String {
            let sizesText = sizes.map(String.init).joined(separator: ", ")
            let half = ((rule.resolve / 2) * 1000).rounded() / 1000
            var out =
                "samples chosen sequentially to resolve \(Event.number(rule.resolve)) s of launch wait: looked at "
            out += "\(sizesText); "
            if settled {
                out +=
                    "stopped when every paired difference was resolved (Holm p < \(Event.number((rule.earlyLevel * 10_000).rounded() / 10_000))) "
                out += "or within ±\(Event.number(half)) s"
            } else {
                out += "stopped at the maximum (--max-seeds \(rule.maximum)) with "
                out += unsettled.joined(separator: ", ") + " neither resolved nor within ±\(Event.number(half)) s"
            }
            return out
        }
    }
}

extension Comparison {
    /// Runs the seeds from `firstSeed` on, under every policy, in the looks of `sampling`, and stops
    /// at the first look where every policy's paired launch-wait difference against the baseline
    /// (`baseline`, or the real killer with the lowest mean at that look) is settled. Metrics count
    /// from `warmUp` seconds into each trace.
    ///
    /// Each look runs only the seeds it adds; the result equals ``run(workload:policies:seeds:warmUp:parallelism:progress:)``
    /// on the final seeds. `progress` receives the finished runs and the total of the current look.
    ///
    /// - Throws: ``ReplayError`` if a policy cannot be used.
    /// - Complexity: one `SimulationRun.run` per (policy, seed run), plus O(policies × seeds ×
    ///   ``Statistics/bootstrapResamples``) per look for the differences.
    public static func run(
        workload: Workload, policies: [Policy], firstSeed: UInt64, sampling: SequentialSampling,
        baseline: String? = nil, warmUp: Double = 0, parallelism: Int = 2,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> (comparison: Comparison, outcome: SequentialSampling.Outcome) {
        var comparison: Comparison? = nil
        var sizes: [Int] = []
        var unsettled: [String] = []
        guard let metric = MetricDefinition.named("launchWait") else { preconditionFailure("launch wait is a metric") }
        for size in sampling.looks {
            let done = comparison?.samples.count ?? 0
            let seeds = (done..<size).map { firstSeed &+ UInt64($0) }
            let total = size * policies.count
            let offset = done * policies.count
            var forward: (@Sendable (Int, Int) -> Void)? = nil
            if let progress {
                forward = { finished, _ in progress(offset + finished, total) }
            }
            let batch = try await run(
                workload: workload, policies: policies, seeds: seeds, warmUp: warmUp, parallelism: parallelism,
                progress: forward)
            if comparison == nil { comparison = batch } else { comparison!.append(batch) }
            sizes.append(size)
            let current = comparison!
            let reference = current.baseline(named: baseline) ?? 0
            let differences = current.pairedDifferences(of: metric, baseline: reference)
            unsettled = differences.indices.filter { index in
                differences[index].map { !sampling.isSettled($0) } ?? false
            }.map { current.policies[$0] }
            if unsettled.isEmpty { break }
        }
        return (comparison!, SequentialSampling.Outcome(rule: sampling, sizes: sizes, unsettled: unsettled))
    }

    /// Appends the samples of `other`, which ran the same policies.
    ///
    /// - Complexity: O(policies × samples of `other`)
    public mutating func append(_ other: Comparison) {
        precondition(other.policies == policies, "the same policies")
        samples += other.samples
        for index in runs.indices { runs[index] += other.runs[index] }
    }
}
