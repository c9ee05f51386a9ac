import ArgumentParser
import MemoryPressureSimulation

/// The chart options shared by `sweep` and `merge`: where to draw, which metric, against which
/// swept parameter.
struct SweepChartOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Also write an SVG chart of --metric against a swept parameter.", valueName: "file"))
    var svg: String?

    @Option(
        name: .customLong("metric"),
        help: ArgumentHelp(
            "The metric the chart draws (a JSON key such as launchWait, kills). (default: launchWait)",
            valueName: "key"))
    var metricKey: String?

    /// The metric the chart draws: `--metric`, or the launch wait.
    var metric: String { metricKey ?? "launchWait" }

    @Option(
        name: .customLong("x"),
        help: ArgumentHelp(
            "The swept parameter on the chart's horizontal axis. (default: the first with several values)",
            valueName: "name"))
    var xParameter: String?

    func validate() throws {
        if svg == nil, let given = metricKey != nil ? "--metric" : xParameter != nil ? "--x" : nil {
            throw ValidationError("\(given) shapes the --svg chart: give --svg FILE or drop \(given)")
        }
        guard MetricDefinition.named(metric)?.isDeterministic == true else {
            throw ValidationError(
                "--metric \(metric): expected one of "
                    + MetricDefinition.all.filter(\.isDeterministic).map(\.key).joined(separator: ", "))
        }
    }

    /// The chart's parameter: --x, or the first with several values, or the first.
    func parameterIndex(_ grid: [SweepParameter]) throws -> Int? {
        if let xParameter {
            guard let index = grid.firstIndex(where: { $0.name == xParameter }) else {
                throw CLIError.usage(
                    "--x \(xParameter) is not a swept parameter; swept: \(grid.map(\.name).joined(separator: ", "))")
            }
            return index
        }
        return grid.firstIndex { $0.values.count > 1 } ?? (grid.isEmpty ? nil : 0)
    }
}
