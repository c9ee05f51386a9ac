import Foundation
import Testing
import TestSupport

// Issue 14: replay reads its trace line by line; a log longer than the first pass keeps
// (100,000 events) is printed by a second pass over the file, byte for byte the same.
@Suite("mempressure replay streams its trace")
struct StreamedReplayCommandTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mempressure-streamed-\(getpid())-\(name)").path
    }

    @Test("a log of more than 100,000 events is the simulation's log, from a file and from standard input")
    func secondPassLog() throws {
        let trace = Self.temporaryPath("server.jsonl")
        let events = Self.temporaryPath("server-events.jsonl")
        defer { for path in [trace, events] { try? FileManager.default.removeItem(atPath: path) } }
        let simulated = try runMempressure([
            "simulate", "--workload", "server", "--hours", "5", "--seed", "2", "--policy", "ios4", "--trace-out", trace,
            "--events-out", events,
        ])
        #expect(simulated.status == 0, "\(simulated.standardError)")
        let log = try String(contentsOfFile: events, encoding: .utf8)
        #expect(log.split(separator: "\n").count > 100_000)
        let fromFile = try runMempressure(["replay", trace, "--format", "jsonl"])
        #expect(fromFile.status == 0, "\(fromFile.standardError)")
        #expect(fromFile.standardOutput == log)
        let fromStandardInput = try runMempressure(
            ["replay", "-", "--format", "jsonl"], input: try String(contentsOfFile: trace, encoding: .utf8))
        #expect(fromStandardInput.standardOutput == log)
        // The text log: a header, then one line per event, columns as wide as the widest event.
        let text = try runMempressure(["replay", trace])
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == log.split(separator: "\n").count + 2)  // header, events, final newline
        // Every event's type starts where the header's "event" does: the columns were measured
        // over the whole log before the first line was printed.
        let header = Array(lines[0])
        let column = try #require(String(lines[0]).range(of: "event")).lowerBound.utf16Offset(in: String(lines[0]))
        #expect(header[column - 1] == " ")
        for line in lines.dropFirst().dropLast() {
            let characters = Array(line)
            #expect(characters[column - 1] == " " && characters[column] != " ", "\(line)")
        }
    }

    @Test("an error found after the first 100,000 events still prints no log")
    func lateErrorPrintsNothing() throws {
        let trace = Self.temporaryPath("late-error.jsonl")
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let simulated = try runMempressure([
            "simulate", "--workload", "server", "--hours", "5", "--seed", "2", "--trace-out", trace,
        ])
        #expect(simulated.status == 0, "\(simulated.standardError)")
        var text = try String(contentsOfFile: trace, encoding: .utf8)
        let lines = text.split(separator: "\n").count
        text += "{\"t\":1e9,\"event\":\"bogus\"}\n"
        try text.write(toFile: trace, atomically: true, encoding: .utf8)
        let result = try runMempressure(["replay", trace, "--format", "jsonl"])
        #expect(result.status == 65)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("\(lines + 1):"), "\(result.standardError)")
        #expect(result.standardError.contains("unknown event \"bogus\""), "\(result.standardError)")
    }
}
