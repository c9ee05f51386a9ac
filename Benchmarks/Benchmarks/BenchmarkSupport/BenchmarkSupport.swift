// What every benchmark executable of this package shares: the seeded generator's bounded draw,
// the size labels of benchmark names, and the warning printed when the package under test was
// built with its O(n) internal checks. A library target: the benchmark plugin only runs
// executable targets.

import Benchmark
import IndexedHeapModule
import MemoryPressure
import MemoryPressureSimulation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SeededGenerator {
    /// A value in `0..<bound` (bound > 0); the tiny modulo bias is irrelevant for benchmark inputs.
    @inlinable
    public mutating func next(below bound: Int) -> Int {
        Int(truncatingIfNeeded: next() % UInt64(bound))
    }
}

/// "1K", "10K", "100K", "1M": the size in benchmark names.
public func label(_ size: Int) -> String {
    size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1_000)K"
}

/// Writes a loud warning to stderr if the package was compiled with
/// `MEMORYPRESSURE_INTERNAL_CHECKS` (every mutation then checks every invariant in O(n), and the
/// figures mean nothing).
public func warnIfBuiltWithInternalChecks() {
    guard IndexedHeap<UInt64>._isInternalChecksEnabled else { return }
    var warning = """

        ****************************************************************************************
        WARNING: built with MEMORYPRESSURE_INTERNAL_CHECKS: every mutation checks every
        invariant in O(n). These figures are NOT representative. Rebuild without it.
        ****************************************************************************************


        """
    warning.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

extension Benchmark.Configuration {
    /// The configuration of the per-operation benchmarks: every iteration runs 1,000 operations
    /// (`scalingFactor: .kilo`), so figures are per operation; 2 warm-up iterations, then up to
    /// 2,000 iterations or 1 s.
    public static var perOperation: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal],
            timeUnits: .nanoseconds,
            warmupIterations: 2,
            scalingFactor: .kilo,
            maxDuration: .seconds(1),
            maxIterations: 2_000
        )
    }
}
