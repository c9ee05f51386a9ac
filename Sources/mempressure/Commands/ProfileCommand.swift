import ArgumentParser
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// `mempressure profile`: what the users of a workload do in a day, measured on their traces,
/// beside the published figures the phone user is built from.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Measure what a workload's users do per simulated day, beside the published figures.",
        discussion: """
            Generates the trace of every seed (for the phone workload, every seed is another person) \
            and measures it: installed apps, distinct apps and opens a day, hours in the foreground, \
            session length, the share of use at night (00:00–06:00), and the most apps playing audio \
            at once. Each figure is the mean over seeds with its 95 % confidence interval and the \
            range over seeds. No policy is involved: these are the user's actions.
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    @OptionGroup var workload: WorkloadOptions

    @Option(
        parsing: .unconditional, help: ArgumentHelp("How many seeds (users) to measure: 1...10000.", valueName: "n"))
    var seeds: Int = 100

    @Option(help: "Output format: table or json.")
    var format: Format = .table

    func validate() throws {
        if seeds < 1 || seeds > 10_000 { throw ValidationError("--seeds must be 1...10000, got \(seeds)") }
        if workload.usageLog != nil {
            throw ValidationError("profile measures generated workloads; --usage-log is not supported")
        }
    }

    /// One measured figure and what the studies say.
    struct Figure {
        var name: String
        var key: String
        var published: String
        var values: [Double]
    }

    func run() throws {
        try reportingErrors {
            let resolved = try workload.resolve()
            try workload.checkSize(of: resolved)
            let generator = WorkloadGenerator(workload: resolved)
            let days = resolved.hours / 24
            var installed: [Double] = []
            var profiles: [UsageProfile] = []
            for seed in 1...UInt64(seeds) {
                if let user = generator.user(seed: seed) { installed.append(Double(user.installed.count)) }
                profiles.append(UsageProfile(generator.trace(seed: seed)))
            }
            var figures: [Figure] = []
            if !installed.isEmpty {
                figures.append(
                    Figure(
                        name: "installed apps", key: "installedApps",
                        published:
                            "32–41 downloaded (Nielsen 2011/2012); up to ~110 with preinstalled (App Annie 2017)",
                        values: installed))
            }
            figures += [
                Figure(
                    name: "distinct apps a day", key: "distinctAppsPerDay", published: "about 9 (App Annie 2017)",
                    values: profiles.map { Double($0.distinctApps) / days }),
                Figure(
                    name: "opens a day", key: "opensPerDay",
                    published: "~50 (Böhmer 2011: 59 min a day in 72 s sessions)",
                    values: profiles.map { Double($0.opens) / days }),
                Figure(
                    name: "hours in apps a day", key: "foregroundHoursPerDay",
                    published: "about 1 (Böhmer 2011: 59.23 min); 2–3 in later studies",
                    values: profiles.map { $0.foregroundSeconds / 3600 / days }),
                Figure(
                    name: "seconds per app session", key: "meanSessionSeconds",
                    published: "71.56 on average (Böhmer 2011)", values: profiles.map(\.meanSessionSeconds)),
                Figure(
                    name: "share of use 00:00–06:00 (%)", key: "nightSharePercent",
                    published: "low: quiet nights (Böhmer 2011, usage by hour)",
                    values: profiles.map { $0.nightShare * 100 }),
                Figure(
                    name: "most apps playing audio at once", key: "maxConcurrentAudio",
                    published: "1 (one audio session plays at a time)",
                    values: profiles.map { Double($0.maxConcurrentAudio) }),
            ]
            switch format {
            case .table:
                var rows = [["PER USER-DAY", "MEAN [95 % INTERVAL]", "RANGE OVER SEEDS", "PUBLISHED"]]
                for figure in figures {
                    let interval = MeanInterval(figure.values)
                    rows.append([
                        figure.name,
                        "\(ComparisonReport.format(interval.mean)) [\(ComparisonReport.format(interval.low)), "
                            + "\(ComparisonReport.format(interval.high))]",
                        "\(ComparisonReport.format(figure.values.min() ?? 0))–\(ComparisonReport.format(figure.values.max() ?? 0))",
                        figure.published,
                    ])
                }
                var out = "workload \(resolved.name): \(seeds) seed\(seeds == 1 ? "" : "s"), "
                out += "\(ComparisonReport.format(resolved.hours)) hours each\n\n"
                try StandardOutput.write(out + TextTable.render(rows, rightAligned: [1, 2]))
            case .json:
                let items = figures.map { figure in
                    let interval = MeanInterval(figure.values)
                    return "\"\(figure.key)\":{\"mean\":\(ComparisonReport.number(interval.mean)),"
                        + "\"low\":\(ComparisonReport.number(interval.low)),\"high\":\(ComparisonReport.number(interval.high)),"
                        + "\"values\":[\(figure.values.map(ComparisonReport.number).joined(separator: ","))]}"
                }
                try StandardOutput.write(
                    "{\"workload\":\(Event.json(resolved.name)),\"seeds\":\(seeds),\"hours\":\(ComparisonReport.number(resolved.hours)),"
                        + items.joined(separator: ",") + "}\n")
            }
        }
    }
}
