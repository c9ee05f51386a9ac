import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// `compare --event-log`'s second table: each policy's kills against the device's own.
struct KillValidationReport {
    var validations: [KillValidation]

    init(_ validations: [KillValidation]) {
        self.validations = validations
    }

    /// `0.42 (5/12)`, or `—` when there is nothing to divide by.
    static func ratio(_ value: Double?, _ numerator: Int, _ denominator: Int) -> String {
        guard let value else { return "— (0/0)" }
        return "\(ComparisonReport.format(value)) (\(numerator)/\(denominator))"
    }

    /// The table: precision and recall per hour and per day.
    var table: String {
        var rows = [
            ["KILLS AGAINST THE DEVICE", "PRECISION / HOUR", "RECALL / HOUR", "PRECISION / DAY", "RECALL / DAY"]
        ]
        for item in validations {
            rows.append([
                item.policy,
                Self.ratio(item.perHour.precision, item.perHour.matched, item.perHour.simulated),
                Self.ratio(item.perHour.recall, item.perHour.matched, item.perHour.real),
                Self.ratio(item.perDay.precision, item.perDay.matched, item.perDay.simulated),
                Self.ratio(item.perDay.recall, item.perDay.matched, item.perDay.real),
            ])
        }
        return TextTable.render(rows, rightAligned: [1, 2, 3, 4])
            + "precision: of the apps a policy killed in a window, the share the device killed in that window too; "
            + "recall: of the apps the device killed, the share the policy killed too (matched/total, pooled over windows).\n"
    }

    /// The `validation` array of the JSON document.
    var json: String {
        func counts(_ counts: KillValidation.Counts) -> String {
            "{\"simulated\":\(counts.simulated),\"real\":\(counts.real),\"matched\":\(counts.matched),"
                + "\"precision\":\(counts.precision.map(ComparisonReport.number) ?? "null"),"
                + "\"recall\":\(counts.recall.map(ComparisonReport.number) ?? "null")}"
        }
        return "["
            + validations.map {
                "{\"policy\":\(Event.json($0.policy)),\"perHour\":\(counts($0.perHour)),\"perDay\":\(counts($0.perDay))}"
            }.joined(separator: ",") + "]"
    }
}
