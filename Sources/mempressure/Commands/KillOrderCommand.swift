import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureLinux
import MemoryPressureSimulation

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

            A real report is read too, and recognised by its content: a Linux kernel OOM report \
            (dmesg, journalctl -k or kern.log; every report in the log), earlyoom's log, an iOS \
            JetsamEvent report (.ips, bug_type 298), or Android's dumpsys meminfo (who lmkd would \
            kill next). The \
            machine is rebuilt as the report shows it, ranked by the policy of the system that \
            wrote it (or --policy), and the process that really died is marked, with where the \
            policy ranks it and why. What the report does not say is listed, never guessed.
            """
    )

    /// The output formats of the report.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, jsonl, csv
    }

    /// What the input is.
    enum InputFormat: String, ExpressibleByArgument, CaseIterable {
        case auto, snapshot
        case linuxOOMReport = "linux-oom-report"
        case earlyoom
        case jetsamEvent = "jetsam-event"
        case androidMeminfo = "android-meminfo"
        case androidLog = "android-log"
    }

    @Argument(help: "The snapshot or report file, or - for standard input.")
    var snapshot: String?

    @Option(
        help: ArgumentHelp(
            "What the input is: auto (recognised by its content), snapshot, linux-oom-report, earlyoom, jetsam-event, "
                + "android-meminfo or android-log.",
            valueName: "format"))
    var inputFormat: InputFormat = .auto

    @Option(
        help: ArgumentHelp(
            "With a real report: also show where each of these policies ranks the real victims (comma-separated, or all).",
            valueName: "list"))
    var policies: String?

    @Flag(help: "Rank this Linux machine's processes (from /proc) instead of a snapshot.")
    var live = false

    @OptionGroup var policy: PolicyOption

    @Option(
        help: ArgumentHelp(
            "Output format: table (for people), json (the report contract; an array for a log of several reports), "
                + "jsonl (one report a line) or csv (one header; a real report's rows carry its number, pid and killed)."
        )
    )
    var format: Format = .table

    @Option(parsing: .unconditional, help: "Show at most this many victims: 0 or more (default: all).")
    var limit: Int?

    @Flag(help: "Also show the packed key (band, order value, tie-breaker) that ordered each row.")
    var explain = false

    @Flag(
        help: ArgumentHelp(
            "The whole log's kill history instead of one ranking per report (with --live: this machine's own kernel "
                + "log, from journalctl -k, the syslog files or /dev/kmsg): a line per kill (time, killer, victim, "
                + "pid, memory, reason, the killer's own policy's verdict), the kills per process, the log's first "
                + "and last times and the memory the reports state. Every report kind of the log at once; - reads "
                + "standard input (journalctl -k | mempressure kill-order --history -)."))
    var history = false

    @Option(
        help: ArgumentHelp(
            "With --history: only the kills of processes whose name contains this text.", valueName: "text"))
    var name: String?

    @Option(
        help: ArgumentHelp(
            "With --history: only the kills at or after this time, written as the log writes its times: "
                + "'Jun 20 12:47:00' (syslog), '2026-09-10T21:54:23' (ISO 8601), '10-24 14:24:06' (logcat) or "
                + "'[15180285.6]' (dmesg's seconds since boot).", valueName: "time"))
    var since: String?

    @Option(
        help: ArgumentHelp(
            "With --history: only the kills at or before this time (the forms of --since).", valueName: "time"))
    var until: String?

    @Option(
        help: ArgumentHelp(
            "With --history: also write the kills over time as an SVG timeline (a row per process name, a mark per "
                + "kill, colored by killer).", valueName: "file"))
    var svg: String?

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, got \(limit)") }
        if live && snapshot != nil {
            throw ValidationError(history ? "give a log or --live, not both" : "give a snapshot or --live, not both")
        }
        if !live && snapshot == nil {
            throw ValidationError(
                history
                    ? "give a log (- for standard input) or --live for this machine's kernel log"
                    : "give a snapshot file (or --live for this machine)")
        }
        if live && inputFormat != .auto && inputFormat != .snapshot {
            throw ValidationError("--input-format \(inputFormat.rawValue) reads a file, not --live")
        }
        if live && policies != nil {
            throw ValidationError(
                "--policies ranks a real report's victims under other policies, not --live: use --policy")
        }
        if !history && (name != nil || since != nil || until != nil || svg != nil) {
            throw ValidationError("--name, --since, --until and --svg go with --history")
        }
        for (option, text) in [("--since", since), ("--until", until)] {
            if let text, Self.logTime(text) == nil {
                throw ValidationError(
                    "\(option): expected a time as a log writes it ('Jun 20 12:47:00', '2026-09-10T21:54:23', "
                        + "'10-24 14:24:06' or '[15180285.6]'), got '\(text)'")
            }
        }
        if let policies {
            for name in Self.policyNames(policies) where !Policy.shippedNames.contains(name) && name != "all" {
                guard !name.isEmpty else {
                    throw ValidationError("--policies: expected policy names separated by commas")
                }
            }
        }
    }

    /// The names in a `--policies` list (`all`: every shipped policy).
    static func policyNames(_ list: String) -> [String] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return names == ["all"] ? Policy.shippedNames : names
    }

    func run() throws {
        try reportingErrors {
            var file: InputFile.Rereadable?
            if history {
                try runHistory(log: try snapshot.map(Self.logSource), name: snapshot)
                return
            }
            if !live, let path = snapshot {
                let input = try InputFile.openRereadable(path)
                if let format = Self.evidenceFormat(of: input, declared: inputFormat) {
                    try runOnReport(input, name: InputFile.displayName(path), format: format)
                    return
                }
                file = input
                if policies != nil {
                    throw CLIError.usage(
                        "--policies ranks a real report's victims under other policies; "
                            + "\(InputFile.displayName(path)) is a snapshot: use --policy")
                }
            }
            let policy = try PolicyOption.refusingClairvoyant(try policy.resolve(), in: "kill-order")
            let machine = live ? try Self.liveMachine() : nil
            let engine: PressureEngine
            if let file, let streamed = Self.streamedEngine(file, policy: policy) {
                engine = streamed
            } else {
                let parsed =
                    try machine.map(\.engineSnapshot)
                    ?? Self.snapshot(from: file!, name: InputFile.displayName(snapshot ?? "-"))
                do throws(EngineError) {
                    engine = try PressureEngine(snapshot: parsed, policy: policy)
                } catch {
                    let source = live ? "/proc" : InputFile.displayName(snapshot ?? "-")
                    throw CLIError.malformed("\(source): \(Self.path(of: error, in: parsed))\(error)")
                }
            }
            var report = KillOrderReport(
                policy: policy.name, device: engine.device, free: engine.free, level: engine.levelForFreeMemory,
                order: engine.killOrder(limit: limit ?? Int.max), protected: engine.protectedApps(), explain: explain)
            if let machine { Self.describeLive(machine, into: &report) }
            if let note = Self.pressureRuleNote(engine, live: machine != nil) { report.notes.append(note) }
            switch format {
            case .table: try StandardOutput.write(report.table)
            case .json, .jsonl: try StandardOutput.write(report.json)
            case .csv: try StandardOutput.write(report.csv)
            }
        }
    }

    // MARK: - Kill history

    /// A `--since`/`--until` time: as a log line would start with it (a dmesg time may be a bare number).
    static func logTime(_ text: String) -> LogTime? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let time = LogTime.parse(trimmed) ?? LogTime.parse(trimmed + ":00") { return time }
        if let seconds = Double(trimmed) { return LogTime(text: trimmed, kind: .uptime, key: seconds) }
        return nil
    }

    /// `kill-order --history FILE`: every kill of the log, of every kind, in one view; with
    /// `--live` (no file), this machine's own kernel log.
    func runHistory(log: (source: LogLineScanner.Source, owner: AnyObject?)?, name path: String?) throws {
        var source = path.map(InputFile.displayName) ?? "this machine's kernel log"
        var reader = KillHistoryReader(source: source)
        if let log {
            try Self.scan(log.source, owner: log.owner, name: source, into: &reader)
        } else {
            let name = try MachineKernelLog.read { line, number throws(InputError) in
                try reader.consume(line, lineNumber: number)
            }
            source += " (\(name))"
        }
        var result = reader.finish()
        let since = since.flatMap(Self.logTime), until = until.flatMap(Self.logTime)
        var untimed = 0
        if let name { result = result.filter { $0.victim.contains(name) } }
        if since != nil || until != nil {
            result = result.filter { entry in
                guard let time = entry.time, time.kind == (since ?? until)!.kind else {
                    untimed += 1
                    return false
                }
                return time.key >= (since?.key ?? -.infinity) && time.key <= (until?.key ?? .infinity)
            }
        }
        if untimed > 0 {
            StandardError.write(
                "mempressure: note: \(untimed) kill(s) left out by --since/--until: their lines carry no time of the "
                    + "form given\n")
        }
        if let svg {
            try OutputFile.write(KillHistoryChart(history: result, source: source).svg, to: svg, option: "--svg")
        }
        let report = KillHistoryReport(history: result, source: source)
        switch format {
        case .table: try StandardOutput.write(report.table)
        case .json: try StandardOutput.write(report.document)
        case .jsonl: try StandardOutput.write(report.jsonLines)
        case .csv: try StandardOutput.write(report.csv)
        }
    }

    // MARK: - Real reports

    /// The kind of real report `file` holds, or `nil` for a snapshot.
    static func evidenceFormat(of file: InputFile.Rereadable, declared: InputFormat) -> EvidenceFormat? {
        switch declared {
        case .snapshot: nil
        case .linuxOOMReport: .linuxOOMReport
        case .earlyoom: .earlyoom
        case .jetsamEvent: .jetsamEvent
        case .androidMeminfo: .androidMeminfo
        case .androidLog: .androidLog
        case .auto:
            autoDetected(file)
        }
    }

    /// The report format of `file` by its content: its first lines, or — unless it starts like a
    /// snapshot — the first report line found anywhere in it (a syslog whose first report comes
    /// after thousands of other lines).
    static func autoDetected(_ file: InputFile.Rereadable) -> EvidenceFormat? {
        let head = InputFile.peek(file)
        if let format = EvidenceFormat.detect(InputText.lines(head).prefix(400)) { return format }
        if looksLikeSnapshot(head) { return nil }
        return ReportScan.firstFormat(in: file)
    }

    /// `kill-order REPORT`: every report in the file, each ranked and set against its real victims.
    func runOnReport(_ file: InputFile.Rereadable, name: String, format evidenceFormat: EvidenceFormat) throws {
        let evidence = try Self.readEvidence(file, name: name, format: evidenceFormat)
        let policy = try PolicyOption.refusingClairvoyant(
            try policy.resolve(defaultName: evidenceFormat.matchingPolicy), in: "kill-order")
        let others = try (policies.map(Self.policyNames) ?? []).map {
            try PolicyOption.refusingClairvoyant(try PolicyOption.load($0, option: "--policies"), in: "kill-order")
        }
        var reports: [KillOrderReport] = []
        for (offset, item) in evidence.enumerated() {
            let ranking = try Self.rank(item, policy: policy, name: name)
            var section = KillOrderReport.EvidenceSection(
                evidence: item, ranking: ranking, index: offset + 1, count: evidence.count)
            for other in others {
                let theirs = try Self.rank(item, policy: other, name: name)
                section.policies.append(
                    .init(
                        policy: other.name, ranks: item.killed.map { $0.app.flatMap { theirs?.rank(of: $0) } },
                        first: theirs?.order.first?.app))
            }
            var report = KillOrderReport(
                policy: policy.name, device: item.snapshot?.device ?? Device(memory: .zero),
                free: ranking?.free ?? .zero, level: ranking?.level ?? .normal,
                order: Array((ranking?.order ?? []).prefix(limit ?? Int.max)), protected: ranking?.protected ?? [],
                explain: explain)
            report.evidence = section
            reports.append(report)
        }
        switch format {
        case .table: try StandardOutput.write(reports.map(\.table).joined(separator: "\n"))
        case .json:
            let documents = reports.map { String($0.json.dropLast()) }
            try StandardOutput.write(
                documents.count == 1 ? documents[0] + "\n" : "[" + documents.joined(separator: ",") + "]\n")
        case .jsonl: try StandardOutput.write(reports.map(\.json).joined())
        case .csv:
            // One header; each row names its report. The policies' ranks are a second table, which
            // CSV cannot carry beside the first.
            if !others.isEmpty {
                StandardError.write(
                    "mempressure: note: --format csv carries the kill order; where --policies ranks the victims "
                        + "is in --format table or json\n")
            }
            try StandardOutput.write((reports.first?.csv ?? "") + reports.dropFirst().map(\.csvRows).joined())
        }
    }

    /// The ranking of `evidence` under `policy`, the engine's refusal worded as malformed input.
    static func rank(_ evidence: ReportEvidence, policy: Policy, name: String) throws -> EvidenceRanking? {
        do throws(EngineError) {
            return try EvidenceRanking(evidence, policy: policy)
        } catch {
            throw CLIError.malformed("\(name), \(evidence.location): \(error)")
        }
    }

    /// Every report in `file`, read a line at a time.
    static func readEvidence(_ file: InputFile.Rereadable, name: String, format: EvidenceFormat) throws
        -> [ReportEvidence]
    {
        var evidence: [ReportEvidence] = []
        switch format {
        case .linuxOOMReport, .earlyoom, .androidLog:
            var reader = EvidenceLogReader(format: format, source: name)
            try scan(.file(file.descriptor), owner: file, name: name, into: &reader)
            evidence = reader.finish()
        case .jetsamEvent:
            let text = try InputFile.read(file, name: name)
            do throws(InputError) {
                evidence.append(try JetsamEventReportParser.report(in: text, file: name).evidence(source: name))
            } catch {
                throw CLIError.malformed(error.description)
            }
        case .androidMeminfo:
            let text = try InputFile.read(file, name: name)
            do throws(InputError) {
                evidence.append(try AndroidMeminfoReport.parse(text, file: name).evidence(source: name))
            } catch {
                throw CLIError.malformed(error.description)
            }
        }
        guard !evidence.isEmpty else {
            throw CLIError.malformed("\(name): \(format.noReportMessage)")
        }
        return evidence
    }

    /// Reads the log `source` into `consumer` at the speed of its bytes (``LogLineScanner``: only
    /// the lines it must read are decoded), in bounded memory.
    static func scan<Consumer: PassingOverLineConsumer>(
        _ source: LogLineScanner.Source, owner: AnyObject?, name: String, into consumer: inout Consumer
    ) throws {
        let scanner = LogLineScanner(source, file: name, owner: owner)
        do throws(InputError) {
            try scanner.run(&consumer)
        } catch {
            throw CLIError.malformed(error.description)
        }
    }

    /// The log at `path` as ``scan(_:owner:name:into:)`` reads it: a file with `pread`; standard
    /// input as it comes, never copied or held whole, whatever its length (`journalctl -k |
    /// mempressure kill-order --history -`).
    static func logSource(_ path: String) throws -> (source: LogLineScanner.Source, owner: AnyObject?) {
        if path == "-" {
            var info = stat()
            if fstat(STDIN_FILENO, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
                return (.descriptor(STDIN_FILENO), nil)
            }
        }
        let file = try InputFile.openRereadable(path)
        return (.file(file.descriptor), file)
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

    /// The engine for the JSON snapshot in `file`, built in one pass from its bytes as they are
    /// read and freed (no ``Snapshot`` and no copy of the whole text held beside the engine), or
    /// `nil` when that pass cannot judge the file: then ``snapshot(from:name:)`` reads it, and its
    /// errors name the place.
    static func streamedEngine(_ file: InputFile.Rereadable, policy: Policy) -> PressureEngine? {
        InputFile.withReleasableBytes(file) { bytes, release in
            PressureEngine.streamingSnapshot(bytes, policy: policy, release: release)
        } ?? nil
    }

    /// The snapshot in `file`, named `name` in errors.
    static func snapshot(from file: InputFile.Rereadable, name: String) throws -> Snapshot {
        let text = try InputFile.read(file, name: name)
        do throws(InputError) {
            return try Snapshot(text: text, file: name)
        } catch {
            guard looksLikeSnapshot(text) else { throw CLIError.malformed(notAReport(name)) }
            throw CLIError.malformed(error.description)
        }
    }

    /// Whether `text` starts like a snapshot (its first line that is not blank or a comment is a
    /// JSON object or array, a YAML list item or a YAML `key:`), so that the snapshot's parse
    /// error is the one to show.
    static func looksLikeSnapshot(_ text: String) -> Bool {
        for line in InputText.lines(text).prefix(200) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed == "---" { continue }
            if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") || trimmed.hasPrefix("- ") { return true }
            // A YAML key (`device:`, `apps:` or any other `name:`): the snapshot's own error says more.
            let key = trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
            let after = trimmed.dropFirst(key.count)
            if key.first?.isLetter == true, after.hasPrefix(":"),
                after.dropFirst().first.map({ $0 == " " || $0 == "\t" }) ?? true
            {
                return true
            }
            return false
        }
        return false
    }

    /// The message for an input that is neither a report nor a snapshot: the formats tried.
    static func notAReport(_ name: String) -> String {
        "\(name): no known report or snapshot found; formats tried: "
            + EvidenceFormat.allCases.map { "\($0.rawValue) (\($0.marker))" }.joined(separator: "; ")
            + "; snapshot (a YAML or JSON document with device: and apps:). "
            + "Use --input-format FORMAT to read it as one of them"
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

    /// Under a policy with systemd-oomd's memory-pressure rule, what that rule would kill instead of
    /// the ranking's first: the ranking is its other rule's, and the pressure rule acts only once
    /// the stall's average has stayed above its limit, which a snapshot has no history of.
    static func pressureRuleNote(_ engine: PressureEngine, live: Bool) -> String? {
        guard let rule = engine.policy.memoryPressureLimit else { return nil }
        var note = String(
            format:
                "memory-pressure rule: once PSI full avg10 has stayed above %.2f%% for %g s (with reclaim in the last %g s), ",
            rule.limitPercent, rule.durationSeconds, rule.reclaimWithinSeconds)
        note += "it kills the app with the most resident memory instead"
        if let victim = engine.memoryPressureLimitVictim { note += ": \(victim.escaped)" }
        note += live ? "; the machine's PSI reading is on the line above" : "; a snapshot holds no stall history"
        return note
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
