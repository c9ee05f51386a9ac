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
            let input = try TraceFile.open(trace)
            var opens: [AppID: [Double]]? = nil
            if Oracle.isClairvoyant(policy) {
                var reader = input.reader()
                do throws(InputError) {
                    opens = try TraceSummary(reading: &reader, keepingOpens: true).openTimes
                } catch {
                    throw CLIError.malformed(String(describing: reader.wholeFileError(for: error)))
                }
            }
            // The first pass checks every line and every action, so an error prints no log, and
            // measures the text columns. A log of at most `heldEvents` events is kept and printed
            // after it; a longer one is dropped and printed by a second pass as it is produced.
            var widths = EventLogText.Widths()
            var held: [Event]? = []
            var outcome = try replay(input, policy: policy, opens: opens) { events in
                widths.measure(events)
                guard held != nil else { return }
                held! += events
                if held!.count > Self.heldEvents { held = nil }
            }
            var output = format == .text ? EventLogText.header(widths) : ""
            func append(_ events: [Event]) {
                switch format {
                case .text: EventLogText.append(events, widths: widths, to: &output)
                case .jsonl: for event in events { output += event.jsonLine + "\n" }
                }
            }
            if let held {
                append(held)
            } else {
                outcome = try replay(input, policy: policy, opens: opens) { events in
                    append(events)
                    if output.utf8.count >= Self.outputChunk {
                        try StandardOutput.write(output)
                        output = ""
                    }
                }
            }
            let skipped =
                outcome.skipped == 0
                ? ""
                : "\(outcome.skipped) action\(outcome.skipped == 1 ? "" : "s") skipped: aimed at apps the policy had killed\n"
            switch format {
            case .text:
                try StandardOutput.write(output + skipped)
            case .jsonl:
                try StandardOutput.write(output)
                if !skipped.isEmpty { StandardError.write(skipped) }
            }
        }
    }

    /// How much of the log a second pass gathers before writing it: 64 KiB.
    static let outputChunk = 64 << 10

    /// The most events the first pass keeps to print without a second pass (about 100 bytes
    /// each in memory).
    static let heldEvents = 100_000

    /// One streamed replay of the trace `input` holds, with malformed lines and refused actions
    /// as exit 65 (the first a whole-file read would report).
    @discardableResult
    private func replay(
        _ input: TraceFile.Input, policy: Policy, opens: [AppID: [Double]]?, sink: ([Event]) throws -> Void
    ) throws -> Replay.Outcome {
        var reader = input.reader()
        do {
            return try Replay.run(&reader, policy: policy, openTimes: opens, file: input.name, sink: sink)
        } catch let error as ReplayError {
            throw CLIError.malformed(error.description)
        } catch let error as InputError {
            throw CLIError.malformed(error.description)
        }
    }
}
