import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// The printed forms of the Fleet replay.
struct FleetReport {
    let experiment: FleetCachedApps
    let configurations: [FleetCachedApps.Configuration]
    let series: [FleetCachedApps.Series]

    /// The columns in order: each measured series, then the configurations set beside it.
    private var columns: [(key: String, label: String, counts: [Int], kills: Int?, measuredKey: String)] {
        var columns: [(String, String, [Int], Int?, String)] = []
        for measuredKey in ["android_no_swap", "android_swap_file"] {
            columns.append((measuredKey, "measured", FleetCachedApps.measured(measuredKey) ?? [], nil, measuredKey))
            for (configuration, result) in zip(configurations, series) where configuration.measuredKey == measuredKey {
                columns.append((configuration.key, configuration.label, result.counts, result.kills, measuredKey))
            }
        }
        return columns
    }

    /// The table: the steps, the summary, and what differs from the paper.
    var table: String {
        let columns = columns
        var out = "Fleet's cached-app experiment (ASPLOS '24, Figure 11(c)) replayed: 18 apps launched twice in a row\n"
        out += "on a \(FleetCachedApps.memory.formatted) Pixel 3-like phone, \(experiment.reserved.formatted) held by "
        out += "the system (an assumption; --reserved).\n"
        out += "Count: apps of the 18 with a live process right after each launch, the launched app included.\n\n"
        let noSwap = columns.filter { $0.measuredKey == "android_no_swap" }.count
        var group = ["", ""] + ["NO SWAP"] + Array(repeating: "", count: noSwap - 1)
        group += ["2 GIB SWAP FILE"] + Array(repeating: "", count: columns.count - noSwap - 1)
        var rows = [group, ["STEP", "APP"] + columns.map { $0.label.uppercased() }]
        for (index, step) in FleetCachedApps.steps.enumerated() {
            rows.append(["\(step.number)", step.app.name] + columns.map { "\($0.counts[index])" })
        }
        out += TextTable.render(rows, rightAligned: Set(2..<(columns.count + 2)))
        out += "\n"
        var summary = [
            ["SERIES", "RANGE", "MEAN", "ROUND 2", "PEAK (STEP)", "STEPS 11–36 IN RANGE", "|DIFF|", "KILLS"]
        ]
        for column in columns {
            let measured = FleetCachedApps.measured(column.measuredKey) ?? []
            let figures = FleetCachedApps.Summary(column.counts, measured: measured)
            let settled = FleetCachedApps.Summary.settledSteps.map { measured[$0 - 1] }
            let name =
                column.key == column.measuredKey
                ? "measured, " + (column.key == "android_no_swap" ? "no swap" : "swap file") : column.label
            summary.append([
                name, "\(figures.range.lowerBound)–\(figures.range.upperBound)",
                ComparisonReport.format(figures.mean, decimals: 2),
                ComparisonReport.format(figures.meanRound2, decimals: 2), "\(figures.peak) (\(figures.peakStep))",
                "\(figures.withinMeasuredRange)/\(FleetCachedApps.Summary.settledSteps.count) "
                    + "(\(settled.min() ?? 0)–\(settled.max() ?? 0))",
                column.key == column.measuredKey
                    ? "—" : ComparisonReport.format(figures.meanAbsoluteDifference, decimals: 2),
                column.kills.map { "\($0)" } ?? "—",
            ])
        }
        out += TextTable.render(summary, rightAligned: [1, 2, 3, 4, 6, 7])
        out += """

            MEAN is over steps 1–36, ROUND 2 over steps 19–36; STEPS 11–36 IN RANGE counts the steps whose count lies
            in the measured series' range over those steps; |DIFF| is the mean distance from the measured count.
            linux-oom is what ran (Fleet's builds disabled lmkd's kills); LMKD PIXEL 3 is what stock Android 10's lmkd
            would have done (minfree 72/90/108/126/216/315 MiB, heaviest first); LMKD-PSI is today's lmkd without zram.
            Not as measured: footprints are anonymous memory, three measured on a Pixel 7 (Ariadne), the rest assumed
            by kind; the system's share is assumed; Fleet's step 1 counted an app already running; ActivityManager's
            own trimming and the apps' own exits are not modelled. docs/fleet-replay.md has the details.

            """
        return out
    }

    /// The JSON document: the device, the apps, every step and every series' figures.
    var json: String {
        let columns = columns
        var out = "{\"experiment\":\"fleet-cached-apps\","
        out +=
            "\"device\":{\"memory\":\(FleetCachedApps.memory.value),\"reserved\":\(experiment.reserved.value)},"
        out += "\"apps\":["
        out += FleetCachedApps.apps.map { app in
            "{\"app\":\(Event.json(app.name)),\"package\":\(Event.json(app.package)),\"kind\":\(Event.json(app.kind)),"
                + "\"atLaunch\":\(app.atLaunch.value),\"atFiveMinutes\":\(app.atFiveMinutes.value),"
                + "\"growthPerPhase\":\(app.growthPerPhase.value),\"source\":\(Event.json(app.source))}"
        }.joined(separator: ",")
        out += "],\"steps\":["
        out += FleetCachedApps.steps.enumerated().map { index, step in
            var fields = "{\"step\":\(step.number),\"round\":\(step.round),\"app\":\(Event.json(step.app.name)),"
            fields += "\"package\":\(Event.json(step.app.package))"
            for column in columns { fields += ",\"\(column.key)\":\(column.counts[index])" }
            return fields + "}"
        }.joined(separator: ",")
        out += "],\"series\":["
        out += columns.map { column in
            let measured = FleetCachedApps.measured(column.measuredKey) ?? []
            let figures = FleetCachedApps.Summary(column.counts, measured: measured)
            let configuration = configurations.first { $0.key == column.key }
            var fields = "{\"key\":\"\(column.key)\",\"label\":\(Event.json(column.label)),"
            fields += "\"measured\":\"\(column.measuredKey)\","
            if let configuration {
                fields +=
                    "\"policy\":\(Event.json(configuration.policy.name)),\"role\":\(Event.json(configuration.role)),"
            }
            fields += "\"min\":\(figures.range.lowerBound),\"max\":\(figures.range.upperBound),"
            fields += "\"mean\":\(ComparisonReport.number(figures.mean)),"
            fields += "\"meanRound2\":\(ComparisonReport.number(figures.meanRound2)),"
            fields += "\"peak\":\(figures.peak),\"peakStep\":\(figures.peakStep),"
            fields += "\"withinMeasuredRange\":\(figures.withinMeasuredRange),"
            fields += "\"meanAbsoluteDifference\":\(ComparisonReport.number(figures.meanAbsoluteDifference)),"
            fields += "\"kills\":\(column.kills.map { "\($0)" } ?? "null")}"
            return fields
        }.joined(separator: ",")
        return out + "]}\n"
    }

    /// The steps as CSV, one column per series.
    var csv: String {
        let columns = columns
        var out = (["step", "round", "app", "package"] + columns.map(\.key)).joined(separator: ",") + "\n"
        for (index, step) in FleetCachedApps.steps.enumerated() {
            let cells = ["\(step.number)", "\(step.round)", step.app.name, step.app.package]
            out += (cells + columns.map { "\($0.counts[index])" }).joined(separator: ",") + "\n"
        }
        return out
    }
}
