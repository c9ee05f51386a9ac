import ArgumentParser
import MemoryPressure
import MemoryPressureSimulation

/// The workload options shared by `simulate` and `compare`.
struct WorkloadOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A workload file (YAML), or a built-in workload: phone (default) or server.", valueName: "file|name"))
    var workload: String = "phone"

    @Option(help: "Override the number of installed apps (tenants).")
    var apps: Int?

    @Option(help: "Override the simulated duration, in hours.")
    var hours: Double?

    @Option(
        help: ArgumentHelp(
            "Replay a real app-usage log instead (CSV/TSV: user, session, timestamp, app, event Opened/Closed); each user's day is one trace.",
            valueName: "file"))
    var usageLog: String?

    func validate() throws {
        if let apps, apps < 1 || apps > 1_000_000 { throw ValidationError("--apps must be 1...1000000, got \(apps)") }
        if let hours, hours <= 0 || hours > 24 * 365 {
            throw ValidationError("--hours must be above 0 and at most 8760, got \(hours)")
        }
    }

    /// The workload the options describe.
    func resolve() throws -> Workload {
        var resolved: Workload
        if let builtIn = Workload.builtIn[workload] {
            resolved = builtIn
        } else {
            let text = try InputFile.read(workload)
            do throws(InputError) {
                resolved = try Workload(yaml: text, file: InputFile.displayName(workload))
            } catch {
                throw CLIError.malformed(error.description)
            }
        }
        if let apps {
            resolved.apps = apps
            resolved.preload = min(resolved.preload, apps)
        }
        if let hours { resolved.hours = hours }
        return resolved
    }

    /// The traces of an imported usage log, one per user.
    func importedTraces(workload: Workload) throws -> [UsageLogImport.UserTrace]? {
        guard let usageLog else { return nil }
        let text = try InputFile.read(usageLog)
        let users: [UsageLogImport.UserTrace]
        do throws(InputError) {
            users = try UsageLogImport.parse(text, file: InputFile.displayName(usageLog), workload: workload)
        } catch {
            throw CLIError.malformed(error.description)
        }
        guard !users.isEmpty else { throw CLIError.malformed("\(usageLog): no rows after the header") }
        return users
    }
}
