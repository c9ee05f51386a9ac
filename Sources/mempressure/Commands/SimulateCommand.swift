import ArgumentParser
import MemoryPressure
import MemoryPressureJemalloc
import MemoryPressureSimulation

/// `mempressure simulate`: one policy, one generated (or imported) trace, its metrics.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Generate a seeded workload trace, replay it under a policy, and report the metrics.",
        discussion: """
            The same workload and seed always give the same trace and the same metrics (the engine's \
            own speed aside). Save the trace with --trace-out to edit or replay it later.

            With --real-memory, the trace is replayed a second time through the same policy with \
            every simulated byte really allocated in its app's own jemalloc arena (1/N of it with \
            --scale N), and a table of the bytes the engine expected each kill and purge to free \
            against the bytes jemalloc measured follows the metrics. It defaults to --apps 200 \
            --hours 2 (give either to override). A jemalloc failure exits with 71.
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    @OptionGroup var policy: PolicyOption
    @OptionGroup var workload: WorkloadOptions

    @Option(help: "The seed of the generated trace.")
    var seed: UInt64 = 1

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
            measured bytes freed by kills and purges. Defaults to --apps 200 --hours 2.
            """))
    var realMemory = false

    @Option(
        help: ArgumentHelp(
            "With --real-memory: allocate 1/N of every simulated byte (default 16; 1 allocates every byte).",
            valueName: "N"))
    var scale: Int?

    /// The real-memory run's defaults, smaller than the workload's own so it fits in memory and time.
    static let realMemoryApps = 200
    static let realMemoryHours = 2.0

    func validate() throws {
        if scale != nil && !realMemory { throw ValidationError("--scale needs --real-memory") }
        if let scale, scale < 1 || scale > 1 << 20 {
            throw ValidationError("--scale must be 1...1048576, got \(scale)")
        }
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
            let trace: Trace
            if let users = try workload.importedTraces(workload: resolved) {
                trace = users[0].trace
            } else {
                trace = WorkloadGenerator(workload: resolved, seed: seed).trace(seed: seed)
            }
            if let traceOut { try OutputFile.write(trace.jsonLines, to: traceOut) }
            let progress = ProgressIndicator("simulating")
            var log = ""
            let run: SimulationRun
            do throws(EngineError) {
                run = try SimulationRun.run(
                    trace, policy: policy,
                    onEvents: eventsOut == nil
                        ? nil : { events in for event in events { log += event.jsonLine + "\n" } },
                    progress: progress.update)
            } catch {
                throw CLIError.malformed("policy \(policy.name): \(error)")
            }
            progress.finish()
            if let eventsOut { try OutputFile.write(log, to: eventsOut) }
            let comparison = Comparison(
                workload: resolved.name, policies: [policy.name], seeds: [seed], runs: [[run]], device: trace.device,
                policyValues: [policy])
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
            throw CLIError.malformed("policy \(policy.name): \(error)")
        } catch {
            throw CLIError.systemFailure("--real-memory: \(error)")
        }
    }
}
