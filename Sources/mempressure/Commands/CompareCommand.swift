import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureSimulation

/// `mempressure compare`: every policy replays the very same traces; which one hurts users least?
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Replay the same workload traces under several policies and compare them side by side.",
        discussion: """
            With no arguments, every shipped policy runs on the built-in phone workload (a day of a \
            512 MiB phone with 5,000 apps) for 3 seeds. Each metric shows its mean ± spread over \
            the seeds; * marks the best policy. Runs use both cores and give the same results as a \
            sequential run.
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Policies to compare, comma-separated names or files. (default: every shipped policy)", valueName: "a,b,…"))
    var policies: [String] = []

    @OptionGroup var workload: WorkloadOptions

    @Option(help: "How many seeds (traces) to run; seeds are 1...N.")
    var seeds: Int = 3

    @Option(help: "Output format: table, json or csv.")
    var format: Format = .table

    @Option(
        help: ArgumentHelp(
            "Also write an SVG chart (kills, cold relaunches, free memory over time).", valueName: "file"))
    var svg: String?

    @Option(help: "How many runs at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        if seeds < 1 || seeds > 1000 { throw ValidationError("--seeds must be 1...1000, got \(seeds)") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    }

    func run() async throws {
        try await reportingErrorsAsync {
            let names = policies.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
            let chosen = try (names.isEmpty ? Policy.shippedNames : names).map(PolicyOption.load)
            let resolved = try workload.resolve()
            let progress = ProgressIndicator("comparing")
            let report: @Sendable (Int, Int) -> Void = { done, total in progress.update(Double(done) / Double(total)) }
            let comparison: Comparison
            if let users = try workload.importedTraces(workload: resolved) {
                comparison = try await Comparison.run(
                    traces: users.map(\.trace), name: "usage log", policies: chosen,
                    seeds: users.indices.map { UInt64($0 + 1) }, parallelism: jobs, progress: report)
            } else {
                comparison = try await Comparison.run(
                    workload: resolved, policies: chosen, seeds: (1...seeds).map(UInt64.init), parallelism: jobs,
                    progress: report)
            }
            progress.finish()
            let output = ComparisonReport(comparison)
            if let svg { try OutputFile.write(ComparisonChart(comparison).svg, to: svg) }
            switch format {
            case .table: try StandardOutput.write(output.table)
            case .json: try StandardOutput.write(output.json)
            case .csv: try StandardOutput.write(output.csv)
            }
        }
    }
}
