import Foundation
import Testing
import TestSupport

@Suite("mempressure simulate --real-memory")
struct SimulateRealMemoryTests {
    /// The table's lines without the wall-clock figures (the only ones that differ between runs),
    /// spaces collapsed (the column widths follow the widest figure, wall-clock ones included).
    static func withoutTimings(_ table: String) -> [String] {
        table.split(separator: "\n")
            .filter { !$0.hasPrefix("engine events/s") && !$0.hasPrefix("engine ns/decision") }
            .map { $0.split(separator: " ").joined(separator: " ") }
    }

    @Test("a small workload on real memory exits 0 and agrees within 5 %")
    func smallWorkloadAgrees() throws {
        let result = try runMempressure(["simulate", "--real-memory", "--apps", "50", "--hours", "24", "--seed", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.standardOutput
        #expect(
            output.contains("real memory: every simulated byte allocated in its app's own jemalloc arena at 1/16 scale")
        )
        #expect(output.contains("RELEASED BY  COUNT"))
        #expect(
            output.contains("verdict: expected and measured bytes agree within 5 % for every kill and purge"),
            "\(output)")
        let table = try #require(output.range(of: "RELEASED BY")).upperBound
        for row in ["kills", "purges", "all"] {
            let line = try #require(output[table...].split(separator: "\n").first { $0.hasPrefix(row + " ") })
            #expect(line.hasSuffix("yes"), "\(line)")
        }
    }

    @Test("the metrics are those of simulate without the flag, and nothing else changes without it")
    func metricsUnchanged() throws {
        let arguments = ["simulate", "--apps", "50", "--hours", "24", "--seed", "3"]
        let plain = try runMempressure(arguments)
        let real = try runMempressure(arguments + ["--real-memory", "--scale", "32"])
        #expect(plain.status == 0 && real.status == 0, "\(plain.standardError)\(real.standardError)")
        #expect(!plain.standardOutput.contains("real memory"))
        let metrics = Self.withoutTimings(plain.standardOutput)
        #expect(Array(Self.withoutTimings(real.standardOutput).prefix(metrics.count)) == metrics)
        #expect(real.standardOutput.contains("at 1/32 scale"))
    }

    @Test("--real-memory defaults to 200 apps for a day, as --help says")
    func defaults() throws {
        let help = try runMempressure(["simulate", "--help"])
        #expect(help.standardOutput.contains("--apps 200 and at most 24 hours"))
        let real = try runMempressure(["simulate", "--real-memory", "--format", "json"])
        let explicit = try runMempressure([
            "simulate", "--real-memory", "--apps", "200", "--hours", "24", "--format", "json",
        ])
        #expect(real.status == 0 && explicit.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(real.standardOutput.utf8)) as? [String: Any]
        let other = try JSONSerialization.jsonObject(with: Data(explicit.standardOutput.utf8)) as? [String: Any]
        let memory = try #require(object?["realMemory"] as? [String: Any])
        let otherMemory = try #require(other?["realMemory"] as? [String: Any])
        #expect(memory["withinTolerance"] as? Bool == true)
        #expect(memory["scaleDivisor"] as? Int == 16)
        for key in ["kills", "purges", "all"] {
            let summary = try #require(memory[key] as? [String: Any])
            let otherSummary = try #require(otherMemory[key] as? [String: Any])
            #expect(summary["count"] as? Int == otherSummary["count"] as? Int)
            #expect(summary["expected"] as? Int == otherSummary["expected"] as? Int)
        }
        #expect((object?["simulation"] as? [String: Any])?["policies"] != nil)
    }

    @Test(
        "--scale needs --real-memory and a positive divisor (exit 64)",
        arguments: [
            ["simulate", "--scale", "4"], ["simulate", "--real-memory", "--scale", "0"],
        ])
    func badScale(arguments: [String]) throws {
        let result = try runMempressure(arguments)
        #expect(result.status == 64)
        #expect(result.standardError.contains("--scale"), "\(result.standardError)")
    }
}
