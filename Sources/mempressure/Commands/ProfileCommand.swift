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
        try OptionRange.checkSeeds(seeds)
    }

    /// One measured figure and what the studies say.
    struct Figure {
        var name: String
        var key: String
        var published: String
        var values: [Double]
    }

    /// The figures of `profiles`, each over `days[i]` days, with installed apps where known.
    static func figures(_ profiles: [UsageProfile], days: [Double], installed: [Double]) -> [Figure] {
        var figures: [Figure] = []
        if !installed.isEmpty {
            figures.append(
                Figure(
                    name: "installed apps", key: "installedApps",
                    published: "32–41 downloaded (Nielsen 2011/2012); up to ~110 with preinstalled (App Annie 2017)",
                    values: installed))
        }
        let perDay = { (value: (UsageProfile) -> Double) in zip(profiles, days).map { value($0) / $1 } }
        figures += [
            Figure(
                name: "distinct apps a day", key: "distinctAppsPerDay", published: "about 9 (App Annie 2017)",
                values: perDay { Double($0.distinctApps) }),
            Figure(
                name: "opens a day", key: "opensPerDay", published: "~50 (Böhmer 2011: 59 min a day in 72 s sessions)",
                values: perDay { Double($0.opens) }),
            Figure(
                name: "hours in apps a day", key: "foregroundHoursPerDay",
                published: "about 1 (Böhmer 2011: 59.23 min); 2–3 in later studies",
                values: perDay { $0.foregroundSeconds / 3600 }),
            Figure(
                name: "seconds per app session", key: "meanSessionSeconds",
                published: "71.56 on average (Böhmer 2011)", values: profiles.map(\.meanSessionSeconds)),
            Figure(
                name: "minutes between opens (median)", key: "medianMinutesBetweenOpens",
                published: "— (no published figure checked)",
                values: profiles.compactMap { $0.medianSecondsBetweenOpens.map { $0 / 60 } }),
            Figure(
                name: "reopens within 10 min (% of opens)", key: "reopenWithin10MinutesPercent",
                published: "— (no published figure checked)",
                values: profiles.filter { $0.opens > 0 }.map {
                    Double($0.reopensWithin10Minutes) / Double($0.opens) * 100
                }),
            Figure(
                name: "reopens within 1 h (% of opens)", key: "reopenWithinHourPercent",
                published: "— (no published figure checked)",
                values: profiles.filter { $0.opens > 0 }.map { Double($0.reopensWithinHour) / Double($0.opens) * 100 }),
            Figure(
                name: "share of use 00:00–06:00 (%)", key: "nightSharePercent",
                published: "low: quiet nights (Böhmer 2011, usage by hour)",
                values: profiles.map { $0.nightShare * 100 }),
            Figure(
                name: "most apps playing audio at once", key: "maxConcurrentAudio",
                published: "1 (one audio session plays at a time)",
                values: profiles.map { Double($0.maxConcurrentAudio) }),
        ]
        return figures
    }

    /// The figures of a usage log's samples: a day's sample is one day; a whole user's log spans
    /// the days from its first action to its last (at least one).
    static func figures(of samples: [UsageLogImport.UserTrace]) -> [Figure] {
        let days = samples.map { sample -> Double in
            guard sample.day == nil, let first = sample.trace.entries.first?.time,
                let last = sample.trace.entries.last?.time
            else { return 1 }
            return max(1, ((last - first) / 86_400).rounded(.up))
        }
        return figures(samples.map { UsageProfile($0.trace) }, days: days, installed: [])
    }

    /// `mean [low, high]` of `values` (the mean alone for one value).
    static func interval(_ values: [Double]) -> String {
        ComparisonReport.interval(MeanInterval(values))
    }

    /// `min–max` of `values`.
    static func range(_ values: [Double]) -> String {
        "\(ComparisonReport.format(values.min() ?? 0))–\(ComparisonReport.format(values.max() ?? 0))"
    }

    /// The JSON object of `figures`.
    static func json(_ figures: [Figure]) -> String {
        figures.map { figure in
            let interval = MeanInterval(figure.values)
            return "\"\(figure.key)\":{\"mean\":\(ComparisonReport.number(interval.mean)),"
                + "\(ComparisonReport.jsonEnds(interval)),"
                + "\"values\":[\(figure.values.map(ComparisonReport.number).joined(separator: ","))]}"
        }.joined(separator: ",")
    }

    func run() throws {
        try reportingErrors {
            let resolved = try workload.resolve()
            try workload.checkSize(of: resolved)
            let logSamples = try workload.importedTraces(workload: resolved)
            let generator = WorkloadGenerator(workload: resolved)
            let days = resolved.hours / 24
            var installed: [Double] = []
            var profiles: [UsageProfile] = []
            for seed in 1...UInt64(seeds) {
                if let user = generator.user(seed: seed) { installed.append(Double(user.installed.count)) }
                profiles.append(UsageProfile(generator.trace(seed: seed)))
            }
            var figures = Self.figures(
                profiles, days: Array(repeating: days, count: profiles.count), installed: installed)
            if resolved.user == nil {
                // The published figures describe people using phones: not a workload without a user model.
                for index in figures.indices { figures[index].published = "—" }
            }
            let logFigures = logSamples.map(Self.figures(of:))
            let logName = workload.usageLog.map(InputFile.displayName) ?? ""
            switch format {
            case .table:
                var out = "workload \(resolved.name): \(seeds) seed\(seeds == 1 ? "" : "s"), "
                out += "\(ComparisonReport.format(resolved.hours)) hours each\n"
                if resolved.user == nil {
                    out +=
                        "it has no user model (its samples are not people using a phone), so the published figures, "
                        + "which describe such people, are not shown\n"
                }
                var rows: [[String]]
                if let logFigures, let logSamples {
                    let unit = workload.sample == .day ? "user-day" : "user"
                    out += "usage log \(logName): \(logSamples.count) sample\(logSamples.count == 1 ? "" : "s") "
                    out += "(one per \(unit)), measured exactly as the generated users\n"
                    rows = [
                        [
                            "PER USER-DAY", "THIS LOG [95 %]", "LOG RANGE", "\(resolved.name.uppercased()) [95 %]",
                            "PUBLISHED",
                        ]
                    ]
                    for figure in figures {
                        let measured = logFigures.first { $0.key == figure.key }
                        rows.append([
                            figure.name, measured.map { Self.interval($0.values) } ?? "—",
                            measured.map { Self.range($0.values) } ?? "—", Self.interval(figure.values),
                            figure.published,
                        ])
                    }
                    try StandardOutput.write(out + "\n" + TextTable.render(rows, rightAligned: [1, 2, 3]))
                } else {
                    let unit = resolved.user == nil ? "PER DAY" : "PER USER-DAY"
                    rows = [[unit, "MEAN [95 % INTERVAL]", "RANGE OVER SEEDS", "PUBLISHED"]]
                    for figure in figures {
                        rows.append([
                            figure.name, Self.interval(figure.values), Self.range(figure.values), figure.published,
                        ])
                    }
                    try StandardOutput.write(out + "\n" + TextTable.render(rows, rightAligned: [1, 2]))
                }
            case .json:
                var out = "{\"workload\":\(Event.json(resolved.name)),\"seeds\":\(seeds),"
                out += "\"hours\":\(ComparisonReport.number(resolved.hours)),\(Self.json(figures))"
                if let logFigures, let logSamples {
                    out += ",\"usageLog\":{\"file\":\(Event.json(logName)),\"sample\":\"\(workload.sample.rawValue)\","
                    out += "\"samples\":[\(logSamples.map { Event.json($0.label) }.joined(separator: ","))],"
                    out += Self.json(logFigures) + "}"
                }
                try StandardOutput.write(out + "}\n")
            }
        }
    }
}
