import ArgumentParser
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// `mempressure experiment`: a published experiment replayed as a built-in workload, its
/// simulated result printed beside the paper's measured one.
struct ExperimentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "experiment",
        abstract: "Replay a published experiment and print the simulated result beside the measured one.",
        discussion: """
            fleet-cached-apps: Fleet's cached-app experiment (ASPLOS '24, Figure 11(c); \
            github.com/jiachengh/Fleet): 18 commercial apps launched one after another, twice, on \
            a 4 GB Pixel 3 (Android 10): Home, 2 s, launch, count, 30 s of use. After each of the 36 \
            launches it counts the apps of the 18 with a live process, the launched one included, \
            as Fleet did, under four configurations: linux-oom (what ran: Fleet's builds had \
            lmkd's kills disabled), lmkd as the Pixel 3 configured it (a counterfactual), today's \
            lmkd in PSI mode, and linux-oom over a 2 GiB swap file on flash (Fleet's "w/ swap" \
            runs). Footprints: three apps measured by Ariadne (HPCA 2025, Table 1), the others \
            assumed by kind; docs/fleet-replay.md has every parameter and its source. Deterministic: \
            no seed.
            """
    )

    /// The experiments.
    enum Experiment: String, ExpressibleByArgument, CaseIterable {
        case fleetCachedApps = "fleet-cached-apps"
    }

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv, trace
    }

    @Argument(help: "The experiment to replay.")
    var experiment: Experiment

    @Option(
        help: ArgumentHelp(
            "Memory held by the system, not available to the apps (an assumption: no measurement was found): a size "
                + "from 0 up to, not including, 4GiB, such as 1GiB or 1536MiB.",
            valueName: "size"))
    var reserved: String = "1.5GiB"

    @Option(
        help: """
            Output format: table (for people), json (every figure and the apps' footprints), csv (the steps) \
            or trace (the scripted trace as JSON Lines, to replay under any policy with mempressure replay).
            """)
    var format: Format = .table

    /// `--reserved` as bytes.
    var reservedBytes: Bytes? { Bytes(parsing: reserved) }

    func validate() throws {
        guard let bytes = reservedBytes, bytes < FleetCachedApps.memory else {
            throw ValidationError("--reserved must be a size from 0 up to, not including, 4GiB, got \(reserved)")
        }
    }

    func run() throws {
        try reportingErrors {
            let experiment = FleetCachedApps(reserved: reservedBytes ?? FleetCachedApps.defaultReserved)
            if format == .trace {
                try StandardOutput.write(experiment.trace.jsonLines)
                return
            }
            let configurations = try FleetCachedApps.configurations()
            var series: [FleetCachedApps.Series] = []
            for configuration in configurations {
                do {
                    series.append(try experiment.replay(under: configuration.policy))
                } catch {
                    throw CLIError.malformed("\(configuration.label): \(error)")
                }
            }
            let report = FleetReport(experiment: experiment, configurations: configurations, series: series)
            switch format {
            case .table: try StandardOutput.write(report.table)
            case .json: try StandardOutput.write(report.json)
            case .csv: try StandardOutput.write(report.csv)
            case .trace: break
            }
        }
    }
}
