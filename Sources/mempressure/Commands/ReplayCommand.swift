import ArgumentParser
import MemoryPressure
import MemoryPressureFormats
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

            An action aimed at an app the policy has killed is skipped and counted (the count \
            follows the text log, or goes to standard error with --format jsonl), as in simulate \
            and compare; any other impossible action is an error naming its line (exit 65).
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
            let parsed = try TraceFile.load(trace)
            var events: [Event] = []
            let outcome: Replay.Outcome
            do {
                outcome = try Replay.run(parsed, policy: policy, file: InputFile.displayName(trace)) { events += $0 }
            } catch let error as ReplayError {
                throw CLIError.malformed(error.description)
            }
            let skipped =
                outcome.skipped == 0
                ? ""
                : "\(outcome.skipped) action\(outcome.skipped == 1 ? "" : "s") skipped: aimed at apps the policy had killed\n"
            switch format {
            case .text:
                try StandardOutput.write(EventLogText.format(events) + skipped)
            case .jsonl:
                var out = ""
                for event in events { out += event.jsonLine + "\n" }
                try StandardOutput.write(out)
                if !skipped.isEmpty { StandardError.write(skipped) }
            }
        }
    }
}
