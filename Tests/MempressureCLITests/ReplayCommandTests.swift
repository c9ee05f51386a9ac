import Foundation
import MemoryPressureFormats
import Testing
import TestSupport

@Suite("mempressure replay")
struct ReplayCommandTests {
    /// Every example trace shipped in Examples/traces.
    static let traces: [String] = {
        let directory = PackagePaths.path("Examples/traces")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted()
    }()

    @Test("the example traces exist")
    func examplesExist() {
        #expect(Self.traces.count >= 14)
    }

    @Test("each example trace's event log matches its golden file, in both formats", arguments: traces)
    func golden(trace: String) throws {
        let name = String(trace.dropLast(".jsonl".count))
        for format in ["text", "jsonl"] {
            let result = try runMempressure(["replay", "Examples/traces/\(trace)", "--format", format])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.isEmpty)
            let mismatch = goldenMismatch(result.standardOutput, "replay/\(name).\(format)")
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    @Test("replaying twice gives byte-identical output")
    func deterministic() throws {
        let first = try runMempressure(["replay", "Examples/traces/13-pressure-episode.jsonl", "--format", "jsonl"])
        let second = try runMempressure(["replay", "Examples/traces/13-pressure-episode.jsonl", "--format", "jsonl"])
        #expect(first.standardOutput == second.standardOutput)
        #expect(first.standardOutput.contains("\"type\":\"kill\""))
    }

    @Test(
        "a malformed trace is reported with its line and what was expected (exit 65), and nothing is printed",
        arguments: [
            (
                "{\"t\":0,\"event\":\"home\"}\n{\"t\":1,\"event\":\"launch\",\"app\":\"A\"}\n",
                "<stdin>:2:1: missing key \"footprint\": expected a size such as 4096 or 40MiB"
            ),
            (
                "{\"t\":0,\"event\":\"launch\",\"app\":\"A\",\"footprint\":\"40MiB\"}\n{\"t\":1,\"event\":\"home\",}\n",
                "<stdin>:2:23: expected a member name in double quotes, found '}'"
            ),
            ("{\"t\":0,\"event\":\"jump\"}\n", "<stdin>:1: event: unknown event \"jump\"; expected device, launch"),
            (
                "{\"t\":5,\"event\":\"tick\"}\n{\"t\":4,\"event\":\"tick\"}\n",
                "<stdin>:2: t: time 4 is before the previous line's 5"
            ),
            (
                "{\"t\":0,\"event\":\"allocate\",\"app\":\"A\",\"bytes\":true}\n",
                "<stdin>:1:45: bytes: expected a size such as 4096, 640KiB or 40MiB, found true"
            ),
            ("{\"t\":0,\"event\":\"home\",\"colour\":1}\n", "<stdin>:1:23: unknown key \"colour\"; expected t, event"),
            ("[1,2]\n", "<stdin>:1:1: expected a mapping of keys to values, found a list"),
            (
                "{\"t\":0,\"event\":\"launch\",\"app\":\"A\",\"footprint\":\"40MiB\"}\n{\"t\":1,\"event\":\"launch\",\"app\":\"A\",\"footprint\":\"40MiB\"}\n",
                "<stdin>:2: cannot launch A: it is already running (active)"
            ),
        ])
    func malformed(input: String, message: String) throws {
        let result = try runMempressure(["replay", "-", "--format", "jsonl"], input: input)
        #expect(result.status == 65)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test("a missing trace file exits 66")
    func missingFile() throws {
        let result = try runMempressure(["replay", "no/such/trace.jsonl"])
        #expect(result.status == 66)
        #expect(result.standardError.contains("no/such/trace.jsonl: no such file"))
    }

    @Test("bad usage exits 64")
    func badUsage() throws {
        #expect(try runMempressure(["replay"]).status == 64)
        #expect(try runMempressure(["replay", "x.jsonl", "--format", "xml"]).status == 64)
    }
}

@Suite("mempressure")
struct RootCommandTests {
    @Test("--help lists the subcommands and the exit codes")
    func help() throws {
        let result = try runMempressure(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("replay"))
        #expect(result.standardOutput.contains("65 malformed input"))
    }
}
