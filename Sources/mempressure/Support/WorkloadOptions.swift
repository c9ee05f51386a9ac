import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureSimulation

/// The workload and the limit on its size, shared by `simulate`, `compare`, `profile` (through
/// ``WorkloadOptions``) and `sweep`.
struct WorkloadShapeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A workload file (YAML), or a built-in workload: phone, phone-2024 or server.",
            valueName: "file|name"))
    var workload: String = "phone"

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Override the number of apps in the shared catalogue (the tenants of a server): 1...1000000.",
            valueName: "n"))
    var apps: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Override the simulated duration, in hours: above 0, at most 8760. With --usage-log: replay only the "
                + "first h hours of each sample (from its midnight, or from a user's first row).",
            valueName: "h"))
    var hours: Double?

    @Option(
        name: .customLong("max-actions"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "Refuse a workload whose generated samples could hold more actions than this: 1...1000000000. "
                + "(default: 5000000)",
            valueName: "n"))
    var maxActionsGiven: Int?

    /// The most actions a generated sample may hold: `--max-actions`, or five million.
    var maxActions: Int { maxActionsGiven ?? 5_000_000 }

    /// The refusal of `--max-actions` where files give the samples (`option`), whose size it does
    /// not cap (the option would be ignored).
    static func maxActionsWithFiles(_ option: String) -> String {
        "--max-actions caps generated samples; \(option) gives its own: drop --max-actions"
    }

    /// The refusal of an option that chooses generated seeds (`given`, such as `--seeds`) where
    /// files give the samples (`source`, such as `--usage-log`): the option would be ignored.
    static func seedOptionWithFiles(_ source: String, _ given: String) -> String {
        "\(source) gives the samples and \(given) chooses generated seeds: drop \(given)"
    }

    /// The refusal of `--apps` with a usage log, whose apps are the ones it names (the option
    /// would be ignored).
    static let appsWithUsageLog =
        "--apps sets the app catalogue of a generated workload; a usage log's apps are the ones it names: drop --apps"

    /// The refusal of `--usage-log-format` without a usage log (the option would be ignored).
    static let formatWithoutUsageLog =
        "--usage-log-format says how to read a usage log: give --usage-log or drop --usage-log-format"

    /// The refusal of `--sample` without a usage log (the option would be ignored).
    static let sampleWithoutUsageLog =
        "--sample says what one sample of a usage log is: give --usage-log or drop --sample"

    func validate() throws {
        try OptionRange.check(apps, in: 1...1_000_000, "--apps")
        if let hours, !(hours > 0 && hours <= 24 * 365) {
            throw ValidationError("--hours must be above 0 and at most 8760, got \(hours)")
        }
        try OptionRange.check(maxActionsGiven, in: 1...1_000_000_000, "--max-actions")
    }

    /// The workload the options describe, and what identifies it (`workload=` the built-in name or
    /// a digest of the file, then `apps=` and `hours=` when overridden: a sweep's fingerprint).
    func resolveNotingInputs() throws -> (workload: Workload, inputs: [String]) {
        var resolved: Workload
        var inputs: [String] = []
        if let builtIn = Workload.builtIn[workload] {
            resolved = builtIn
            inputs.append("workload=\(workload)")
        } else {
            let text: String
            do {
                text = try InputFile.read(workload)
            } catch let error as CLIError where error.kind == .inputNotFound {
                throw CLIError.notFound(
                    "\(error.message) (built-in workloads: \(Workload.builtIn.keys.sorted().joined(separator: ", ")))")
            }
            inputs.append("workload=\(SweepDefinition.digest(text))")
            do throws(InputError) {
                resolved = try Workload(yaml: text, file: InputFile.displayName(workload))
            } catch {
                throw CLIError.malformed(error.description)
            }
        }
        if let apps {
            resolved.apps = apps
            resolved.preload = min(resolved.preload, apps)
            inputs.append("apps=\(apps)")
        }
        if let hours {
            resolved.hours = hours
            inputs.append("hours=\(hours)")
        }
        return (resolved, inputs)
    }

    /// The workload the options describe.
    func resolve() throws -> Workload { try resolveNotingInputs().workload }

    /// Refuses, before any work, a workload whose generated samples could exceed `--max-actions`
    /// each.
    func checkSize(of workload: Workload) throws {
        let estimate = workload.estimatedActionsPerSample
        guard estimate <= Double(maxActions) else {
            let shown = estimate < 1e15 ? String(Int64(estimate)) : String(format: "%.3g", estimate)
            // The file the user gave, not the name inside it (several files may be in play).
            let source =
                Workload.builtIn[self.workload] != nil
                ? "workload \(workload.name)" : "\(InputFile.displayName(self.workload)) (workload \(workload.name))"
            let overridden = [apps.map { "--apps \($0)" }, hours.map { "--hours \($0)" }].compactMap { $0 }
            throw CLIError.usage(
                "\(source)\(overridden.isEmpty ? "" : " with " + overridden.joined(separator: " ")): a sample could hold about \(shown) actions, above the limit of "
                    + "\(maxActions); lower hours or rates, or raise --max-actions (memory grows about 200 bytes "
                    + "an action)")
        }
    }
}

/// What a sample of a usage log is, as an argument.
extension UsageLogImport.Sampling: ExpressibleByArgument {}

/// The workload options of `simulate`, `compare` and `profile`: the workload, or one usage log.
struct WorkloadOptions: ParsableArguments {
    @OptionGroup var shape: WorkloadShapeOptions

    @Option(
        help: ArgumentHelp(
            "Replay a real app-usage log instead (CSV/TSV with a header: user, timestamp, app, event; "
                + "Opened/Closed, LSApp's TSV or Android UsageStats events; docs/usage-logs.md).",
            valueName: "file"))
    var usageLog: String?

    @OptionGroup var sampling: UsageLogSampleOption

    /// What one sample of the usage log is: `--sample`, or a user's day.
    var sample: UsageLogImport.Sampling { sampling.sample }

    /// `--apps`, if given.
    var apps: Int? { shape.apps }

    func validate() throws {
        if usageLog != nil && shape.apps != nil { throw ValidationError(WorkloadShapeOptions.appsWithUsageLog) }
        if usageLog == nil && sampling.given != nil {
            throw ValidationError(WorkloadShapeOptions.sampleWithoutUsageLog)
        }
        if usageLog == nil && sampling.formatGiven != nil {
            throw ValidationError(WorkloadShapeOptions.formatWithoutUsageLog)
        }
    }
    /// `--hours`, if given.
    var hours: Double? { shape.hours }

    /// The workload the options describe.
    func resolve() throws -> Workload { try shape.resolve() }

    /// Refuses, before any work, a workload whose generated samples could exceed `--max-actions`
    /// each.
    func checkSize(of workload: Workload) throws { try shape.checkSize(of: workload) }

    /// The samples of an imported usage log (one per user-day or per user, as `--sample` says,
    /// each cut to its first `--hours` if given), read row by row
    /// (``UsageLogImport/read(_:workload:sampling:hours:keeping:)``): memory holds the rows, not the
    /// text. Skipped event types are reported once each on standard error.
    func importedTraces(workload: Workload) throws -> [UsageLogImport.UserTrace]? {
        guard let usageLog else { return nil }
        let log: UsageLogImport.Log
        let lines = try UsageLogFile.lines(usageLog)
        do throws(InputError) {
            log = try UsageLogImport.read(
                lines, workload: workload, sampling: sample, hours: hours, format: sampling.format)
        } catch {
            throw CLIError.malformed(error.description)
        }
        UsageLogFile.report(log, file: InputFile.displayName(usageLog), forced: sampling.format != nil)
        guard !log.samples.isEmpty else {
            throw CLIError.malformed(
                "\(InputFile.displayName(usageLog)): no usable rows after the header (expected rows whose event "
                    + "opens or closes an app)")
        }
        return log.samples
    }
}
