import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// A sweep as JSON, a table or CSV. Each cell is what `compare` reports at the cell's parameters
/// (every deterministic metric's mean and 95 % interval, the paired differences against the
/// baseline, every sample's values); wall-clock figures are left out so that a merge of parts
/// prints byte for byte what an unsharded run prints.
struct SweepReport {
    let result: SweepResult
    var definition: SweepDefinition { result.definition }

    init(_ result: SweepResult) { self.result = result }

    /// The parameters of `cell` as `name=value` labels.
    func labels(ofCell cell: Int) -> [String] {
        zip(definition.parameters, definition.values(ofCell: cell)).map { "\($0.name)=\($1)" }
    }

    var json: String {
        let metrics = definition.metricDefinitions
        let number = ComparisonReport.number
        var out = "{\"workload\":\(Event.json(definition.workload)),\"fingerprint\":\"\(definition.fingerprint)\","
        out += "\"confidence\":\(Statistics.confidence),"
        out += "\"policies\":[\(definition.policies.map { Event.json($0) }.joined(separator: ","))],"
        out += "\"parameters\":["
        out += definition.parameters.map {
            "{\"name\":\(Event.json($0.name)),\"values\":[\($0.values.map { Event.json($0) }.joined(separator: ","))]}"
        }.joined(separator: ",")
        out += "],\"samples\":[\(definition.samples.map { Event.json($0) }.joined(separator: ","))],\"cells\":["
        var cells: [String] = []
        for index in 0..<definition.cellCount {
            let cell = result.cell(index)
            let device = definition.device(ofCell: index)
            let baseline = cell.baseline
            var item = "{\"parameters\":{"
            item += zip(definition.parameters, definition.values(ofCell: index)).map {
                "\(Event.json($0.name)):\(Event.json($1))"
            }.joined(separator: ",")
            item += "},\"device\":{\"memory\":\(device.memory.value),\"reserved\":\(device.reserved.value)},"
            item += "\"baseline\":\(Event.json(definition.policies[baseline])),\"policies\":["
            let intervals = metrics.indices.map(cell.intervals(ofMetric:))
            let differences = metrics.indices.map(cell.pairedDifferences(ofMetric:))
            let bests = metrics.indices.map(cell.best(ofMetric:))
            let gaps = cell.gapToOracleClosed
            let gapIntervals = cell.gapToOracleClosedIntervals
            var policies: [String] = []
            for (policy, name) in definition.policies.enumerated() {
                var entry = "{\"name\":\(Event.json(name)),"
                if let gaps { entry += "\"gapToOracleClosed\":\(number(gaps[policy]))," }
                if let interval = gapIntervals?[policy] {
                    entry += "\"gapToOracleClosedInterval\":"
                    entry += "[\(number(interval.lowerBound)),\(number(interval.upperBound))],"
                }
                entry += "\"metrics\":{"
                entry += metrics.indices.map { position in
                    let interval = intervals[position][policy]
                    return "\"\(metrics[position].key)\":"
                        + ComparisonReport.json(interval, best: bests[position] == policy)
                }.joined(separator: ",")
                entry += "}"
                if policy != baseline {
                    entry += ",\"paired\":{"
                    entry += metrics.indices.compactMap { position -> String? in
                        guard let difference = differences[position][policy] else { return nil }
                        return "\"\(metrics[position].key)\":"
                            + ComparisonReport.json(
                                difference, for: metrics[position], samples: intervals[position][policy].count)
                    }.joined(separator: ",")
                    entry += "}"
                }
                let columns = metrics.indices.map { cell.values(ofMetric: $0, policy: policy) }
                entry += ",\"runs\":["
                entry += definition.samples.enumerated().map { sample, label in
                    var fields = "{\"sample\":\(Event.json(label))"
                    for (position, metric) in metrics.enumerated() {
                        fields += ",\"\(metric.key)\":\(number(columns[position][sample]))"
                    }
                    return fields + "}"
                }.joined(separator: ",")
                policies.append(entry + "]}")
            }
            cells.append(item + policies.joined(separator: ",") + "]}")
        }
        return out + cells.joined(separator: ",") + "]}\n"
    }

    /// The metrics the table shows.
    static let tableKeys = ["launchWait", "coldRelaunches", "kills", "foregroundKills"]

    /// One row per cell and policy: the key metrics' means with their intervals, and the paired
    /// difference in launch wait against the cell's baseline.
    var table: String {
        let count = definition.samples.count
        var out = "sweep of workload \(definition.workload): \(definition.cellCount) cell"
        out += definition.cellCount == 1 ? "" : "s"
        out += " × \(definition.policies.count) polic\(definition.policies.count == 1 ? "y" : "ies")"
        out += " × \(count) sample\(count == 1 ? "" : "s"); fingerprint \(definition.fingerprint)\n"
        out += "each cell: the mean per sample [95 % interval]; Δ launch wait: policy − the cell's baseline "
        out += "(paired, Holm-adjusted)\n"
        let reference = Comparison.gapReference(among: definition.policies)
        if let reference {
            out += "gap closed: the share of the cell's launch-wait gap from its baseline to "
            out += "\(definition.policies[reference]) that the policy closes [95 % paired-bootstrap interval]; "
            out += "— without a gap\n"
        }
        out += "\n"
        let keys = Self.tableKeys.filter { definition.metrics.contains($0) }
        let metricNames = keys.compactMap { MetricDefinition.named($0)?.name.trimmingCharacters(in: .whitespaces) }
        var rows = [
            definition.parameters.map { $0.name.uppercased() } + ["POLICY"] + metricNames.map { $0.uppercased() }
                + ["Δ LAUNCH WAIT (S)", "VERDICT"] + (reference == nil ? [] : ["GAP CLOSED (%)"])
        ]
        let launchWait = MetricDefinition.launchWait
        for index in 0..<definition.cellCount {
            let cell = result.cell(index)
            let values = definition.values(ofCell: index)
            let intervals = keys.map { cell.intervals(ofMetric: cell.metricIndex($0)!) }
            let differences = cell.metricIndex("launchWait").map(cell.pairedDifferences(ofMetric:))
            let gaps = cell.gapToOracleClosed
            let gapIntervals = cell.gapToOracleClosedIntervals
            for (policy, name) in definition.policies.enumerated() {
                var row = values + [name]
                for interval in intervals.map({ $0[policy] }) {
                    row.append(ComparisonReport.interval(interval))
                }
                if let difference = differences?[policy] {
                    let shown = ComparisonReport.signedInterval(difference)
                    row.append("\(shown.mean) \(shown.interval)")
                    row.append(ComparisonReport.verdict(difference, for: launchWait))
                } else {
                    row += ["baseline", ""]
                }
                if reference != nil {
                    var share = gaps.map { ComparisonReport.format($0[policy] * 100) } ?? "—"
                    if let interval = gapIntervals?[policy] {
                        share += " " + ComparisonReport.percentInterval(interval)
                    }
                    row.append(share)
                }
                rows.append(row)
            }
        }
        let first = definition.parameters.count + 1
        out += TextTable.render(rows, rightAligned: Set(first..<(first + keys.count + 1)))
        return out.hasSuffix("\n") ? out : out + "\n"
    }

    /// Tidy rows: the cell's parameters, then `policy,metric,statistic,sample,value` as `compare
    /// --format csv` writes them.
    var csv: String {
        let metrics = definition.metricDefinitions
        let number = ComparisonReport.number
        var out =
            (definition.parameters.map { KillOrderReport.csvField($0.name) } + [
                "policy", "metric", "statistic", "sample", "value",
            ]).joined(separator: ",") + "\n"
        for index in 0..<definition.cellCount {
            let cell = result.cell(index)
            let prefix = definition.values(ofCell: index).map(KillOrderReport.csvField).joined(separator: ",")
            let lead = prefix.isEmpty ? "" : prefix + ","
            for (policy, name) in definition.policies.enumerated() {
                let field = KillOrderReport.csvField(name)
                for (position, metric) in metrics.enumerated() {
                    for (sample, value) in cell.values(ofMetric: position, policy: policy).enumerated() {
                        out += "\(lead)\(field),\(metric.key),value,"
                        out += "\(KillOrderReport.csvField(definition.samples[sample])),\(number(value))\n"
                    }
                }
            }
            if let gaps = cell.gapToOracleClosed {
                out += ComparisonReport.csvGapRows(
                    lead: lead, policies: definition.policies, gaps, cell.gapToOracleClosedIntervals)
            }
            for (position, metric) in metrics.enumerated() {
                let intervals = cell.intervals(ofMetric: position)
                let differences = cell.pairedDifferences(ofMetric: position)
                for (policy, name) in definition.policies.enumerated() {
                    let field = KillOrderReport.csvField(name)
                    out += ComparisonReport.csvRows(
                        lead: "\(lead)\(field),\(metric.key)", intervals[policy], differences[policy])
                }
            }
        }
        return out
    }
}
