import Foundation

/// A log-normal distribution given the way people describe sizes: a median and a 99th percentile.
public struct LogNormal: Sendable, Hashable {
    /// The median (the 50th percentile).
    public var median: Double
    /// The 99th percentile; must be at least the median.
    public var p99: Double

    /// A distribution with that median and 99th percentile.
    ///
    /// - Complexity: O(1)
    public init(median: Double, p99: Double) {
        self.median = median
        self.p99 = p99
    }

    /// σ of the underlying normal: the 99th percentile is median × e^(2.3263 σ).
    var sigma: Double { p99 > median && median > 0 ? log(p99 / median) / 2.326_347_874 : 0 }

    /// One sample.
    ///
    /// - Complexity: O(1)
    public func sample<G: RandomNumberGenerator>(using random: inout G) -> Double {
        median * exp(sigma * StandardNormal.sample(using: &random))
    }
}

/// Standard normal samples (Box–Muller), from a caller's generator only.
enum StandardNormal {
    static func sample<G: RandomNumberGenerator>(using random: inout G) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let u2 = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

/// Zipf's law over ranks 1...n: rank k is chosen with probability proportional to 1 / k^s.
public struct Zipf: Sendable {
    /// The cumulative probabilities of ranks 1...n.
    private let cumulative: [Double]

    /// A Zipf distribution over `count` ranks with exponent `exponent`.
    ///
    /// - Complexity: O(count)
    public init(count: Int, exponent: Double) {
        var sums: [Double] = []
        sums.reserveCapacity(count)
        var total = 0.0
        for rank in 1...max(count, 1) {
            total += 1 / pow(Double(rank), exponent)
            sums.append(total)
        }
        cumulative = sums.map { $0 / total }
    }

    /// A rank in `0..<count` (0 is the most popular).
    ///
    /// - Complexity: O(log count)
    public func sample<G: RandomNumberGenerator>(using random: inout G) -> Int {
        let u = Double.random(in: 0..<1, using: &random)
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < u { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// Exponential waiting times (a Poisson process of a given rate).
enum Exponential {
    /// A waiting time for a process with `ratePerSecond` events per second.
    static func sample<G: RandomNumberGenerator>(ratePerSecond: Double, using random: inout G) -> Double {
        guard ratePerSecond > 0 else { return .infinity }
        return -log(Double.random(in: Double.ulpOfOne..<1, using: &random)) / ratePerSecond
    }
}
