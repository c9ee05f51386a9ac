/// PSI's running averages of one stall, as `/proc/pressure/memory` prints them on a `some` or
/// `full` line (`avg10=… avg60=… avg300=…`): the share of time stalled, in percent with two
/// decimals, averaged over about 10 s, 60 s and 300 s by kernel/sched/psi.c's `calc_avgs()`.
/// The simulator computes them from its own stall model, in the kernel's fixed-point arithmetic
/// (docs/metrics.md, "Pressure stall").
public struct PressureStallAverages: Sendable, Hashable {
    /// The 10-second average, in percent (`avg10`, the figure systemd-oomd reads).
    public var avg10: Double
    /// The 60-second average, in percent (`avg60`).
    public var avg60: Double
    /// The 300-second average, in percent (`avg300`).
    public var avg300: Double

    /// Averages from their parts, in percent.
    ///
    /// - Complexity: O(1)
    public init(avg10: Double, avg60: Double, avg300: Double) {
        self.avg10 = avg10
        self.avg60 = avg60
        self.avg300 = avg300
    }

    /// All three at 0: no stall yet.
    public static let zero = PressureStallAverages(avg10: 0, avg60: 0, avg300: 0)

    /// The higher of each average of these and `other`'s.
    ///
    /// - Complexity: O(1)
    public func highest(_ other: PressureStallAverages) -> PressureStallAverages {
        PressureStallAverages(
            avg10: Swift.max(avg10, other.avg10), avg60: Swift.max(avg60, other.avg60),
            avg300: Swift.max(avg300, other.avg300))
    }
}
