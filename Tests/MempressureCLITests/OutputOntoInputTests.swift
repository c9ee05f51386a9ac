import Foundation
import Testing
import TestSupport

// Issue 23, items 3 and 4: an output path that is an input is refused before any work (exit 64,
// both named), through symbolic and hard links; an error about an input file names the path the
// user gave, not the `name:` inside it.

@Suite("outputs never replace inputs; errors name the file given")
struct OutputOntoInputTests {
    /// A fresh directory holding a generated trace `day.jsonl`.
    static func directoryWithTrace() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mempressure-\(getpid())-onto-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let trace = directory.appendingPathComponent("day.jsonl").path
        let made = try runMempressure(["simulate", "--seed", "3", "--hours", "2", "--trace-out", trace])
        #expect(made.status == 0, "\(made.standardError)")
        return directory
    }

    @Test(
        "compare --svg onto its --trace, by the same path, a symbolic link or a hard link: exit 64, the trace unharmed")
    func svgOntoTrace() throws {
        let directory = try Self.directoryWithTrace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("day.jsonl").path
        let before = try Data(contentsOf: URL(fileURLWithPath: trace))
        let symbolic = directory.appendingPathComponent("link.jsonl").path
        let hard = directory.appendingPathComponent("hard.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: trace)
        try FileManager.default.linkItem(atPath: trace, toPath: hard)
        for output in [trace, symbolic, hard] {
            let result = try runMempressure(["compare", "--trace", trace, "--svg", output, "--policies", "ios4"])
            #expect(result.status == 64, "\(output): \(result.standardError)")
            #expect(result.standardError.contains("--svg \(output) is the same file as the input \(trace)"))
            #expect(result.standardOutput.isEmpty, "refused before any work")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before)
        // Another path is written as before.
        let chart = directory.appendingPathComponent("chart.svg").path
        let written = try runMempressure(["compare", "--trace", trace, "--svg", chart, "--policies", "ios4"])
        #expect(written.status == 0, "\(written.standardError)")
    }

    @Test("simulate's outputs onto its usage log, or onto each other, and merge's output onto a part")
    func otherCommands() throws {
        let directory = try Self.directoryWithTrace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log.csv").path
        try FileManager.default.copyItem(atPath: "Examples/usage/sample.csv", toPath: log)
        let ontoLog = try runMempressure([
            "simulate", "--usage-log", log, "--user", "u1", "--events-out", log,
        ])
        #expect(ontoLog.status == 64)
        #expect(ontoLog.standardError.contains("--events-out \(log) is the same file as the input \(log)"))
        let fresh = directory.appendingPathComponent("new.jsonl").path
        let twice = try runMempressure([
            "simulate", "--trace-out", fresh, "--events-out", directory.path + "/./new.jsonl",
        ])
        #expect(twice.status == 64)
        #expect(twice.standardError.contains("are the same file"), "\(twice.standardError)")
        #expect(!FileManager.default.fileExists(atPath: fresh))
        let part = directory.appendingPathComponent("part.json").path
        let shard = try runMempressure([
            "sweep", "--param", "memory=256MiB", "--seeds", "2", "--policies", "ios4", "--hours", "1", "--shard", "1/1",
            "--output", part,
        ])
        #expect(shard.status == 0, "\(shard.standardError)")
        let merged = try runMempressure(["merge", part, "--output", part])
        #expect(merged.status == 64)
        #expect(merged.standardError.contains("--output \(part) is the same file as the input \(part)"))
    }

    @Test("the policy file of oracle@FILE is an input too: compare's and sweep's outputs refuse it, the file unharmed")
    func outputOntoALifecycleReference() throws {
        let directory = try Self.directoryWithTrace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = directory.appendingPathComponent("mine.yaml").path
        let shown = try runMempressure(["policy", "show", "predictive"])
        #expect(shown.status == 0, "\(shown.standardError)")
        try shown.standardOutput.write(toFile: policy, atomically: true, encoding: .utf8)
        let compare = try runMempressure([
            "compare", "--policies", "jetsam,oracle@\(policy)", "--seeds", "2", "--svg", policy,
        ])
        #expect(compare.status == 64)
        #expect(
            compare.standardError.contains("--svg \(policy) is the same file as the input \(policy)"),
            "\(compare.standardError)")
        let sweep = try runMempressure([
            "sweep", "--param", "memory=256MiB", "--seeds", "1", "--hours", "1", "--policies",
            "ios4,informed@\(policy)",
        ])
        #expect(sweep.status == 64, "informed is a reference of compare only")
        let onto = try runMempressure([
            "sweep", "--param", "memory=256MiB", "--seeds", "1", "--hours", "1", "--policies", "ios4,oracle@\(policy)",
            "--output", policy,
        ])
        #expect(onto.status == 64)
        #expect(
            onto.standardError.contains("--output \(policy) is the same file as the input \(policy)"),
            "\(onto.standardError)")
        #expect(try String(contentsOfFile: policy, encoding: .utf8) == shown.standardOutput)
    }

    @Test("a workload file too large for --max-actions is named by its path, not by the name inside it")
    func workloadErrorNamesTheFile() throws {
        let directory = try Self.directoryWithTrace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hours.yaml").path
        try "base: phone\nname: phone\nusage:\n  hours: 1e9\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try runMempressure(["simulate", "--workload", file])
        #expect(result.status == 64)
        #expect(
            result.standardError.contains("\(file) (workload phone): a sample could hold about"),
            "\(result.standardError)")
        let overridden = try runMempressure(["simulate", "--hours", "8000"])
        #expect(overridden.standardError.contains("workload phone with --hours 8000.0: a sample could hold"))
    }
}
