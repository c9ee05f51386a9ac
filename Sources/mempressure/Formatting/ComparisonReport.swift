import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// A comparison (or a single simulation) as a table, JSON or CSV: every metric's mean with its
/// 95 % confidence interval, and the paired differences of every policy against a baseline.
struct ComparisonReport {
    let comparison: Comparison
    /// The baseline of the paired section (an index into the policies).
    let baseline: Int
    /// How the number of samples was chosen, when it was chosen sequentially.
    let sampling: SequentialSampling.Outcome?
    /// Hours of every sample replayed but not counted (0: none).
    let warmUpHours: Double

    /// A report of `comparison` with the given baseline (default: the real killer with the lowest
    /// mean launch wait).
    init(
        _ comparison: Comparison, baseline: Int? = nil, sampling: SequentialSampling.Outcome? = nil,
        warmUpHours: Double = 0
    ) {
        self.comparison = comparison
        self.baseline = baseline ?? comparison.baseline(named: nil) ?? 0
        self.sampling = sampling
        self.warmUpHours = warmUpHours
    }

    private var metrics: [MetricDefinition] { MetricDefinition.all }

    /// The rows of prewarming (`Prewarm`), which the table leaves out when no policy compared
    /// prewarmed: no shipped policy does (JSON and CSV carry every metric).
    static let prewarmKeys: Set<String> = ["prewarms", "prewarmsOpened", "prewarmSeconds"]

    /// Whether the table leaves `metric` out: a prewarming row, and no run prewarmed.
    private func hidesRow(_ metric: MetricDefinition) -> Bool {
        Self.prewarmKeys.contains(metric.key)
            && comparison.runs.allSatisfy { $0.allSatisfy { $0.metrics.prewarms == 0 } }
    }

    /// The metrics the table's paired section shows (JSON and CSV carry every metric).
    static let pairedKeys = ["launchWait", "coldRelaunchWait", "coldRelaunches", "kills", "foregroundKills"]

    /// A number with at most one decimal (none for whole numbers or from 1,000 up).
    static func format(_ value: Double) -> String { format(value, decimals: 1) }

    /// A number with at most `decimals` decimals, trailing zeros dropped (none from 1,000 up).
    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        if abs(value) >= 1000 { return String(Int64(value.rounded())) }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value * Double(scale)).rounded())
        let whole = String(scaled.magnitude / UInt64(scale))
        var fraction = String(scaled.magnitude % UInt64(scale))
        guard fraction != "0" else { return scaled < 0 ? "-" + whole : whole }
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (scaled < 0 ? "-" : "") + whole + "." + fraction
    }

    /// The most decimals a mean and its interval are shown with: enough for one event in 100,000
    /// samples (a mean of 0.00001).
    static let maximumDecimals = 5

    /// The decimals that a mean and the ends of its interval need so that none of them that is not
    /// zero reads as 0: one, or more for small values (`0.003 [0.001, 0.005]`, not `0 [0, 0]`,
    /// which would contradict a verdict of "better"), up to ``maximumDecimals``; all three are shown
    /// with the same number.
    static func decimals(_ values: Double...) -> Int {
        var decimals = 1
        for value in values where value.isFinite && value != 0 && abs(value) < 1 {
            while decimals < maximumDecimals, format(value, decimals: decimals) == "0" {
                decimals += 1
            }
        }
        return decimals
    }

    /// A mean and `[low, high]`, every figure with the decimals they need together (``decimals(_:)``);
    /// `signed` adds a `+` to positive figures, as for a difference.
    private static func shown(
        mean: Double, low: Double, high: Double, signed isSigned: Bool
    ) -> (mean: String, interval: String) {
        let places = decimals(mean, low, high)
        let text = { (value: Double) in isSigned ? signed(value, decimals: places) : format(value, decimals: places) }
        return (text(mean), "[\(text(low)), \(text(high))]")
    }

    /// `mean [low, high]`, every figure with the decimals they need together (``decimals(_:)``).
    static func interval(mean: Double, low: Double, high: Double) -> String {
        let figures = shown(mean: mean, low: low, high: high, signed: false)
        return "\(figures.mean) \(figures.interval)"
    }

    /// A metric's mean and interval, `12.5 [10.1, 14.9]`; the mean alone from fewer than two
    /// samples, which give no interval (``interval(mean:low:high:)``).
    static func interval(_ interval: MeanInterval) -> String {
        guard interval.count > 1 else { return format(interval.mean) }
        return Self.interval(mean: interval.mean, low: interval.low, high: interval.high)
    }

    /// `"low":…,"high":…`: an interval's ends in JSON; both `null` from fewer than two `samples`,
    /// which give no interval.
    static func jsonEnds(low: Double, high: Double, samples: Int) -> String {
        samples < 2 ? "\"low\":null,\"high\":null" : "\"low\":\(number(low)),\"high\":\(number(high))"
    }

    /// A metric's interval's ends in JSON (``jsonEnds(low:high:samples:)``).
    static func jsonEnds(_ interval: MeanInterval) -> String {
        jsonEnds(low: interval.low, high: interval.high, samples: interval.count)
    }

    /// A paired difference, `+0.3 [+0.1, +0.5]` (the mean and its interval; ``interval(mean:low:high:)``).
    static func signedInterval(_ difference: PairedDifference) -> (mean: String, interval: String) {
        shown(mean: difference.mean, low: difference.low, high: difference.high, signed: true)
    }

    /// A share's interval in percent, `[19.5, 91.8]`; an unbounded end is `−∞` or `∞`
    /// (``Statistics/bootstrapRatioInterval(_:_:)``).
    static func percentInterval(_ interval: ClosedRange<Double>) -> String {
        func end(_ value: Double) -> String { value.isFinite ? format(value * 100) : value < 0 ? "−∞" : "∞" }
        return "[\(end(interval.lowerBound)), \(end(interval.upperBound))]"
    }

    /// A signed number: `+1.5`, `-3`, `0`.
    static func signed(_ value: Double, decimals: Int = 1) -> String {
        let text = format(value, decimals: decimals)
        return value > 0 && text != "0" ? "+" + text : text
    }

    /// A p-value for people: `<0.001`, `0.004`, `0.62`, `1`.
    static func pValue(_ p: Double) -> String {
        if p < 0.001 { return "<0.001" }
        if p < 0.01 { return String((p * 1000).rounded() / 1000) }
        if p >= 1 { return "1" }
        return String((p * 100).rounded() / 100)
    }

    /// Whether the difference is in the metric's better direction, worse, or not resolved.
    static func verdict(_ difference: PairedDifference, for metric: MetricDefinition) -> String {
        guard difference.isResolved else { return "not resolved" }
        switch metric.better {
        case .lower: return difference.mean < 0 ? "better" : "worse"
        case .higher: return difference.mean > 0 ? "better" : "worse"
        case .neither: return difference.mean > 0 ? "higher" : "lower"
        }
    }

    /// One line saying what the samples are.
    private var header: String {
        let count = comparison.samples.count
        var out = "workload \(comparison.workload): \(comparison.device.memory.formatted) memory, "
        out += "\(comparison.device.reserved.formatted) reserved; \(count) sample\(count == 1 ? "" : "s")"
        if let first = comparison.samples.first, let last = comparison.samples.last, count > 1 {
            out += " (\(first) … \(last))"
        }
        out += "\n"
        if warmUpHours > 0 {
            out +=
                "metrics count from hour \(Event.number(warmUpHours)) of each sample: the hours before are replayed (a warm-up), not counted\n"
        }
        if let sampling { out += sampling.summary + "\n" }
        return out
    }

    /// Rows of metrics, a column per policy (`mean [low, high]`, `*` on the best mean), then the
    /// paired differences against the baseline.
    var table: String {
        let count = comparison.samples.count
        var out = header
        out +=
            count > 1
            ? "each cell: the mean per sample [its 95 % confidence interval]; * marks the best mean\n\n"
            : "* marks the best\n\n"
        var rows = [["METRIC"] + comparison.policies]
        for metric in metrics where !hidesRow(metric) {
            let intervals = comparison.intervals(of: metric)
            let best = comparison.best(for: metric)
            var row = [metric.name]
            for (index, interval) in intervals.enumerated() {
                var cell = metric.isDeterministic ? Self.interval(interval) : Self.format(interval.mean)
                cell += index == best ? " *" : "  "
                row.append(cell)
            }
            rows.append(row)
        }
        out += TextTable.render(rows, rightAligned: Set(1...comparison.policies.count))
        if let gaps = comparison.gapToOracleClosed(baseline: baseline), let reference = comparison.gapReference {
            let oracle = comparison.policies[reference]
            out +=
                "\nshare of the gap in mean launch wait from \(comparison.policies[baseline]) to \(oracle == Oracle.name ? "the oracle" : oracle) closed:\n  "
            let intervals = comparison.gapToOracleClosedIntervals(baseline: baseline)
            out +=
                comparison.policies.indices.map { index in
                    var share = "\(comparison.policies[index]) \(Self.format(gaps[index] * 100)) %"
                    if let interval = intervals?[index] { share += " " + Self.percentInterval(interval) }
                    return share
                }
                .joined(separator: ", ") + "\n"
        }
        if comparison.policies.count > 1 && count > 1 { out += "\n" + pairedTable }
        out += "\nkills by reason (all samples):\n"
        for (policyIndex, policy) in comparison.policies.enumerated() {
            var totals: [String: Int] = [:]
            for run in comparison.runs[policyIndex] {
                for (reason, count) in run.metrics.killsByReason { totals[reason, default: 0] += count }
            }
            let parts = totals.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) ×\($0.value)" }
            out += "  \(policy): " + (parts.isEmpty ? "none" : parts.joined(separator: ", ")) + "\n"
        }
        out += PressureStallReport.table(comparison)
        out += "\nengine events/s and ns/decision are wall-clock measurements; every other figure is deterministic.\n"
        return out
    }

    /// The paired section of the table.
    private var pairedTable: String {
        let name = comparison.policies[baseline]
        let others = comparison.policies.count - 1
        var out = "paired differences: policy − \(name) on the same \(comparison.samples.count) samples, "
        out += "mean [95 % interval]; p-values Holm-adjusted over \(others) polic\(others == 1 ? "y" : "ies").\n"
        out += "\"better\" or \"worse\" only where the interval excludes 0 and the adjusted p < 0.05.\n\n"
        var rows = [["METRIC", "POLICY", "DIFFERENCE", "95 % INTERVAL", "HOLM p", "VERDICT"]]
        for key in Self.pairedKeys {
            guard let metric = MetricDefinition.named(key) else { continue }
            let differences = comparison.pairedDifferences(of: metric, baseline: baseline)
            var first = true
            for (index, difference) in differences.enumerated() {
                guard let difference else { continue }
                let shown = Self.signedInterval(difference)
                rows.append([
                    first ? metric.name.trimmingLeadingSpaces : "", comparison.policies[index],
                    shown.mean, shown.interval,
                    Self.pValue(difference.adjustedP), Self.verdict(difference, for: metric),
                ])
                first = false
            }
        }
        return out + TextTable.render(rows, rightAligned: [2, 3, 4])
    }

    /// Every metric's interval per policy, the paired differences against the baseline, and every
    /// sample's values, so anyone can redo the statistics.
    var json: String {
        var out = "{\"workload\":\(Event.json(comparison.workload)),"
        out +=
            "\"device\":{\"memory\":\(comparison.device.memory.value),\"reserved\":\(comparison.device.reserved.value)},"
        out += "\"samples\":[\(comparison.samples.map { Event.json($0) }.joined(separator: ","))],"
        out += "\"confidence\":\(Statistics.confidence),\"baseline\":\(Event.json(comparison.policies[baseline])),"
        if warmUpHours > 0 { out += "\"warmUpHours\":\(Self.number(warmUpHours))," }
        if let sampling {
            out +=
                "\"sampling\":{\"resolve\":\(Self.number(sampling.rule.resolve)),\"looks\":[\(sampling.sizes.map(String.init).joined(separator: ","))],"
            out += "\"maximum\":\(sampling.rule.maximum),\"earlyLevel\":\(Self.number(sampling.rule.earlyLevel)),"
            out +=
                "\"settled\":\(sampling.settled),\"unsettled\":[\(sampling.unsettled.map { Event.json($0) }.joined(separator: ","))]},"
        }
        let differences = metrics.map { comparison.pairedDifferences(of: $0, baseline: baseline) }
        let intervals = metrics.map { comparison.intervals(of: $0) }
        let bests = metrics.map { comparison.best(for: $0) }
        let gaps = comparison.gapToOracleClosed(baseline: baseline)
        let gapIntervals = comparison.gapToOracleClosedIntervals(baseline: baseline)
        var policies: [String] = []
        for (index, name) in comparison.policies.enumerated() {
            var item = "{\"name\":\(Event.json(name)),"
            if let gaps { item += "\"gapToOracleClosed\":\(Self.number(gaps[index]))," }
            if let interval = gapIntervals?[index] {
                item +=
                    "\"gapToOracleClosedInterval\":[\(Self.number(interval.lowerBound)),\(Self.number(interval.upperBound))],"
            }
            item += "\"metrics\":{"
            item += metrics.indices.map { position in
                let interval = intervals[position][index]
                return "\"\(metrics[position].key)\":" + Self.json(interval, best: bests[position] == index)
            }.joined(separator: ",")
            item += "}"
            if index != baseline {
                item += ",\"paired\":{"
                item += metrics.indices.compactMap { position -> String? in
                    guard let difference = differences[position][index] else { return nil }
                    return "\"\(metrics[position].key)\":"
                        + Self.json(difference, for: metrics[position], samples: comparison.samples.count)
                }.joined(separator: ",")
                item += "}"
            }
            if let stall = PressureStallReport.summary(comparison.runs[index]) {
                item += ",\"pressureStall\":" + PressureStallReport.json(stall)
            }
            item += ",\"runs\":["
            item += comparison.runs[index].enumerated().map { sample, run in
                var fields = "{\"sample\":\(Event.json(comparison.samples[sample]))"
                for metric in metrics { fields += ",\"\(metric.key)\":\(Self.number(metric.value(run.metrics)))" }
                let reasons = run.metrics.killsByReason.sorted { $0.key < $1.key }
                    .map { "\(Event.json($0.key)):\($0.value)" }.joined(separator: ",")
                fields += ",\"killsByReason\":{\(reasons)}"
                if let stall = run.metrics.pressureStall {
                    fields += ",\"pressureStall\":" + PressureStallReport.json(stall)
                }
                return fields + "}"
            }.joined(separator: ",")
            policies.append(item + "]}")
        }
        return out + "\"policies\":[" + policies.joined(separator: ",") + "]}\n"
    }

    /// Tidy rows `policy,metric,statistic,sample,value`: every sample's `value`; with an oracle,
    /// each policy's `gapToOracleClosed` of launch wait and, where it is a ratio,
    /// `gapToOracleClosedLow` and `gapToOracleClosedHigh`; then per policy and metric the `mean`,
    /// `low` and `high` of its interval, and against the baseline the `difference`,
    /// `differenceLow`, `differenceHigh` and `adjustedP` (no interval's ends from one sample).
    var csv: String {
        var out = "policy,metric,statistic,sample,value\n"
        for (index, name) in comparison.policies.enumerated() {
            let policy = KillOrderReport.csvField(name)
            for metric in metrics {
                for (sample, value) in comparison.values(of: metric, policy: index).enumerated() {
                    out += "\(policy),\(metric.key),value,\(KillOrderReport.csvField(comparison.samples[sample])),"
                    out += "\(Self.number(value))\n"
                }
            }
        }
        if let gaps = comparison.gapToOracleClosed(baseline: baseline) {
            let intervals = comparison.gapToOracleClosedIntervals(baseline: baseline)
            out += Self.csvGapRows(lead: "", policies: comparison.policies, gaps, intervals)
        }
        for metric in metrics {
            let intervals = comparison.intervals(of: metric)
            let differences = comparison.pairedDifferences(of: metric, baseline: baseline)
            for (index, name) in comparison.policies.enumerated() {
                let policy = KillOrderReport.csvField(name)
                out += Self.csvRows(lead: "\(policy),\(metric.key)", intervals[index], differences[index])
            }
        }
        return out
    }

    /// The CSV rows of the share of the gap each policy closes, and its interval, in compare's and
    /// sweep's CSV: `lead` (the columns before the policy, if any), then `policy,launchWait,
    /// gapToOracleClosed,,share` and, where there is an interval, its low and high ends (an unbounded
    /// end has no row).
    static func csvGapRows(lead: String, policies: [String], _ gaps: [Double], _ intervals: [ClosedRange<Double>?]?)
        -> String
    {
        var out = ""
        for (index, name) in policies.enumerated() {
            let policy = lead + KillOrderReport.csvField(name)
            out += "\(policy),launchWait,gapToOracleClosed,,\(number(gaps[index]))\n"
            // An unbounded end has no row.
            if let interval = intervals?[index] {
                if interval.lowerBound.isFinite {
                    out += "\(policy),launchWait,gapToOracleClosedLow,,\(number(interval.lowerBound))\n"
                }
                if interval.upperBound.isFinite {
                    out += "\(policy),launchWait,gapToOracleClosedHigh,,\(number(interval.upperBound))\n"
                }
            }
        }
        return out
    }

    /// The CSV rows of one metric of one policy, in compare's and sweep's CSV: `lead` (the
    /// policy and metric columns, and any before them), then `mean`, `low`, `high` and, with a
    /// paired difference, `difference`, `differenceLow`, `differenceHigh` and `adjustedP`; no
    /// interval's ends from fewer than two samples, which give no interval.
    static func csvRows(lead: String, _ interval: MeanInterval, _ difference: PairedDifference?) -> String {
        var out = "\(lead),mean,,\(number(interval.mean))\n"
        if interval.count > 1 {
            out += "\(lead),low,,\(number(interval.low))\n"
            out += "\(lead),high,,\(number(interval.high))\n"
        }
        if let difference {
            out += "\(lead),difference,,\(number(difference.mean))\n"
            if interval.count > 1 {
                out += "\(lead),differenceLow,,\(number(difference.low))\n"
                out += "\(lead),differenceHigh,,\(number(difference.high))\n"
            }
            out += "\(lead),adjustedP,,\(probability(difference.adjustedP))\n"
        }
        return out
    }

    /// `{"mean":…,"low":…,"high":…,"best":…}`: one metric of one policy, in compare's and sweep's JSON
    /// (``jsonEnds(_:)``).
    static func json(_ interval: MeanInterval, best: Bool) -> String {
        "{\"mean\":\(number(interval.mean)),\(jsonEnds(interval)),\"best\":\(best)}"
    }

    /// `{"difference":…,"low":…,"high":…,"p":…,"adjustedP":…,"method":…,"resolved":…,"verdict":…}`:
    /// one paired difference against the baseline, in compare's and sweep's JSON (`low` and `high`
    /// are `null` from fewer than two `samples`: ``jsonEnds(low:high:samples:)``).
    static func json(_ difference: PairedDifference, for metric: MetricDefinition, samples: Int) -> String {
        let ends = jsonEnds(low: difference.low, high: difference.high, samples: samples)
        return "{\"difference\":\(number(difference.mean)),\(ends),\"p\":\(probability(difference.p)),"
            + "\"adjustedP\":\(probability(difference.adjustedP)),\"method\":\"\(difference.method.rawValue)\","
            + "\"resolved\":\(difference.isResolved),\"verdict\":\"\(verdict(difference, for: metric))\"}"
    }

    /// A JSON number: integers without a decimal point, others with up to 3 decimals.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String((value * 1000).rounded() / 1000)
    }

    /// A probability with 6 significant decimals (p-values can be tiny).
    static func probability(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == 0 || value == 1 { return String(Int(value)) }
        return String((value * 1e6).rounded() / 1e6)
    }
}

extension String {
    /// The text without its leading spaces (indented sub-metric names).
    fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
