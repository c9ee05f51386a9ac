import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// The simulated pressure stall of a comparison's runs (`Metrics.pressureStall`), under the
/// policies that act on it: a section of the table and an object of the JSON, with PSI's names
/// (`some`, `full`, the window) and units (percent of the window, seconds of stall), as `watch`
/// prints the machine's. docs/metrics.md ("Pressure stall") defines the fields.
enum PressureStallReport {
    /// The figures of `runs` together: the mean per run of the seconds and crossings, the highest
    /// peak; `nil` when no run has figures.
    ///
    /// - Complexity: O(runs × thresholds)
    static func summary(_ runs: [SimulationRun]) -> PressureStallFigures? {
        let figures = runs.compactMap(\.metrics.pressureStall)
        guard var out = figures.first, !figures.isEmpty else { return nil }
        let count = Double(figures.count)
        let somes = figures.compactMap(\.someSeconds)
        out.someSeconds = somes.count == figures.count ? somes.reduce(0, +) / count : nil
        out.fullSeconds = figures.map(\.fullSeconds).reduce(0, +) / count
        for index in out.thresholds.indices {
            let all = figures.compactMap { index < $0.thresholds.count ? $0.thresholds[index] : nil }
            out.thresholds[index].secondsAbove = all.map(\.secondsAbove).reduce(0, +) / count
            out.thresholds[index].crossings = Int((Double(all.map(\.crossings).reduce(0, +)) / count).rounded())
            out.thresholds[index].peak = all.map(\.peak).max() ?? 0
        }
        out.someAveragePeaks = highest(figures.map(\.someAveragePeaks))
        out.fullAveragePeaks = highest(figures.map(\.fullAveragePeaks))
        return out
    }

    /// Each average's highest over `peaks` (every run's); `nil` when a run has none.
    private static func highest(_ peaks: [PressureStallAverages?]) -> PressureStallAverages? {
        let all = peaks.compactMap { $0 }
        guard all.count == peaks.count, let first = all.first else { return nil }
        return all.dropFirst().reduce(first) { $0.highest($1) }
    }

    /// The figures as a JSON object: `someSeconds` (absent where not modelled), `fullSeconds`,
    /// `peakAverages` (`some`, absent where not modelled, and `full`, each with PSI's `avg10`,
    /// `avg60` and `avg300`: the highest each reached), and `thresholds`, each with `stall`,
    /// `window`, `threshold` and `peak` (percent of the window), `secondsAbove` and `crossings`.
    ///
    /// - Complexity: O(thresholds)
    static func json(_ figures: PressureStallFigures) -> String {
        var out = "{"
        if let some = figures.someSeconds { out += "\"someSeconds\":\(ComparisonReport.number(some))," }
        out += "\"fullSeconds\":\(ComparisonReport.number(figures.fullSeconds)),"
        let peaks = [("some", figures.someAveragePeaks), ("full", figures.fullAveragePeaks)].compactMap { name, peaks in
            peaks.map { "\"\(name)\":" + Event.json($0) }
        }
        if !peaks.isEmpty { out += "\"peakAverages\":{" + peaks.joined(separator: ",") + "}," }
        out += "\"thresholds\":["
        out += figures.thresholds.map { threshold in
            "{\"stall\":\"\(threshold.stall.rawValue)\",\"window\":\(Event.json(threshold.window)),"
                + "\"threshold\":\(ComparisonReport.number(threshold.threshold)),"
                + "\"secondsAbove\":\(ComparisonReport.number(threshold.secondsAbove)),"
                + "\"crossings\":\(threshold.crossings),\"peak\":\(ComparisonReport.number(threshold.peak))}"
        }.joined(separator: ",")
        return out + "]}"
    }

    /// The table's section: one line per policy with figures (none: no section).
    ///
    /// - Complexity: O(runs × thresholds)
    static func table(_ comparison: Comparison) -> String {
        var lines: [String] = []
        for (index, policy) in comparison.policies.enumerated() {
            guard let figures = summary(comparison.runs[index]) else { continue }
            var line = "  \(policy): "
            var stall: [String] = []
            if let some = figures.someSeconds { stall.append("some \(ComparisonReport.format(some, decimals: 2)) s") }
            stall.append("full \(ComparisonReport.format(figures.fullSeconds, decimals: 2)) s")
            line += stall.joined(separator: ", ") + " of stall"
            for threshold in figures.thresholds {
                line +=
                    "; \(threshold.stall.rawValue) \(threshold.window) threshold \(EventLogText.percent(threshold.threshold)): "
                line += "\(ComparisonReport.format(threshold.secondsAbove, decimals: 2)) s above, "
                line += "\(threshold.crossings) crossing\(threshold.crossings == 1 ? "" : "s"), "
                line += "peak \(EventLogText.percent(threshold.peak))"
            }
            lines.append(line)
            // The averages' peaks as /proc/pressure/memory prints the averages.
            for (name, peaks) in [("some", figures.someAveragePeaks), ("full", figures.fullAveragePeaks)] {
                if let peaks { lines.append("    peak \(name) \(EventLogText.psi(peaks))") }
            }
        }
        guard !lines.isEmpty else { return "" }
        let samples = comparison.samples.count
        return "\npressure stall (simulated PSI\(samples > 1 ? "; mean per sample, highest peak" : "")):\n"
            + lines.joined(separator: "\n") + "\n"
    }
}
