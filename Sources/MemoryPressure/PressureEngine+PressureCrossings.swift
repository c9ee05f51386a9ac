// The simulated pressure stall made visible: crossings of the policy's thresholds in the event log
// (Event.Kind.pressure), and the stall's figures over a run (PressureStallFigures), for lmkd's PSI
// triggers (Policy.psi) and systemd-oomd's limit (Policy.memoryPressureLimit).

extension PressureEngine {
    /// The stall's figures since the engine started (peaks since ``restartPressureStallPeaks()``),
    /// with a threshold the stall is above now counted up to ``now`` (lmkd's: up to its window's
    /// end) and the averages' peaks up to the last update (every 2 s) at or before ``now``; `nil`
    /// under a policy with neither ``Policy/psi`` nor ``Policy/memoryPressureLimit``.
    ///
    /// - Complexity: O(1): at most about 1,300 updates of the averages since the last action.
    public var pressureStallFigures: PressureStallFigures? {
        if var books = pressureStall {
            books.clock.advance(to: now, stalled: false)
            let rule = books.rule
            let windowEnd = Swift.min(now, books.windowStart + rule.windowSeconds)
            let open = { (since: Double?) in since.map { Swift.max(0, windowEnd - $0) } ?? 0 }
            return PressureStallFigures(
                someSeconds: books.someTotal, fullSeconds: books.fullTotal,
                thresholds: [
                    .init(
                        stall: .some, window: lmkdWindowName, threshold: lmkdThreshold(rule.partialStallMs),
                        secondsAbove: books.someSecondsAbove + open(books.someAboveSince),
                        crossings: books.someCrossings, peak: books.somePeak),
                    .init(
                        stall: .full, window: lmkdWindowName, threshold: lmkdThreshold(rule.completeStallMs),
                        secondsAbove: books.fullSecondsAbove + open(books.fullAboveSince),
                        crossings: books.fullCrossings, peak: books.fullPeak),
                ], someAveragePeaks: books.clock.some?.peaks.printed, fullAveragePeaks: books.clock.full.peaks.printed)
        }
        if let books = memoryPressureLimit {
            let open = books.aboveSince.map { Swift.max(0, now - $0) } ?? 0
            return PressureStallFigures(
                someSeconds: nil, fullSeconds: books.fullTotal,
                thresholds: [
                    .init(
                        stall: .full, window: "avg10", threshold: books.rule.limitPercent,
                        secondsAbove: books.secondsAbove + open, crossings: books.crossings,
                        peak: Double(PressureStallAverager.hundredths(of: books.clock.full.peaks.avg10)) / 100)
                ], fullAveragePeaks: books.clock.full.peaks.printed)
        }
        return nil
    }

    /// Starts the peaks of ``pressureStallFigures`` again from the figures now: for a run whose
    /// counting starts after a warm-up.
    ///
    /// - Complexity: O(1): at most about 1,300 updates of the averages since the last action.
    public func restartPressureStallPeaks() {
        if let books = pressureStall {
            pressureStall!.somePeak = lmkdPercent(books.some, books)
            pressureStall!.fullPeak = lmkdPercent(books.full, books)
            pressureStall!.clock.advance(to: now, stalled: false)
            pressureStall!.clock.restartPeaks()
        }
        // oomd's books are brought up to every action's time by the action itself.
        if memoryPressureLimit != nil { memoryPressureLimit!.clock.restartPeaks() }
    }

    /// The running averages of the stall as PSI prints them (`some`, `full`), from `clock`.
    private static func averages(_ clock: PressureStallClock) -> (
        some: PressureStallAverages?, full: PressureStallAverages
    ) {
        (clock.some?.averages.printed, clock.full.averages.printed)
    }

    /// lmkd's window as PSI names a trigger's: its length, `1s`.
    private var lmkdWindowName: String { Self.seconds(pressureStall!.rule.windowSeconds) }

    /// An lmkd threshold in milliseconds as a share of its window, in percent.
    private func lmkdThreshold(_ milliseconds: Double) -> Double {
        milliseconds / (pressureStall!.rule.windowSeconds * 10)
    }

    /// Logs a crossing of the lmkd trigger of `stall` at `milliseconds` in its window.
    private func logLmkdCrossing(
        _ stall: PressureCrossing.Stall, percent: Double, milliseconds: Double, _ direction: PressureCrossing.Direction,
        total: Double
    ) {
        // The averages as of the last update at or before now, before any stall this action adds.
        pressureStall!.clock.advance(to: now, stalled: false)
        let averages = Self.averages(pressureStall!.clock)
        log(
            .pressure(
                PressureCrossing(
                    stall: stall, window: lmkdWindowName, percent: percent, threshold: lmkdThreshold(milliseconds),
                    direction: direction, total: total, someAverages: averages.some, fullAverages: averages.full)))
    }

    /// A window's stall in seconds as a share of the window, in percent (at most 100).
    private func lmkdPercent(_ seconds: Double, _ books: PressureStallBooks) -> Double {
        Swift.min(100, seconds / books.rule.windowSeconds * 100)
    }

    /// At lmkd's wake-up: logs an up-crossing of each trigger the window's stall has reached
    /// (`psi_partial_stall_ms` for "some", `psi_complete_stall_ms` for "full"), and keeps the peaks.
    func notePressureStallCrossings() {
        let books = pressureStall!
        let rule = books.rule
        let some = lmkdPercent(books.some, books)
        let full = lmkdPercent(books.full, books)
        pressureStall!.somePeak = Swift.max(books.somePeak, some)
        pressureStall!.fullPeak = Swift.max(books.fullPeak, full)
        if books.someAboveSince == nil && books.some * 1000 >= rule.partialStallMs {
            pressureStall!.someAboveSince = now
            pressureStall!.someCrossings += 1
            logLmkdCrossing(.some, percent: some, milliseconds: rule.partialStallMs, .up, total: books.someTotal)
        }
        if books.fullAboveSince == nil && books.full * 1000 >= rule.completeStallMs {
            pressureStall!.fullAboveSince = now
            pressureStall!.fullCrossings += 1
            logLmkdCrossing(.full, percent: full, milliseconds: rule.completeStallMs, .up, total: books.fullTotal)
        }
    }

    /// Once the window of a fired trigger is over: logs its down-crossing (the new window's stall
    /// starts from 0) and counts its time above up to the window's end. Called at the first action
    /// after the window's end and wherever the window rolls; it changes nothing lmkd decides on.
    ///
    /// - Complexity: O(1)
    func closePressureStallCrossings() {
        guard let books = pressureStall, books.someAboveSince != nil || books.fullAboveSince != nil else { return }
        let rule = books.rule
        let end = books.windowStart + rule.windowSeconds
        guard now >= end else { return }
        if let since = books.someAboveSince {
            pressureStall!.someSecondsAbove += Swift.max(0, end - since)
            pressureStall!.someAboveSince = nil
            logLmkdCrossing(.some, percent: 0, milliseconds: rule.partialStallMs, .down, total: books.someTotal)
        }
        if let since = books.fullAboveSince {
            pressureStall!.fullSecondsAbove += Swift.max(0, end - since)
            pressureStall!.fullAboveSince = nil
            logLmkdCrossing(.full, percent: 0, milliseconds: rule.completeStallMs, .down, total: books.fullTotal)
        }
    }

    /// At oomd's check at `check`: logs a crossing of its limit by the "full" stall's `avg10`
    /// (above: `oomd_pressure_above()`), at the check's time, and counts the time above.
    func noteMemoryPressureCrossing(at check: Double) {
        let books = memoryPressureLimit!
        let above = books.isAboveLimit
        guard above != (books.aboveSince != nil) else { return }
        let time = Swift.max(now, check)
        if above {
            memoryPressureLimit!.aboveSince = time
            memoryPressureLimit!.crossings += 1
        } else {
            memoryPressureLimit!.secondsAbove += Swift.max(0, time - books.aboveSince!)
            memoryPressureLimit!.aboveSince = nil
        }
        log(
            .pressure(
                PressureCrossing(
                    stall: .full, window: "avg10", percent: Double(books.average10Hundredths) / 100,
                    threshold: books.rule.limitPercent, direction: above ? .up : .down, total: books.fullTotal,
                    fullAverages: Self.averages(books.clock).full)),
            at: time)
    }
}
