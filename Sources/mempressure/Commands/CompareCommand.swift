import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// `mempressure compare`: every policy replays the very same samples; which one hurts users least?
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract:
            "Replay the same samples (user-days, usage-log users, traces) under several policies and compare them.",
        discussion: """
            With no arguments, every shipped policy and the clairvoyant oracle (which knows the rest \
            of each trace) run on the built-in phone workload, each seed a different person's day. \
            Without --seeds, the number of seeds is chosen sequentially: 30, then doubling up to \
            --max-seeds, until every paired launch-wait difference against the baseline is resolved \
            (at a level split over the looks) or its 95 % interval is within ±half of --resolve \
            seconds (docs/statistics.md); the report says where and why it stopped. A row says \
            what share of the gap between the baseline and the oracle (the first of oracle and \
            oracle@P given, else of oracle-prewarm and oracle-prewarm@P) each policy closes. Every \
            metric shows its mean per sample with a 95 % confidence interval. A paired section then compares every policy with a baseline on the \
            same samples (the real killer with the lowest mean launch wait unless --baseline names one): the mean \
            difference, its 95 % interval and a p-value adjusted for the number of policies (Holm). \
            A difference is called better or worse only where its interval excludes zero. Runs use \
            every core and give the same results as a sequential run.

            Samples come from --seeds (generated users), --usage-log (each user in the log) or \
            --trace (each file one sample).
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    /// The policies compared by default: every shipped one and the clairvoyant oracle.
    static var defaultPolicies: [String] { Policy.shippedNames + [Oracle.name] }

    /// How many seeds `sweep` runs by default, and the first look of `compare`'s sequential rule.
    static let defaultSeeds = SequentialSampling.standard.first

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Policies to compare, comma-separated names or files; oracle is the clairvoyant reference (oracle-prewarm: one "
                + "that also prewarms the app opened next), informed the one told "
                + "each generated user's true app weights; all three keep ios4's lifecycle, and oracle@P, "
                + "oracle-prewarm@P and informed@P keep that of the policy P (a name or a file) instead "
                + "(informed@P prices a kill by P's horizon too); predictive@P is P with predictive's learnt "
                + "victim choice (and, where P compresses, what reclaim compresses first), the learner oracle@P bounds. "
                + "(default: every shipped policy and oracle)",
            valueName: "a,b,…"))
    var policies: [String] = []

    @OptionGroup var workload: WorkloadOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many seeds (generated samples) to run: 1...10000, from --first-seed on. (default: chosen sequentially, "
                + "see --resolve)",
            valueName: "n"))
    var seeds: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Without --seeds: the difference in launch wait, in seconds per sample, the run must resolve: "
                + "0.01...3600. (default: \(Event.number(SequentialSampling.standard.resolve)))",
            valueName: "s"))
    var resolve: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Without --seeds: the most seeds the sequential rule runs: 30...10000. (default: "
                + "\(SequentialSampling.standard.maximum))", valueName: "n"))
    var maxSeeds: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The first seed: seeds run from it to it + N − 1 (0...2^63-1). (default: 1)", valueName: "s"))
    var firstSeed: UInt64?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Replay the first hours of every sample without counting them (the policies learn from them; the "
                + "metrics start after): 0...8760, below the sample's length; with generated seeds or --usage-log.",
            valueName: "h"))
    var warmUp: Double = 0

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Compare on these trace files instead (JSON Lines; each file is one sample).", valueName: "file"))
    var trace: [String] = []

    @Option(
        help: ArgumentHelp(
            "Compare on a real Android device's logs (logcat -b events and -b main): each day's activity resumes "
                + "are the samples, and each policy's kills are set against the device's own (precision and recall, "
                + "per hour and per day).",
            valueName: "file"))
    var eventLog: String?

    @Option(
        help: ArgumentHelp(
            "The policy the paired differences are taken against. (default: the lowest mean launch wait)",
            valueName: "name"))
    var baseline: String?

    @Option(help: "Output format: table, json or csv.")
    var format: Format = .table

    @Option(
        help: ArgumentHelp(
            "Also write an SVG chart: the key metrics with their intervals, the paired differences, free memory.",
            valueName: "file"))
    var svg: String?

    @OptionGroup var jobs: JobsOption

    /// How many runs at once: `--jobs`, or one per core.
    private var parallelism: Int { jobs.parallelism }

    func validate() throws {
        try OptionRange.checkSeeds(seeds)
        if let resolve, !(0.01...3600).contains(resolve) {
            throw ValidationError("--resolve must be 0.01...3600 seconds, got \(resolve)")
        }
        if !(0...8760).contains(warmUp) { throw ValidationError("--warm-up must be 0...8760 hours, got \(warmUp)") }
        if warmUp > 0 && (!trace.isEmpty || eventLog != nil) {
            throw ValidationError("--warm-up works with generated seeds and --usage-log, not --trace or --event-log")
        }
        if (!trace.isEmpty || eventLog != nil) && (workload.shape.hours != nil || workload.shape.apps != nil) {
            throw ValidationError(
                "--hours and --apps shape generated samples (--hours also a usage log's); --trace and --event-log "
                    + "replay their files whole: drop them")
        }
        if let hours = workload.shape.hours, warmUp > 0 && warmUp >= hours {
            throw ValidationError(
                "--warm-up (\(warmUp) h) must be shorter than --hours (\(hours) h): nothing would be counted")
        }
        if workload.usageLog != nil && workload.sample == .day && warmUp >= 24 {
            throw ValidationError(
                "--warm-up (\(warmUp) h) must be shorter than a day, the length of a usage log's samples with "
                    + "--sample day: nothing would be counted (--sample user replays each user's whole log)")
        }
        try OptionRange.check(maxSeeds, in: 30...10_000, "--max-seeds")
        try OptionRange.checkFirstSeed(firstSeed)
        let sources = [!trace.isEmpty, workload.usageLog != nil, eventLog != nil].filter { $0 }.count
        if sources > 1 {
            throw ValidationError("--trace, --usage-log and --event-log each give the samples: choose one")
        }
        // Options that choose generated seeds would be ignored where files give the samples, and the
        // sequential rule's where --seeds fixes their number: refused rather than ignored.
        let seedOptions = [("--seeds", seeds != nil), ("--first-seed", firstSeed != nil)]
        let sequentialOptions = [("--resolve", resolve != nil), ("--max-seeds", maxSeeds != nil)]
        let source = fileSource
        if let source, let given = (seedOptions + sequentialOptions).first(where: \.1)?.0 {
            throw ValidationError(WorkloadShapeOptions.seedOptionWithFiles(source, given))
        }
        if let source, workload.shape.maxActionsGiven != nil {
            throw ValidationError(WorkloadShapeOptions.maxActionsWithFiles(source))
        }
        if seeds != nil, let given = sequentialOptions.first(where: \.1)?.0 {
            throw ValidationError(
                "\(given) steers the sequential choice of how many seeds to run, which --seeds fixes: drop one of them")
        }
        if !policies.isEmpty && policyNames.isEmpty {
            throw ValidationError("--policies: expected policy names separated by commas")
        }
        let names = policyNames
        if let duplicate = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw ValidationError("--policies names \(duplicate) twice: every policy is one column")
        }
        // A policy given as a file is named inside it: the baseline is checked once policies are loaded.
        let given = names.isEmpty ? Self.defaultPolicies : names
        if let baseline, !given.contains(baseline), !given.contains(where: { !PolicyOption.isReference($0) }) {
            throw ValidationError("--baseline \(baseline) is not one of the policies compared")
        }
    }

    /// The option that gives the samples from files, if any: `--trace`, `--usage-log` or `--event-log`.
    private var fileSource: String? {
        if !trace.isEmpty { return "--trace" }
        if workload.usageLog != nil { return "--usage-log" }
        return eventLog != nil ? "--event-log" : nil
    }

    /// The samples of a usage log, one per user (`--sample user`), that act after `warmUp` hours:
    /// the log of one whose last action falls within the warm-up has ended, so it would count
    /// nothing, and its zeros would pull every mean down (a user whose log is shorter than the days
    /// a learning curve has reached). They are left out, and how many is said on standard error;
    /// if none is left, the run is refused. (A day's sample is a whole day, as a generated user's:
    /// a quiet evening after the warm-up is a real zero, kept.)
    private static func countable(_ users: [UsageLogImport.UserTrace], warmUp: Double, log: String) throws
        -> [UsageLogImport.UserTrace]
    {
        let kept = users.filter { ($0.trace.entries.last?.time ?? 0) >= warmUp * 3600 }
        let dropped = users.count - kept.count
        guard !kept.isEmpty else {
            throw CLIError.usage(
                "--warm-up (\(warmUp) h): every sample of \(InputFile.displayName(log)) ends within it: "
                    + "nothing would be counted")
        }
        if dropped > 0 {
            StandardError.write(
                "mempressure: \(InputFile.displayName(log)): \(dropped) of \(users.count) samples end within the "
                    + "\(Event.number(warmUp)) h warm-up and are left out (they would count nothing)\n")
        }
        return kept
    }

    /// The policy names or files given (empty for every shipped policy).
    private var policyNames: [String] {
        policies.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
    }

    func run() async throws {
        try await reportingErrorsAsync {
            let chosen = try (policyNames.isEmpty ? Self.defaultPolicies : policyNames).map {
                try PolicyOption.load($0, allowsInformed: true, option: "--policies")
            }
            if chosen.contains(where: Informed.isInformed)
                && (!trace.isEmpty || eventLog != nil || workload.usageLog != nil)
            {
                throw CLIError.usage(
                    "informed knows a generated user's app weights: it runs on generated seeds, not --trace, --usage-log or --event-log"
                )
            }
            let names = chosen.map(\.name)
            if let baseline, !names.contains(baseline) {
                throw CLIError.usage(
                    "--baseline \(baseline) is not one of the policies compared (\(names.joined(separator: ", ")))")
            }
            if let duplicate = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
                throw CLIError.usage("two of the policies compared are named \(duplicate): every policy is one column")
            }
            try OutputFile.validate(
                [(svg, "--svg")],
                inputs: trace + [workload.usageLog, eventLog, workload.shape.workload].compactMap { $0 }
                    + policyNames.compactMap(PolicyOption.file(of:)))
            let resolved = try workload.resolve()
            let progress = ProgressIndicator("comparing")
            let report: @Sendable (Int, Int) -> Void = { done, total in progress.update(Double(done) / Double(total)) }
            let comparison: Comparison
            var sampling: SequentialSampling.Outcome? = nil
            var validations: [KillValidation] = []
            if let eventLog {
                let days = try AndroidLogFile.days(eventLog, workload: resolved)
                comparison = try await Comparison.run(
                    traces: days.map(\.trace), name: "device log", policies: chosen, samples: days.map(\.date),
                    launchCost: resolved.launchCost, parallelism: parallelism, progress: report)
                for policy in chosen where !Oracle.isClairvoyant(policy) {
                    do {
                        validations.append(try KillValidation.measure(days, policy: policy))
                    } catch let error as ReplayError {
                        throw CLIError.malformed(error.description)
                    }
                }
                let unmatchable = days.reduce(0) { $0 + $1.unmatchableKills }
                if unmatchable > 0 {
                    StandardError.write(
                        "mempressure: \(InputFile.displayName(eventLog)): \(unmatchable) kill\(unmatchable == 1 ? "" : "s") "
                            + "of processes not opened that day (services, system processes) cannot be matched by a "
                            + "replay: left out of the recall\n")
                }
            } else if !trace.isEmpty {
                try InputFile.checkDistinct(trace, option: "--trace", because: "each file is one sample")
                // Each file is read again by each policy's run, line by line, rather than kept.
                let inputs = try trace.map(TraceFile.open)
                do {
                    comparison = try await Comparison.run(
                        reading: { inputs[$0].reader() }, name: "traces", policies: chosen,
                        samples: inputs.map(\.name), launchCost: resolved.launchCost, parallelism: parallelism,
                        progress: report)
                } catch let error as InputError {
                    throw CLIError.malformed(error.description)
                }
            } else if var users = try workload.importedTraces(workload: resolved) {
                if warmUp > 0 && workload.sample == .user {
                    users = try Self.countable(users, warmUp: warmUp, log: workload.usageLog ?? "")
                }
                comparison = try await Comparison.run(
                    traces: users.map(\.trace), name: "usage log", policies: chosen, samples: users.map(\.label),
                    launchCost: resolved.launchCost, warmUp: warmUp * 3600, parallelism: parallelism, progress: report)
            } else {
                try workload.checkSize(of: resolved)
                if warmUp > 0 && warmUp >= resolved.hours {
                    throw CLIError.usage(
                        "--warm-up (\(warmUp) h) must be shorter than the workload's \(resolved.hours) h: nothing would be counted"
                    )
                }
                if let seeds {
                    comparison = try await Comparison.run(
                        workload: resolved, policies: chosen,
                        seeds: (0..<UInt64(seeds)).map { (firstSeed ?? 1) + $0 },
                        warmUp: warmUp * 3600, parallelism: parallelism, progress: report)
                } else {
                    let rule = SequentialSampling(
                        resolve: resolve ?? SequentialSampling.standard.resolve,
                        first: SequentialSampling.standard.first,
                        maximum: maxSeeds ?? SequentialSampling.standard.maximum)
                    (comparison, sampling) = try await Comparison.run(
                        workload: resolved, policies: chosen, firstSeed: firstSeed ?? 1, sampling: rule,
                        baseline: baseline, warmUp: warmUp * 3600, parallelism: parallelism, progress: report)
                }
            }
            progress.finish()
            let output = ComparisonReport(
                comparison, baseline: comparison.baseline(named: baseline), sampling: sampling, warmUpHours: warmUp)
            if let svg { try OutputFile.write(ComparisonChart(output).svg, to: svg, option: "--svg") }
            let validation = KillValidationReport(validations)
            switch format {
            case .table: try StandardOutput.write(output.table + (validations.isEmpty ? "" : "\n" + validation.table))
            case .json:
                try StandardOutput.write(
                    validations.isEmpty
                        ? output.json : String(output.json.dropLast(2)) + ",\"validation\":" + validation.json + "}\n")
            case .csv: try StandardOutput.write(output.csv)
            }
        }
    }
}
