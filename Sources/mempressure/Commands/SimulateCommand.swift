import ArgumentParser
import MemoryPressure
import MemoryPressureSimulation

/// `mempressure simulate`: one policy, one generated (or imported) trace, its metrics.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Generate a seeded workload trace, replay it under a policy, and report the metrics.",
        discussion: """
            The same workload and seed always give the same trace and the same metrics (the engine's \
            own speed aside). Save the trace with --trace-out to edit or replay it later.
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

    func run() throws {
        try reportingErrors {
            let policy = try policy.resolve()
            let resolved = try workload.resolve()
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
                    onEvents: eventsOut == nil ? nil : { events in for event in events { log += event.jsonLine + "\n" } },
                    progress: progress.update)
            } catch {
                throw CLIError.malformed("policy \(policy.name): \(error)")
            }
            progress.finish()
            if let eventsOut { try OutputFile.write(log, to: eventsOut) }
            let comparison = Comparison(
                workload: resolved.name, policies: [policy.name], seeds: [seed], runs: [[run]], device: trace.device,
                policyValues: [policy])
            switch format {
            case .table: try StandardOutput.write(ComparisonReport(comparison).table)
            case .json: try StandardOutput.write(ComparisonReport(comparison).json)
            }
        }
    }
}
