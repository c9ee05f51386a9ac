// kernel/sched/psi.c's running averages in the kernel's own arithmetic: calc_avgs() over
// calc_load() (include/linux/sched/loadavg.h) and calc_load_n() with fixed_power_int()
// (kernel/sched/loadavg.c). One implementation, shared by lmkd's PSI mode and systemd-oomd's rule
// (PressureStallClock).

/// The three running averages of one PSI stall state (`group->avg[s]` in kernel/sched/psi.c):
/// percent × `FIXED_1`, updated every `PSI_FREQ` (2 s) by `calc_avgs()`.
package struct PressureStallAverager: Sendable, Hashable {
    /// `FIXED_1` (include/linux/sched/loadavg.h): 1.0 in fixed point, `FSHIFT` = 11 fractional bits.
    package static let fixedOne: UInt64 = 1 << 11
    /// `EXP_10s` (kernel/sched/psi.c): 1 / exp(2 s / 10 s) in `FIXED_1` units.
    package static let exp10s: UInt64 = 1677
    /// `EXP_60s`: 1 / exp(2 s / 60 s).
    package static let exp60s: UInt64 = 1981
    /// `EXP_300s`: 1 / exp(2 s / 300 s).
    package static let exp300s: UInt64 = 2034

    /// `avg[0]`: the 10-second average, percent × `FIXED_1`.
    package var avg10: UInt64 = 0
    /// `avg[1]`: the 60-second average.
    package var avg60: UInt64 = 0
    /// `avg[2]`: the 300-second average.
    package var avg300: UInt64 = 0

    /// Averages at 0, as a PSI group starts.
    ///
    /// - Complexity: O(1)
    package init() {}

    /// Averages from their fixed-point values.
    ///
    /// - Complexity: O(1)
    package init(avg10: UInt64, avg60: UInt64, avg300: UInt64) {
        self.avg10 = avg10
        self.avg60 = avg60
        self.avg300 = avg300
    }

    /// `calc_load()` (include/linux/sched/loadavg.h): one update of `load` towards `active`
    /// (both × `FIXED_1`) with the decay `exp`, rounded up while it rises:
    /// `(load × exp + active × (FIXED_1 − exp) [+ FIXED_1 − 1]) / FIXED_1`.
    ///
    /// - Complexity: O(1)
    @inline(__always)
    package static func calcLoad(_ load: UInt64, exp: UInt64, active: UInt64) -> UInt64 {
        var next = load &* exp &+ active &* (fixedOne - exp)
        if active >= load { next &+= fixedOne - 1 }
        return next / fixedOne
    }

    /// `fixed_power_int()` (kernel/sched/loadavg.c): `x`ⁿ in `FSHIFT` fixed point, by squaring,
    /// each product rounded to nearest.
    ///
    /// - Complexity: O(log n)
    package static func fixedPowerInt(_ x: UInt64, _ n: Int) -> UInt64 {
        var x = x
        var n = n
        var result = fixedOne
        let half = fixedOne / 2
        while n > 0 {
            if n & 1 == 1 { result = (result &* x &+ half) >> 11 }
            n >>= 1
            if n == 0 { break }
            x = (x &* x &+ half) >> 11
        }
        return result
    }

    /// `calc_load_n()` (kernel/sched/loadavg.c): `n` updates towards `active` at once, as one
    /// `calc_load()` with the decay `fixed_power_int(exp, n)`.
    ///
    /// - Complexity: O(log n)
    package static func calcLoadN(_ load: UInt64, exp: UInt64, active: UInt64, periods n: Int) -> UInt64 {
        calcLoad(load, exp: fixedPowerInt(exp, n), active: active)
    }

    /// `calc_avgs()` (kernel/sched/psi.c): the `missedPeriods` periods the averaging clock was
    /// stopped for (an idle group: `psi_avgs_work()` re-arms only while tasks run) decay towards 0
    /// by `calc_load_n()`, then the period just ended, stalled `percent` (the integer
    /// `time × 100 / period`), is folded in by `calc_load()`.
    ///
    /// - Complexity: O(log missedPeriods)
    package mutating func calcAvgs(missedPeriods: Int = 0, percent: UInt64) {
        if missedPeriods > 0 {
            avg10 = Self.calcLoadN(avg10, exp: Self.exp10s, active: 0, periods: missedPeriods)
            avg60 = Self.calcLoadN(avg60, exp: Self.exp60s, active: 0, periods: missedPeriods)
            avg300 = Self.calcLoadN(avg300, exp: Self.exp300s, active: 0, periods: missedPeriods)
        }
        let active = percent &* Self.fixedOne
        avg10 = Self.calcLoad(avg10, exp: Self.exp10s, active: active)
        avg60 = Self.calcLoad(avg60, exp: Self.exp60s, active: active)
        avg300 = Self.calcLoad(avg300, exp: Self.exp300s, active: active)
    }

    /// `periods` updates by `calc_avgs()` of periods alike, each stalled `percent`, with the
    /// averaging clock running (no missed period): each average is updated until it no longer
    /// moves (`calc_load()` has a fixed point), so a long stretch costs no more than settling.
    ///
    /// - Complexity: O(min(periods, the updates to settle)): at most about 70 for `avg10`, 400 for
    ///   `avg60` and 1,300 for `avg300`.
    package mutating func calcAvgs(alikePeriods periods: Int, percent: UInt64) {
        let active = percent &* Self.fixedOne
        avg10 = Self.settle(avg10, exp: Self.exp10s, active: active, periods: periods)
        avg60 = Self.settle(avg60, exp: Self.exp60s, active: active, periods: periods)
        avg300 = Self.settle(avg300, exp: Self.exp300s, active: active, periods: periods)
    }

    /// `load` after `periods` updates towards `active`, stopping once an update leaves it unchanged.
    private static func settle(_ load: UInt64, exp: UInt64, active: UInt64, periods: Int) -> UInt64 {
        var load = load
        var updates = 0
        while updates < periods {
            let next = calcLoad(load, exp: exp, active: active)
            if next == load { break }
            load = next
            updates += 1
        }
        return load
    }

    /// The higher of each average of these and `other`'s.
    ///
    /// - Complexity: O(1)
    package func highest(_ other: PressureStallAverager) -> PressureStallAverager {
        PressureStallAverager(
            avg10: Swift.max(avg10, other.avg10), avg60: Swift.max(avg60, other.avg60),
            avg300: Swift.max(avg300, other.avg300))
    }

    /// An average in hundredths of a percent, as `/proc/pressure/memory` prints it:
    /// `LOAD_INT(avg)`.`LOAD_FRAC(avg)` (include/linux/sched/loadavg.h), two decimals, floored.
    ///
    /// - Complexity: O(1)
    package static func hundredths(of average: UInt64) -> Int {
        Int(average >> 11) * 100 + Int(((average & (fixedOne - 1)) * 100) >> 11)
    }

    /// The averages as `/proc/pressure/memory` prints them, in percent with two decimals.
    ///
    /// - Complexity: O(1)
    package var printed: PressureStallAverages {
        PressureStallAverages(
            avg10: Double(Self.hundredths(of: avg10)) / 100, avg60: Double(Self.hundredths(of: avg60)) / 100,
            avg300: Double(Self.hundredths(of: avg300)) / 100)
    }
}
