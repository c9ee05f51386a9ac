import ArgumentParser
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureLinux

/// `mempressure kill-order`: who dies next, and why.
struct KillOrderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kill-order",
        abstract: "Rank the apps of a snapshot as the policy would kill them: who dies next, and why.",
        discussion: """
            A snapshot (YAML or JSON) gives the device and its apps: \
            device: {memory: 1GiB, reserved: 200MiB} and apps: [{id, state, footprint, …}]. \
            With --live, this Linux machine's processes are ranked instead (read-only: no \
            signal is ever sent). The report lists the victims in order with the reason for \
            each, then the apps the policy never kills. Nothing is killed: the ranking is read \
            from the kill queue. With --live, this tool's own process is left out of the ranking \
            (and listed as not ranked), and the memory PSI reading is shown against lmkd's \
            default triggers.
            """
    )

    /// The output formats of the report.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    @Argument(help: "The snapshot file (YAML or JSON), or - for standard input.")
    var snapshot: String?

    @Flag(help: "Rank this Linux machine's processes (from /proc) instead of a snapshot.")
    var live = false

    @OptionGroup var policy: PolicyOption

    @Option(help: "Output format: table (for people), json (the report contract) or csv.")
    var format: Format = .table

    @Option(parsing: .unconditional, help: "Show at most this many victims: 0 or more (default: all).")
    var limit: Int?

    @Flag(help: "Also show the packed key (band, order value, tie-breaker) that ordered each row.")
    var explain = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, got \(limit)") }
        if live && snapshot != nil { throw ValidationError("give a snapshot or --live, not both") }
        if !live && snapshot == nil { throw ValidationError("give a snapshot file (or --live for this machine)") }
    }

    func run() throws {
        try reportingErrors {
            let policy = try policy.resolve()
            let machine = live ? try Self.liveMachine() : nil
            let parsed = try machine.map(\.engineSnapshot) ?? Self.snapshot(from: snapshot ?? "-")
            let engine: PressureEngine
            do throws(EngineError) {
                engine = try PressureEngine(snapshot: parsed, policy: policy)
            } catch {
                let source = live ? "/proc" : InputFile.displayName(snapshot ?? "-")
                throw CLIError.malformed("\(source): \(Self.path(of: error, in: parsed))\(error)")
            }
            var report = KillOrderReport(
                policy: policy.name, device: parsed.device, free: engine.free, level: engine.levelForFreeMemory,
                order: engine.killOrder(limit: limit ?? Int.max), protected: engine.protectedApps(), explain: explain)
            if let machine { Self.describeLive(machine, into: &report) }
            switch format {
            case .table: try StandardOutput.write(report.table)
            case .json: try StandardOutput.write(report.json)
            case .csv: try StandardOutput.write(report.csv)
            }
        }
    }

    /// `apps[3]: ` for an engine error about the fourth app of `snapshot`, or nothing.
    static func path(of error: EngineError, in snapshot: Snapshot) -> String {
        let app: AppID
        switch error {
        case .sizeLimit(let id, _), .duplicateApp(let id), .footprintTooSmall(let id, _, _): app = id
        case .alreadyForeground:
            // The second foreground app is the one refused.
            let foreground = snapshot.apps.indices.filter { snapshot.apps[$0].state.isForeground }
            return foreground.count > 1 ? "apps[\(foreground[1])]: " : ""
        default: return ""
        }
        return snapshot.apps.firstIndex { $0.id == app }.map { "apps[\($0)]: " } ?? ""
    }

    /// The snapshot in the file at `path`.
    static func snapshot(from path: String) throws -> Snapshot {
        let text = try InputFile.read(path)
        do throws(InputError) {
            return try Snapshot(text: text, file: InputFile.displayName(path))
        } catch {
            throw CLIError.malformed(error.description)
        }
    }

    /// This machine, read from /proc (without each process's kernel `oom_score`: no report shows it).
    static func liveMachine() throws -> LinuxSystemSnapshot {
        do throws(LinuxReadError) {
            return try LinuxSystemSnapshot.read(from: .live, includingKernelScores: false)
        } catch {
            throw CLIError.notFound("cannot read this machine's memory: \(error)")
        }
    }

    /// This machine, read from /proc, as an engine snapshot (this process left out).
    static func liveSnapshot() throws -> Snapshot {
        try liveMachine().engineSnapshot
    }

    /// What a live report adds: this tool's own process, left out, and the PSI reading.
    static func describeLive(_ machine: LinuxSystemSnapshot, into report: inout KillOrderReport) {
        if let id = machine.excludedProcessID {
            let name = machine.excludedProcess?.appID.rawValue ?? "mempressure[\(id.rawValue)]"
            report.excluded = [(name, "this tool's own process (a killer never ranks itself)")]
        }
        if let stall = machine.pressure {
            let triggers = LMKDStallThresholds.defaults
            var note = String(
                format: "PSI memory: some avg10 %.2f%%, full avg10 %.2f%%", stall.some.avg10, stall.full?.avg10 ?? 0)
            note += String(
                format: "; lmkd's default triggers (ro.lmk.use_psi): some %.0f%%, full %.0f%% of a 1 s window",
                triggers.partialStallPercent, triggers.completeStallPercent)
            note += " → \(triggers.level(of: stall).rawValue)"
            report.notes.append(note)
        }
    }
}
