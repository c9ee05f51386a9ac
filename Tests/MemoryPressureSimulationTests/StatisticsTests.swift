import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

@Suite("Statistics: intervals, paired differences, Holm")
struct StatisticsTests {
    @Test("Student's t quantiles match the published table (two-sided 95 %)")
    func tQuantiles() {
        // Critical values of t for a two-sided 95 % interval (any statistics table, e.g. NIST/SEMATECH
        // e-Handbook of Statistical Methods, §1.3.6.7.2).
        for (df, expected) in [(1.0, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (29, 2.045), (100, 1.984)] {
            let value = Statistics.studentTQuantile(0.975, degreesOfFreedom: df)
            #expect(abs(value - expected) < 0.0015, "df \(df): \(value)")
        }
        #expect(abs(Statistics.studentTCDF(0, degreesOfFreedom: 7) - 0.5) < 1e-12)
        #expect(abs(Statistics.studentTCDF(-2.365, degreesOfFreedom: 7) - 0.025) < 0.0005)
    }

    @Test("95 % intervals of normal samples cover the true mean about 95 % of the time")
    func coverage() {
        var random = SeededGenerator(seed: 42)
        var covered = 0
        let trials = 2_000
        for _ in 0..<trials {
            let values = (0..<30).map { _ in 10 + 3 * Self.normal(&random) }
            let interval = MeanInterval(values)
            if interval.low <= 10 && 10 <= interval.high { covered += 1 }
        }
        let share = Double(covered) / Double(trials)
        #expect(share > 0.93 && share < 0.97, "coverage \(share)")
    }

    @Test("paired intervals of a known shift cover it about 95 % of the time, and resolve a large one")
    func pairedCoverage() {
        var random = SeededGenerator(seed: 7)
        var covered = 0
        var resolved = 0
        for _ in 0..<1_000 {
            // Samples share a large per-sample effect (users differ) and the policy adds 0.5.
            let users = (0..<30).map { _ in 100 + 40 * Self.normal(&random) }
            let baseline = users.map { $0 + Self.normal(&random) }
            let policy = users.map { $0 + 0.5 + Self.normal(&random) }
            let difference = PairedDifference(policy, baseline: baseline)
            if difference.low <= 0.5 && 0.5 <= difference.high { covered += 1 }
            if difference.isResolved { resolved += 1 }
        }
        #expect(covered > 930 && covered < 970, "covered \(covered)")
        // A 0.5 shift with unit noise on each side over 30 pairs: power about 0.5.
        #expect(resolved > 300 && resolved < 700, "resolved \(resolved)")
    }

    @Test("skewed differences are bootstrapped, deterministically, and need not cross zero")
    func bootstrap() {
        let baseline = [Double](repeating: 10, count: 30)
        var policy = baseline
        policy[0] += 50
        policy[1] += 1
        let first = PairedDifference(policy, baseline: baseline)
        let second = PairedDifference(policy, baseline: baseline)
        #expect(first.method == .bootstrap)
        #expect(first == second)
        #expect(first.low >= 0)
        #expect(first.mean == 51.0 / 30)
    }

    @Test(
        "the share of a gap: a paired bootstrap of a ratio of means, deterministic, exact when every pair has the ratio"
    )
    func ratioInterval() throws {
        // Every sample closes 40 % of its own gap: every resample's ratio is 0.4.
        let gaps = (1...50).map { Double($0 % 7 + 1) }
        let exact = try #require(Statistics.bootstrapRatioInterval(gaps.map { 0.4 * $0 }, gaps))
        #expect(abs(exact.lowerBound - 0.4) < 1e-12 && abs(exact.upperBound - 0.4) < 1e-12)
        // Noisy shares: the interval holds the ratio of the means, and a second run gives the same.
        var random = SeededGenerator(seed: 7)
        let closed = gaps.map { $0 * 0.5 + Double(random.next() % 1000) / 500 - 1 }
        let interval = try #require(Statistics.bootstrapRatioInterval(closed, gaps))
        let ratio = Statistics.mean(closed) / Statistics.mean(gaps)
        #expect(interval.lowerBound < ratio && ratio < interval.upperBound, "\(interval) around \(ratio)")
        #expect(Statistics.bootstrapRatioInterval(closed, gaps) == interval)
        // Pairs resampled together: shuffling one side alone would change the interval.
        #expect(Statistics.bootstrapRatioInterval(closed.reversed(), gaps) != interval)
        // Nothing to resample, or one sample (an interval of no width would claim certainty): none.
        #expect(Statistics.bootstrapRatioInterval([], []) == nil)
        #expect(Statistics.bootstrapRatioInterval([0.4], [1]) == nil)
        #expect(Statistics.bootstrapRatioInterval([1], [1, 2]) == nil)
    }

    @Test("the share of a gap: resamples with no gap count at both ends, and an end past the tail is unbounded")
    func ratioIntervalWithoutGap() throws {
        // Half of the resamples (or so) have no gap: unbounded both ways.
        let both = try #require(Statistics.bootstrapRatioInterval([1, 1], [1, -1]))
        #expect(both.lowerBound == -.infinity && both.upperBound == .infinity)
        // One sample with a negative gap among 60 positive ones: it is drawn into a resample's
        // sum often, but the sum stays positive far more often than not.
        var random = SeededGenerator(seed: 11)
        let gaps = (0..<60).map { _ in 1 + Double(random.next() % 100) / 100 } + [-22]
        let closed = gaps.map { $0 > 0 ? 0.5 * $0 + Double(random.next() % 100) / 200 - 0.25 : 0 }
        let interval = try #require(Statistics.bootstrapRatioInterval(closed, gaps))
        // The same interval, counted by hand: the resamples without a gap below the low end and
        // above the high end.
        var replay = SeededGenerator(seed: 0x5EED_B007)
        var ratios: [Double] = []
        var undefined = 0
        for _ in 0..<Statistics.bootstrapResamples {
            var top = 0.0
            var bottom = 0.0
            for _ in gaps.indices {
                let index = Int(replay.next() % UInt64(gaps.count))
                top += closed[index]
                bottom += gaps[index]
            }
            if bottom > 0 { ratios.append(top / bottom) } else { undefined += 1 }
        }
        ratios.sort()
        let tail = Statistics.bootstrapResamples / 40
        #expect(undefined > 0 && undefined <= tail, "\(undefined) resamples without a gap")
        if undefined > tail {
            #expect(interval.lowerBound == -.infinity && interval.upperBound == .infinity)
        } else {
            #expect(interval.lowerBound == ratios[tail - undefined])
            #expect(interval.upperBound == ratios[Statistics.bootstrapResamples - tail])
            // Wider than the interval of the defined ratios alone, at both ends.
            #expect(interval.lowerBound <= ratios[tail] && interval.upperBound >= ratios[ratios.count - 1 - tail])
        }
    }

    @Test("Holm: the smallest p times m, the next times m − 1, monotone, capped at 1, in input order")
    func holm() {
        let adjusted = Statistics.holm([0.04, 0.01, 0.03, 0.5])
        // Sorted: 0.01×4 = 0.04, 0.03×3 = 0.09, 0.04×2 = 0.08 → 0.09 (monotone), 0.5×1 = 0.5.
        let expected = [0.09, 0.04, 0.09, 0.5]
        for (value, target) in zip(adjusted, expected) { #expect(abs(value - target) < 1e-12) }
        #expect(Statistics.holm([0.9, 0.8]) == [1, 1])
        #expect(Statistics.holm([]) == [])
    }

    @Test("identical runs give a zero difference that is not resolved; a constant shift is judged by the sign test")
    func degenerate() {
        let values = [1.0, 2, 3, 4]
        let same = PairedDifference(values, baseline: values)
        #expect(same.mean == 0 && !same.isResolved && same.p == 1)
        // Four samples all one higher: no spread, so no t; the exact sign test gives 2 × 2^-4.
        let shifted = PairedDifference(values.map { $0 + 1 }, baseline: values)
        #expect(shifted.low == 1 && shifted.high == 1 && shifted.p == 0.125 && !shifted.isResolved)
        let eight = (1...8).map(Double.init)
        let shiftedEight = PairedDifference(eight.map { $0 - 2 }, baseline: eight)
        #expect(shiftedEight.p == 2.0 / 256 && shiftedEight.isResolved && shiftedEight.mean == -2)
        #expect(!PairedDifference([3], baseline: [1]).isResolved)
        #expect(MeanInterval([5]).low == 5)
    }

    static func normal(_ random: inout SeededGenerator) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let u2 = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

@Suite("Metric sums")
struct MetricSumTests {
    @Test("byte sums saturate at Int64.max instead of trapping")
    func saturating() {
        var collector = MetricsCollector()
        for second in 0..<3 {
            collector.record(
                Event(
                    time: Double(second),
                    kind: .kill(app: "A", state: .suspended, reason: "r", notice: .none, freed: Bytes(Int64.max / 2))))
        }
        #expect(collector.metrics.bytesFreedByKilling == Int64.max)
        #expect(collector.metrics.kills == 3)
    }
}

/// compare's sequential rule (SequentialSampling): looks, what settles a difference, and runs that
/// equal a fixed run on the same seeds.
@Suite("Sequential sampling")
struct SequentialSamplingTests {
    @Test("looks double from the first size up to the maximum; the early level splits 5 % over them")
    func looks() {
        #expect(SequentialSampling.standard.looks == [30, 60, 120, 240, 480, 960])
        #expect(abs(SequentialSampling.standard.earlyLevel - 0.05 / 6) < 1e-12)
        #expect(SequentialSampling(resolve: 1, first: 30, maximum: 100).looks == [30, 60])
        #expect(SequentialSampling(resolve: 1, first: 30, maximum: 30).looks == [30])
        #expect(SequentialSampling(resolve: 1, first: 30, maximum: 10).looks == [10])
    }

    @Test("a difference is settled when resolved at the early level or narrower than ±resolve/2")
    func settled() {
        let rule = SequentialSampling.standard
        func difference(_ low: Double, _ high: Double, adjustedP: Double) -> PairedDifference {
            var value = PairedDifference([1, 2, 3], baseline: [1, 2, 3])
            value.low = low
            value.high = high
            value.mean = (low + high) / 2
            value.adjustedP = adjustedP
            return value
        }
        #expect(rule.isSettled(difference(1, 3, adjustedP: 0.001)))  // resolved at the early level
        #expect(!rule.isSettled(difference(1, 3, adjustedP: 0.02)))  // resolved at 5 %, not at 5 % / 6
        #expect(rule.isSettled(difference(-0.4, 0.5, adjustedP: 0.6)))  // within ±0.5
        #expect(!rule.isSettled(difference(-0.6, 0.5, adjustedP: 0.6)))
    }

    @Test("a sequential run equals a fixed run on its final seeds, and stops at the first settled look")
    func equalsFixedRun() async throws {
        var workload = Workload.phone
        workload.hours = 6
        let policies = [Policy.ios4, try Policy.shipped("lru")]
        let rule = SequentialSampling(resolve: 1, first: 4, maximum: 16)
        let (sequential, outcome) = try await Comparison.run(
            workload: workload, policies: policies, firstSeed: 7, sampling: rule, parallelism: 2)
        #expect(outcome.sizes.last == sequential.samples.count)
        #expect(outcome.sizes == Array(rule.looks.prefix(outcome.sizes.count)))
        let fixed = try await Comparison.run(
            workload: workload, policies: policies, seeds: (0..<UInt64(sequential.samples.count)).map { 7 + $0 },
            parallelism: 1)
        #expect(sequential.samples == fixed.samples)
        #expect(sequential.runs.map { $0.map(\.metrics.launchWait) } == fixed.runs.map { $0.map(\.metrics.launchWait) })
        // It stopped at the first look where every difference was settled, or at the maximum.
        let launchWait = try #require(MetricDefinition.named("launchWait"))
        for size in outcome.sizes.dropLast() {
            let prefix = Comparison(
                workload: fixed.workload, policies: fixed.policies, samples: Array(fixed.samples.prefix(size)),
                runs: fixed.runs.map { Array($0.prefix(size)) }, device: fixed.device, policyValues: fixed.policyValues)
            let differences = prefix.pairedDifferences(of: launchWait, baseline: prefix.baseline(named: nil) ?? 0)
            #expect(!differences.compactMap { $0 }.allSatisfy(rule.isSettled), "look \(size)")
        }
        #expect(outcome.settled == (outcome.unsettled.isEmpty))
    }
}
