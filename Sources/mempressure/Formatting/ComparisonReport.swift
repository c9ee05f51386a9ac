import MemoryPressure
import MemoryPressureSimulation

/// A comparison (or a single simulation) as a table, JSON or CSV.
struct ComparisonReport {
    let comparison: Comparison

    init(_ comparison: Comparison) {
        self.comparison = comparison
    }

    private var metrics: [MetricDefinition] { MetricDefinition.all }

    /// A number with at most one decimal (none for whole numbers), thousands grouped with a thin space-free comma.
    static func format(_ value: Double) -> String {
        if abs(value) >= 1000 { return String(Int64(value.rounded())) }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }

    /// Rows of metrics, a column per policy: `mean ± spread`, `*` on the best.
    var table: String {
        let seedCount = comparison.seeds.count
        var out = "workload \(comparison.workload): \(comparison.device.memory.formatted) memory, "
        out += "\(comparison.device.reserved.formatted) reserved; \(seedCount) trace\(seedCount == 1 ? "" : "s")"
        out += seedCount > 1 ? " (mean ± standard deviation; * best)\n\n" : " (* best)\n\n"
        var rows = [["METRIC"] + comparison.policies]
        for metric in metrics {
            let summaries = comparison.summaries(of: metric)
            let best = comparison.best(for: metric)
            var row = [metric.name]
            for (index, summary) in summaries.enumerated() {
                var cell = Self.format(summary.mean)
                if seedCount > 1 { cell += " ± " + Self.format(summary.standardDeviation) }
                cell += index == best ? " *" : "  "
                row.append(cell)
            }
            rows.append(row)
        }
        out += TextTable.render(rows, rightAligned: Set(1...comparison.policies.count))
        out += "\nkills by reason:\n"
        for (policyIndex, policy) in comparison.policies.enumerated() {
            var totals: [String: Int] = [:]
            for run in comparison.runs[policyIndex] {
                for (reason, count) in run.metrics.killsByReason { totals[reason, default: 0] += count }
            }
            let parts = totals.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) ×\($0.value)" }
            out += "  \(policy): " + (parts.isEmpty ? "none" : parts.joined(separator: ", ")) + "\n"
        }
        out += "\nengine events/s and ns/decision are wall-clock measurements; every other figure is deterministic.\n"
        return out
    }

    /// `{"workload":…,"seeds":[…],"policies":[{"name":…,"metrics":{key:{"mean":…,"sd":…,"best":bool}},"runs":[…]}]}`.
    var json: String {
        var out =
            "{\"workload\":\(Event.json(comparison.workload)),\"seeds\":[\(comparison.seeds.map(String.init).joined(separator: ","))],"
        out += "\"policies\":["
        var policies: [String] = []
        for (index, name) in comparison.policies.enumerated() {
            var item = "{\"name\":\(Event.json(name)),\"metrics\":{"
            item += metrics.map { metric in
                let summary = comparison.summaries(of: metric)[index]
                let best = comparison.best(for: metric) == index
                return
                    "\"\(metric.key)\":{\"mean\":\(Self.number(summary.mean)),\"sd\":\(Self.number(summary.standardDeviation)),\"best\":\(best)}"
            }.joined(separator: ",")
            item += "},\"runs\":["
            item += comparison.runs[index].enumerated().map { seedIndex, run in
                var fields = "{\"seed\":\(comparison.seeds[seedIndex])"
                for metric in metrics { fields += ",\"\(metric.key)\":\(Self.number(metric.value(run.metrics)))" }
                let reasons = run.metrics.killsByReason.sorted { $0.key < $1.key }
                    .map { "\(Event.json($0.key)):\($0.value)" }.joined(separator: ",")
                return fields + ",\"killsByReason\":{\(reasons)}}"
            }.joined(separator: ",")
            policies.append(item + "]}")
        }
        return out + policies.joined(separator: ",") + "]}\n"
    }

    /// One row per policy and metric: `policy,metric,mean,sd,best`.
    var csv: String {
        var out = "policy,metric,mean,sd,best\n"
        for (index, name) in comparison.policies.enumerated() {
            for metric in metrics {
                let summary = comparison.summaries(of: metric)[index]
                let best = comparison.best(for: metric) == index
                out += "\(KillOrderReport.csvField(name)),\(metric.key),\(Self.number(summary.mean)),"
                out += "\(Self.number(summary.standardDeviation)),\(best)\n"
            }
        }
        return out
    }

    /// A JSON number: integers without a decimal point, others with up to 3 decimals.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String((value * 1000).rounded() / 1000)
    }
}
