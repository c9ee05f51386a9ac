import ArgumentParser
import MemoryPressure

/// `mempressure kill-order`: who dies next, and why.
struct KillOrderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kill-order",
        abstract: "Rank the apps of a snapshot as the policy would kill them: who dies next, and why.",
        discussion: """
            A snapshot (YAML or JSON) gives the device and its apps: \
            device: {memory: 1GiB, reserved: 200MiB} and apps: [{id, state, footprint, …}]. \
            The report lists the victims in order with the reason for each, then the apps the \
            policy never kills. Nothing is killed: the ranking is read from the kill queue.
            """
    )

    /// The output formats of the report.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    @Argument(help: "The snapshot file (YAML or JSON), or - for standard input.")
    var snapshot: String

    @OptionGroup var policy: PolicyOption

    @Option(help: "Output format: table (for people), json (the report contract) or csv.")
    var format: Format = .table

    @Option(help: "Show at most this many victims (default: all).")
    var limit: Int?

    @Flag(help: "Also show the packed key (band, order value, tie-breaker) that ordered each row.")
    var explain = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, got \(limit)") }
    }

    func run() throws {
        try reportingErrors {
            let policy = try policy.resolve()
            let text = try InputFile.read(snapshot)
            let parsed: Snapshot
            do throws(InputError) {
                parsed = try Snapshot(text: text, file: InputFile.displayName(snapshot))
            } catch {
                throw CLIError.malformed(error.description)
            }
            let engine: PressureEngine
            do throws(EngineError) {
                engine = try PressureEngine(snapshot: parsed, policy: policy)
            } catch {
                throw CLIError.malformed("\(InputFile.displayName(snapshot)): \(error)")
            }
            let report = KillOrderReport(
                policy: policy.name, device: parsed.device, free: engine.free, level: engine.levelForFreeMemory,
                order: engine.killOrder(limit: limit ?? Int.max), protected: engine.protectedApps(), explain: explain)
            switch format {
            case .table: try StandardOutput.write(report.table)
            case .json: try StandardOutput.write(report.json)
            case .csv: try StandardOutput.write(report.csv)
            }
        }
    }
}
