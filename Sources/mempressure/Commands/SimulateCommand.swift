import ArgumentParser
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureJemalloc
import MemoryPressureSimulation

/// `mempressure simulate`: one policy, one generated (or imported) trace, its metrics.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Generate a seeded workload trace, replay it under a policy, and report the metrics.",
        discussion: """
            The same workload and seed always give the same trace and the same metrics (the engine's \
            own speed aside): simulate --seed S --policy P is exactly run S of compare --policies P. \
            For the phone workload each seed is another person. Save the trace with --trace-out to \
            edit or replay it later: replaying it gives the same metrics under every policy.

            With --usage-log every user of the log is a sample (the table shows the mean over users \
            with its 95 % interval); --user picks one, and --trace-out or --events-out need one.

            With --real-memory, the trace is replayed a second time through the same policy with \
            every simulated byte really allocated in its app's own jemalloc arena (1/N of it with \
            --scale N), and a table of the bytes the engine expected each kill and purge to free \
            against the bytes jemalloc measured follows the metrics. It defaults to --apps 200 \
            and at most 24 hours (give either to override). A jemalloc failure exits with 71.
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    @OptionGroup var policy: PolicyOption
    @OptionGroup var workload: WorkloadOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The seed of the generated trace (the user, for the phone workload): 0...2^64-1. (default: 1)",
            valueName: "s"))
    var seed: UInt64?

    @Option(
        help: ArgumentHelp(
            "With --usage-log: only this user of the log (every day of it), or one sample named \"USER DAY\".",
            valueName: "id"))
    var user: String?

    @Option(help: ArgumentHelp("Write the generated trace (JSON Lines) to this file.", valueName: "file"))
    var traceOut: String?

    @Option(help: ArgumentHelp("Write the event log (JSON Lines) to this file.", valueName: "file"))
    var eventsOut: String?

    @Option(help: "Output format: table or json.")
    var format: Format = .table

    @Flag(
        help: ArgumentHelp(
            """
            Also replay the trace on real memory (one jemalloc arena per app) and report expected vs \
            measured bytes freed by kills and purges. Defaults to --apps 200 and at most 24 hours.
            """))
    var realMemory = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --real-memory: allocate 1/N of every simulated byte: 1...1048576 (1 allocates every byte). (default: 16)",
            valueName: "N"))
    var scale: Int?

    /// The real-memory run's defaults, smaller than the workload's own so it fits in memory and time.
    static let realMemoryApps = 200
    static let realMemoryHours = 24.0

    func validate() throws {
        if user != nil && workload.usageLog == nil { throw ValidationError("--user needs --usage-log") }
        if workload.usageLog != nil && workload.shape.maxActionsGiven != nil {
            throw ValidationError(WorkloadShapeOptions.maxActionsWithFiles("--usage-log"))
        }
        if seed != nil && workload.usageLog != nil {
            throw ValidationError(
                "--usage-log gives the samples and --seed chooses a generated one: drop --seed (--user picks a user "
                    + "of the log)")
        }
        if scale != nil && !realMemory { throw ValidationError("--scale needs --real-memory") }
        try OptionRange.check(scale, in: 1...1 << 20, "--scale")
    }

    func run() throws {
        try reportingErrors {
            let policy = try policy.resolve()
            var resolved = try workload.resolve()
            if realMemory {
                if workload.apps == nil {
                    resolved.apps = min(resolved.apps, Self.realMemoryApps)
                    resolved.preload = min(resolved.preload, resolved.apps)
                }
                if workload.hours == nil { resolved.hours = min(resolved.hours, Self.realMemoryHours) }
            }
            try OutputFile.validate(
                [(traceOut, "--trace-out"), (eventsOut, "--events-out")],
                inputs: [workload.usageLog, workload.shape.workload, self.policy.policy].compactMap { $0 })
            var samples: [(label: String, trace: Trace)]
            if let users = try workload.importedTraces(workload: resolved) {
                let chosen = user.map { user in users.filter { $0.user == user || $0.label == user } } ?? users
                samples = chosen.map { ($0.label, $0.trace) }
                if let user {
                    guard !samples.isEmpty else {
                        throw CLIError.usage("--user \(user): no such user in \(workload.usageLog ?? "the log")")
                    }
                }
                if samples.count > 1 && (traceOut != nil || eventsOut != nil || realMemory) {
                    throw CLIError.usage(
                        "the usage log has \(samples.count) samples: pick one with --user (a user, or with --sample "
                            + "day a user and day such as \"u1 2018-01-16\") for --trace-out, --events-out or --real-memory"
                    )
                }
            } else {
                try workload.checkSize(of: resolved)
                let seed = self.seed ?? 1
                samples = [(String(seed), WorkloadGenerator(workload: resolved).trace(seed: seed))]
            }
            let trace = samples[0].trace
            if let traceOut { try OutputFile.write(trace.jsonLines, to: traceOut, option: "--trace-out") }
            let progress = ProgressIndicator("simulating")
            var log = ""
            var runs: [SimulationRun] = []
            for (index, sample) in samples.enumerated() {
                do throws(ReplayError) {
                    runs.append(
                        try SimulationRun.run(
                            sample.trace, policy: policy, launchCost: resolved.launchCost, file: sample.label,
                            onEvents: eventsOut == nil
                                ? nil : { events in for event in events { log += event.jsonLine + "\n" } },
                            progress: { progress.update((Double(index) + $0) / Double(samples.count)) }))
                } catch {
                    throw CLIError.malformed(error.description)
                }
            }
            progress.finish()
            if let eventsOut { try OutputFile.write(log, to: eventsOut, option: "--events-out") }
            let comparison = Comparison(
                workload: workload.usageLog == nil ? resolved.name : "usage log", policies: [policy.name],
                samples: samples.map(\.label), runs: [runs],
                device: trace.device, policyValues: [policy])
            let realMemoryReport = realMemory ? try runOnRealMemory(trace, policy: policy) : nil
            switch (format, realMemoryReport) {
            case (.table, let real):
                try StandardOutput.write(ComparisonReport(comparison).table + (real?.table ?? ""))
            case (.json, nil):
                try StandardOutput.write(ComparisonReport(comparison).json)
            case (.json, let real?):
                var simulation = ComparisonReport(comparison).json
                if simulation.hasSuffix("\n") { simulation.removeLast() }
                try StandardOutput.write("{\"simulation\":\(simulation),\"realMemory\":\(real.json)}\n")
            }
        }
    }

    /// Replays `trace` under `policy` through a ``RealMemoryHost``, every byte allocated (scaled)
    /// in its app's arena.
    private func runOnRealMemory(_ trace: Trace, policy: Policy) throws -> RealMemoryReportFormat {
        let divisor = scale ?? 16
        let progress = ProgressIndicator("allocating")
        defer { progress.finish() }
        do throws(RealMemoryError) {
            let configuration = RealMemoryConfiguration(scale: 1 / Double(divisor))
            let host = try RealMemoryHost(device: trace.device, policy: policy, configuration: configuration)
            let total = Double(max(trace.entries.count, 1))
            let refused = try host.replay(
                trace.entries.lazy.map { (time: $0.time, action: $0.action) },
                progress: { progress.update(Double($0) / total) })
            return RealMemoryReportFormat(
                report: host.report, scaleDivisor: divisor, arenas: host.arenaCount, refused: refused)
        } catch .engine(let error) {
            // The file the user gave, if the policy came from one.
            let given = self.policy.policy.flatMap {
                Policy.shippedNames.contains($0) ? nil : InputFile.displayName($0)
            }
            throw CLIError.malformed(
                "\(given.map { "\($0) (policy \(policy.name))" } ?? "policy \(policy.name)"): \(error)")
        } catch {
            throw CLIError.systemFailure("--real-memory: \(error)")
        }
    }
}
