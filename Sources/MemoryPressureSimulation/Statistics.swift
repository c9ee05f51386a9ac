import Foundation
import MemoryPressure

/// The statistics `compare` reports: a mean with its 95 % confidence interval, and paired
/// differences against a baseline with their intervals and Holm-adjusted p-values.
///
/// Every sample (a seed, a user of a usage log, a trace) runs under every policy, so differences
/// between policies are paired per sample: the variance between users cancels out and the
/// comparison answers "on the same day of the same user, how much worse or better is A than B?".
public enum Statistics {
    /// The confidence level of every interval.
    public static let confidence = 0.95

    /// How many bootstrap resamples a skewed paired difference uses.
    public static let bootstrapResamples = 4_000

    /// The sample skewness above which (in absolute value, with at least 10 samples) a paired
    /// difference is bootstrapped instead of using Student's t.
    public static let skewnessForBootstrap = 1.0

    /// The arithmetic mean (0 for no values).
    ///
    /// - Complexity: O(n)
    public static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    /// The sample standard deviation (n − 1 in the denominator; 0 for fewer than two values).
    ///
    /// - Complexity: O(n)
    public static func standardDeviation(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let mean = mean(values)
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (squares / Double(values.count - 1)).squareRoot()
    }

    /// The sample skewness (adjusted Fisher–Pearson); 0 when the values do not vary.
    ///
    /// - Complexity: O(n)
    public static func skewness(_ values: [Double]) -> Double {
        let n = Double(values.count)
        guard values.count > 2 else { return 0 }
        let mean = mean(values)
        let m2 = values.reduce(0) { $0 + pow($1 - mean, 2) } / n
        let m3 = values.reduce(0) { $0 + pow($1 - mean, 3) } / n
        guard m2 > 0 else { return 0 }
        return (n * (n - 1)).squareRoot() / (n - 2) * m3 / pow(m2, 1.5)
    }

    /// P(T ≤ t) for Student's t distribution with `degreesOfFreedom`.
    ///
    /// - Complexity: O(1) (a continued fraction of at most 300 terms)
    public static func studentTCDF(_ t: Double, degreesOfFreedom df: Double) -> Double {
        guard t.isFinite else { return t > 0 ? 1 : 0 }
        let tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), a: df / 2, b: 0.5)
        return t >= 0 ? 1 - tail : tail
    }

    /// The `p` quantile of Student's t distribution (for 0 < p < 1).
    ///
    /// - Complexity: O(1) (100 bisection steps)
    public static func studentTQuantile(_ p: Double, degreesOfFreedom df: Double) -> Double {
        precondition(p > 0 && p < 1, "a quantile needs 0 < p < 1")
        if p < 0.5 { return -studentTQuantile(1 - p, degreesOfFreedom: df) }
        var low = 0.0
        var high = 1.0
        while studentTCDF(high, degreesOfFreedom: df) < p { high *= 2 }
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if studentTCDF(middle, degreesOfFreedom: df) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// The sorted means of ``bootstrapResamples`` resamples of `values` (with replacement), from a
    /// fixed seed so that every run reports the same interval.
    ///
    /// - Complexity: O(n × resamples)
    public static func bootstrapMeans(_ values: [Double]) -> [Double] {
        var random = SeededGenerator(seed: 0x5EED_B007)
        let n = values.count
        var means: [Double] = []
        means.reserveCapacity(bootstrapResamples)
        for _ in 0..<bootstrapResamples {
            var sum = 0.0
            for _ in 0..<n { sum += values[Int(random.next() % UInt64(n))] }
            means.append(sum / Double(n))
        }
        return means.sorted()
    }

    /// The percentile-bootstrap interval of the ratio of means `mean(numerators) /
    /// mean(denominators)`, resampling the pairs (the same sample in both) from a fixed seed; `nil`
    /// when the arrays hold fewer than two samples (every resample of one pair is that pair: an
    /// interval of no width that would claim certainty) or are of different lengths.
    ///
    /// A resample whose denominators' mean is not above zero has no ratio (it tends to +∞ or −∞ as
    /// that mean falls to zero, by the numerators' sign). Such resamples are counted at both ends
    /// at once — below every ratio for the lower end and above every ratio for the upper end — so
    /// the interval is at least as wide as any way of placing them. Where more of them than a tail's
    /// share (2.5 % of ``bootstrapResamples``) fall at an end, that end is infinite: the interval is
    /// unbounded on that side, as the ratio is.
    ///
    /// The share of a gap that a policy closes is such a ratio: per sample, the baseline's launch
    /// wait minus the policy's over the baseline's minus the oracle's.
    ///
    /// - Complexity: O(n × ``bootstrapResamples``)
    public static func bootstrapRatioInterval(_ numerators: [Double], _ denominators: [Double]) -> ClosedRange<Double>?
    {
        let n = numerators.count
        guard n > 1, denominators.count == n else { return nil }
        var random = SeededGenerator(seed: 0x5EED_B007)
        var ratios: [Double] = []
        ratios.reserveCapacity(bootstrapResamples)
        var undefined = 0
        for _ in 0..<bootstrapResamples {
            var top = 0.0
            var bottom = 0.0
            for _ in 0..<n {
                let index = Int(random.next() % UInt64(n))
                top += numerators[index]
                bottom += denominators[index]
            }
            if bottom > 0 { ratios.append(top / bottom) } else { undefined += 1 }
        }
        ratios.sort()
        let (lowRank, highRank) = percentileRanks(count: bootstrapResamples)
        // The undefined resamples sit below every ratio for the low end, above for the high end.
        let low = lowRank < undefined ? -Double.infinity : ratios[lowRank - undefined]
        let high = highRank >= ratios.count ? Double.infinity : ratios[highRank]
        return low...high
    }

    /// The central ``confidence`` interval of sorted values (percentiles).
    static func percentileInterval(ofSorted sorted: [Double]) -> (Double, Double) {
        let (low, high) = percentileRanks(count: sorted.count)
        return (sorted[low], sorted[high])
    }

    /// The ranks (from 0) of the central ``confidence`` interval's ends among `count` sorted values.
    static func percentileRanks(count: Int) -> (low: Int, high: Int) {
        let tail = (1 - confidence) / 2
        let low = Int((tail * Double(count)).rounded(.down))
        let high = min(count - 1, Int(((1 - tail) * Double(count)).rounded(.down)))
        return (low, high)
    }

    /// The percentile-bootstrap interval of the mean of `values`.
    static func bootstrapInterval(_ values: [Double]) -> (Double, Double) {
        percentileInterval(ofSorted: bootstrapMeans(values))
    }

    /// Holm's step-down adjustment of `pValues` (Holm 1979, "A simple sequentially rejective
    /// multiple test procedure"): the i-th smallest p is multiplied by (m − i + 1), made monotone
    /// and capped at 1. Rejecting where the adjusted p is below α controls the family-wise error
    /// rate at α. The result is in the order of the input.
    ///
    /// - Complexity: O(m log m)
    public static func holm(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(m - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }

    /// The regularized incomplete beta function I_x(a, b) (continued fraction, modified Lentz;
    /// Press et al., Numerical Recipes, 3rd ed., §6.4).
    static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logBeta: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let logFront = logBeta + logPowers
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * betaContinuedFraction(x, a: a, b: b) / a
        }
        return 1 - exp(logFront) * betaContinuedFraction(1 - x, a: b, b: a) / b
    }

    private static func betaContinuedFraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for m in 1...300 {
            let m = Double(m)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + even * d
            if abs(d) < tiny { d = tiny }
            c = 1 + even / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + odd * d
            if abs(d) < tiny { d = tiny }
            c = 1 + odd / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            result *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return result
    }
}

/// A mean with its 95 % confidence interval: Student's t on n − 1 degrees of freedom, or, for
/// skewed values (see ``Statistics/skewnessForBootstrap``), a seeded percentile bootstrap.
public struct MeanInterval: Sendable, Hashable {
    /// The mean.
    public var mean: Double
    /// The lower end of the interval.
    public var low: Double
    /// The upper end of the interval.
    public var high: Double
    /// The number of samples.
    public var count: Int

    /// The interval of the mean of `values`; with one value, or values that do not vary, the
    /// interval is the mean itself.
    ///
    /// - Complexity: O(n)
    public init(_ values: [Double]) {
        mean = Statistics.mean(values)
        count = values.count
        let sd = Statistics.standardDeviation(values)
        guard values.count > 1, sd > 0 else {
            low = mean
            high = mean
            return
        }
        if values.count >= 10 && abs(Statistics.skewness(values)) > Statistics.skewnessForBootstrap {
            (low, high) = Statistics.bootstrapInterval(values)
            return
        }
        let t = Statistics.studentTQuantile(
            1 - (1 - Statistics.confidence) / 2, degreesOfFreedom: Double(values.count - 1))
        let half = t * sd / Double(values.count).squareRoot()
        low = mean - half
        high = mean + half
    }
}

/// The paired difference `policy − baseline` of one metric over the same samples.
public struct PairedDifference: Sendable, Hashable {
    /// How the interval and p-value were computed.
    public enum Method: String, Sendable {
        /// Student's paired t: the differences' mean ± t × standard error.
        case pairedT
        /// Percentile bootstrap of the mean difference (for skewed differences), seeded, so
        /// deterministic.
        case bootstrap
    }

    /// The mean of the per-sample differences.
    public var mean: Double
    /// The lower end of its 95 % interval.
    public var low: Double
    /// The upper end of its 95 % interval.
    public var high: Double
    /// The two-sided p-value of "no difference".
    public var p: Double
    /// The p-value after Holm's adjustment over every policy compared with the same baseline.
    public var adjustedP: Double
    /// How it was computed.
    public var method: Method

    /// Whether the data resolve the sign of the difference: the 95 % interval excludes zero and
    /// the Holm-adjusted p-value is below 5 %.
    public var isResolved: Bool { (low > 0 || high < 0) && adjustedP < 1 - Statistics.confidence }

    /// The difference of `values` and `baseline`, sample by sample (both in sample order);
    /// ``adjustedP`` starts equal to ``p``.
    ///
    /// - Complexity: O(n) for the t method; O(n × ``Statistics/bootstrapResamples``) for the bootstrap.
    public init(_ values: [Double], baseline: [Double]) {
        precondition(values.count == baseline.count, "paired samples need the same count")
        let differences = zip(values, baseline).map { $0 - $1 }
        let n = differences.count
        mean = Statistics.mean(differences)
        let sd = Statistics.standardDeviation(differences)
        guard n > 1, sd > 0 else {
            low = mean
            high = mean
            // Every difference is the same, so there is no t statistic. Under "no difference" the
            // chance that n differences all fall on one side is the exact sign test's 2 × 2^−n:
            // 0.5 for two samples, below 0.05 from six on (it was 0, which resolved two samples).
            p = n > 1 && mean != 0 ? Swift.min(1, 2 * Foundation.pow(0.5, Double(n))) : 1
            adjustedP = p
            method = .pairedT
            return
        }
        if n >= 10 && abs(Statistics.skewness(differences)) > Statistics.skewnessForBootstrap {
            method = .bootstrap
            let means = Statistics.bootstrapMeans(differences)
            (low, high) = Statistics.percentileInterval(ofSorted: means)
            let below = Double(means.count { $0 <= 0 })
            let above = Double(means.count { $0 >= 0 })
            p = min(1, max(2 * min(below, above), 1) / Double(means.count))
        } else {
            method = .pairedT
            let error = sd / Double(n).squareRoot()
            let df = Double(n - 1)
            let t = Statistics.studentTQuantile(1 - (1 - Statistics.confidence) / 2, degreesOfFreedom: df)
            low = mean - t * error
            high = mean + t * error
            let statistic = mean / error
            // Two-sided tail of Student's t: I_{df/(df+t²)}(df/2, 1/2).
            p = min(1, Statistics.regularizedIncompleteBeta(df / (df + statistic * statistic), a: df / 2, b: 0.5))
        }
        adjustedP = p
    }
}
