import ArgumentParser
import MemoryPressure
import MemoryPressureSimulation

/// `mempressure replay`: runs a trace through the engine and prints the event log.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace (JSON Lines) and print the event log.",
        discussion: """
            Each line of the trace is one user or system action with a time `t` in seconds, for \
            example {"t":0,"event":"launch","app":"com.example.mail","footprint":"40MiB"}. The \
            log lists every callback, state change, level change, purge and kill, in order.
            """
    )

    /// The output formats of the event log.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, jsonl
    }

    @Argument(help: "The trace file (JSON Lines), or - for standard input.")
    var trace: String

    @OptionGroup var policy: PolicyOption

    @Option(help: "Output format: text (aligned, for people) or jsonl (the event-log contract).")
    var format: Format = .text

    func run() throws {
        try reportingErrors {
            let policy = try policy.resolve()
            let text = try InputFile.read(trace)
            let name = InputFile.displayName(trace)
            let parsed: Trace
            do throws(InputError) {
                parsed = try Trace(jsonLines: text, file: name)
            } catch {
                throw CLIError.malformed(error.description)
            }
            let events: [Event]
            do {
                events = try Replay.events(parsed, policy: policy, file: name)
            } catch let error as ReplayError {
                throw CLIError.malformed(error.description)
            }
            switch format {
            case .text:
                try StandardOutput.write(EventLogText.format(events))
            case .jsonl:
                var out = ""
                for event in events { out += event.jsonLine + "\n" }
                try StandardOutput.write(out)
            }
        }
    }
}
