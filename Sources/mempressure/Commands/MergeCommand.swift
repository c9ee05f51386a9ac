import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureSimulation

/// `mempressure merge`: the parts of a sharded sweep, combined into what the unsharded run prints.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the parts of a sharded sweep (sweep --shard i/n) into the sweep's report.",
        discussion: """
            Every part of the sweep must be given once, in any order: parts of another sweep \
            (another fingerprint), a shard given twice or a missing shard are refused (exit 65). \
            The output is byte for byte what the unsharded sweep prints in the same format.
            """
    )

    @Argument(help: ArgumentHelp("The parts, as sweep --shard wrote them.", valueName: "part"))
    var parts: [String] = []

    @Option(help: "Output format: table, json or csv.")
    var format: SweepCommand.Format = .table

    @OptionGroup var chart: SweepChartOptions

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        if parts.isEmpty { throw ValidationError("expected at least one part") }
    }

    func run() async throws {
        try await reportingErrorsAsync {
            try OutputFile.validate([(chart.svg, "--svg"), (output, "--output")], inputs: parts)
            var parsed: [(name: String, part: SweepPart)] = []
            for path in parts {
                let name = InputFile.displayName(path)
                let text = try InputFile.read(path)
                do throws(SweepError) {
                    parsed.append((name, try SweepPart(parsing: text, name: name)))
                } catch {
                    throw CLIError.malformed(error.message)
                }
            }
            let result: SweepResult
            do throws(SweepError) { result = try SweepResult(merging: parsed) } catch {
                throw CLIError.malformed(error.message)
            }
            let grid = result.definition.parameters
            let parameter = try chart.parameterIndex(grid)
            try SweepCommand.render(
                result, format: format, svg: chart.svg, metric: chart.metric, parameter: parameter, output: output)
        }
    }
}
