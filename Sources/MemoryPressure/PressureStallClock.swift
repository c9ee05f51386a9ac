// The simulated PSI group: seconds of "some" and "full" stall (the kernel's total[PSI_AVGS]) and
// their running averages, brought up to a time as kernel/sched/psi.c's update_averages() does
// every PSI_FREQ. Shared by lmkd's PSI mode (PressureStallBooks) and systemd-oomd's rule
// (MemoryPressureLimitBooks).

/// The engine's PSI group for memory: the stall of each state it models, averaged every 2 s.
struct PressureStallClock {
    /// `PSI_FREQ` (kernel/sched/psi.c): the averages are updated every 2 s (2 × HZ + 1 jiffies).
    static let period = 2.0

    /// One stall state: its seconds, the part of them averaged, its averages and their peaks.
    struct Track {
        /// Seconds of stall since the engine started (`total[PSI_AVGS][s]`).
        var total = 0.0
        /// The part of ``total`` already averaged (`avg_total[s]`).
        var averagedTotal = 0.0
        /// The running averages (`avg[s]`).
        var averages = PressureStallAverager()
        /// The highest each average reached since the peaks last restarted.
        var peaks = PressureStallAverager()

        /// `update_averages()` for this state at a period's end: the stall not yet averaged,
        /// capped at the period (the excess carried into the next), as an integer percentage.
        mutating func samplePeriod() {
            let sample = Swift.min(total - averagedTotal, PressureStallClock.period)
            averagedTotal += sample
            averages.calcAvgs(percent: UInt64((sample * 100 / PressureStallClock.period).rounded(.down)))
            peaks = peaks.highest(averages)
        }

        /// Whether stall is left to average (a sample past a period's length, carried over).
        var hasUnaveraged: Bool { total - averagedTotal >= 1e-9 }
    }

    /// The "some" stall; `nil` where the policy's model has none (systemd-oomd's counts "full" only).
    var some: Track?
    /// The "full" stall.
    var full = Track()
    /// The time the stall is counted through.
    var accountedThrough = 0.0
    /// When the averages are next updated (`avg_next_update`).
    var nextPeriod = PressureStallClock.period

    init(modelsSome: Bool) {
        some = modelsSome ? Track() : nil
    }

    /// Whether stall is left to average in any state.
    var hasUnaveraged: Bool { full.hasUnaveraged || (some?.hasUnaveraged ?? false) }

    /// Counts the time from ``accountedThrough`` to `time` as stall of every state if `stalled`.
    mutating func accrue(to time: Double, stalled: Bool) {
        guard time > accountedThrough else { return }
        if stalled {
            full.total += time - accountedThrough
            some?.total += time - accountedThrough
        }
        accountedThrough = time
    }

    /// Brings the stall and the averages up to `time`, every state stalled throughout if
    /// `stalled`: `update_averages()` at every period boundary, with the averaging clock running
    /// (the simulated device is never idle: no missed period). Once nothing is carried over, the
    /// periods up to `time` are alike — wholly stalled or not at all — and each average moves
    /// only until it settles (`PressureStallAverager.calcAvgs(alikePeriods:percent:)`); the
    /// rest of the stretch is counted at once.
    ///
    /// - Complexity: O(periods with stall carried over) + O(min(periods, about 1,300)) per state.
    mutating func advance(to time: Double, stalled: Bool) {
        while nextPeriod <= time {
            accrue(to: nextPeriod, stalled: stalled)
            full.samplePeriod()
            some?.samplePeriod()
            nextPeriod += Self.period
            guard nextPeriod <= time, !hasUnaveraged else { continue }
            let alike = Int(((time - nextPeriod) / Self.period).rounded(.down)) + 1
            let percent: UInt64 = stalled ? 100 : 0
            full.averages.calcAvgs(alikePeriods: alike, percent: percent)
            full.peaks = full.peaks.highest(full.averages)
            some?.averages.calcAvgs(alikePeriods: alike, percent: percent)
            if let averages = some?.averages { some!.peaks = some!.peaks.highest(averages) }
            let span = Double(alike) * Self.period
            accrue(to: accountedThrough + span, stalled: stalled)
            full.averagedTotal += stalled ? span : 0
            some?.averagedTotal += stalled ? span : 0
            nextPeriod += span
        }
        accrue(to: time, stalled: stalled)
    }

    /// Starts the peaks again from the averages now.
    mutating func restartPeaks() {
        full.peaks = full.averages
        if let averages = some?.averages { some!.peaks = averages }
    }
}
