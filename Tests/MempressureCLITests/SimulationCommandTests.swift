import Foundation
import MemoryPressureFormats
import Testing
import TestSupport

@Suite("mempressure simulate and compare")
struct SimulationCommandTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mempressure-\(getpid())-\(name)").path
    }

    /// A JSON document without the wall-clock figures (the only ones that differ between runs).
    static func withoutTimings(_ json: String) throws -> NSDictionary {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! NSDictionary
        func strip(_ value: Any) -> Any {
            if let dictionary = value as? NSDictionary {
                let copy = NSMutableDictionary()
                for (key, item) in dictionary
                where !["eventsPerSecond", "nanosecondsPerDecision"].contains(key as! String) {
                    copy.setObject(strip(item), forKey: key as! NSString)
                }
                return copy
            }
            if let array = value as? NSArray { return array.map(strip) }
            return value
        }
        return strip(object) as! NSDictionary
    }

    @Test("simulate writes its trace and event log; replaying the trace gives the same event log")
    func simulateOutputsAgreeWithReplay() throws {
        let trace = Self.temporaryPath("trace.jsonl")
        let events = Self.temporaryPath("events.jsonl")
        let workload = Self.temporaryPath("roomy.yaml")
        defer {
            for path in [trace, events, workload] { try? FileManager.default.removeItem(atPath: path) }
        }
        // A device with room for everything: no kill makes an action of the trace impossible, so
        // replaying the trace must reproduce the simulation's log byte for byte.
        try "device: { memory: 16GiB, reserved: 1GiB }\n".write(toFile: workload, atomically: true, encoding: .utf8)
        let result = try runMempressure([
            "simulate", "--workload", workload, "--apps", "300", "--hours", "24", "--seed", "4", "--trace-out", trace,
            "--events-out", events,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("cold relaunches"))
        #expect(result.standardOutput.contains("kills by reason"))
        let log = try String(contentsOfFile: events, encoding: .utf8)
        #expect(log.contains("\"name\":\"willEnterForeground\""))
        let replay = try runMempressure(["replay", trace, "--format", "jsonl"])
        #expect(replay.status == 0, "\(replay.standardError)")
        #expect(replay.standardOutput == log)
    }

    @Test(
        "one trace semantics: a trace simulate wrote replays under its policy with the same metrics, in replay and compare --trace",
        arguments: ["ios4", "jetsam", "android-lmkd", "linux-oom", "earlyoom", "lru"])
    func simulateTraceRoundTrip(policy: String) throws {
        let trace = Self.temporaryPath("round-\(policy).jsonl")
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let simulated = try runMempressure([
            "simulate", "--seed", "5", "--policy", policy, "--trace-out", trace, "--format", "json",
        ])
        #expect(simulated.status == 0, "\(simulated.standardError)")
        let replay = try runMempressure(["replay", trace, "--policy", policy, "--format", "jsonl"])
        #expect(replay.status == 0, "\(replay.standardError)")
        let compared = try runMempressure([
            "compare", "--trace", trace, "--policies", policy, "--format", "json",
        ])
        #expect(compared.status == 0, "\(compared.standardError)")
        let fromSimulate = try Self.runMetrics(simulated.standardOutput)
        let fromCompare = try Self.runMetrics(compared.standardOutput)
        #expect(NSDictionary(dictionary: fromSimulate) == NSDictionary(dictionary: fromCompare))
        #expect((fromSimulate["coldLaunches"] as? Int ?? 0) > 0)
        // The event log of the replay has as many kills as the simulation counted.
        let kills = replay.standardOutput.split(separator: "\n").filter { $0.contains("\"type\":\"kill\"") }.count
        #expect(kills == fromSimulate["kills"] as? Int)
    }

    @Test("simulate --seed S --policy P is exactly run S of compare --policies P")
    func simulateEqualsCompareRun() throws {
        let compared = try runMempressure(["compare", "--policies", "jetsam", "--seeds", "4", "--format", "json"])
        #expect(compared.status == 0, "\(compared.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(compared.standardOutput.utf8)) as? [String: Any])
        let runs = try #require(((document["policies"] as? [[String: Any]])?.first)?["runs"] as? [[String: Any]])
        #expect(runs.count == 4)
        for seed in [1, 4] {
            let simulated = try runMempressure([
                "simulate", "--seed", "\(seed)", "--policy", "jetsam", "--format", "json",
            ])
            var expected = runs[seed - 1]
            var actual = try Self.runMetrics(simulated.standardOutput)
            for key in ["eventsPerSecond", "nanosecondsPerDecision", "sample"] {
                expected[key] = nil
                actual[key] = nil
            }
            #expect(NSDictionary(dictionary: expected) == NSDictionary(dictionary: actual))
        }
    }

    /// The first run of the first policy of a JSON report, without its label and wall-clock figures.
    static func runMetrics(_ json: String) throws -> [String: Any] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let simulation = (document["simulation"] as? [String: Any]) ?? document
        var run = try #require(
            ((simulation["policies"] as? [[String: Any]])?.first?["runs"] as? [[String: Any]])?.first)
        for key in ["eventsPerSecond", "nanosecondsPerDecision", "sample"] { run[key] = nil }
        return run
    }

    @Test("simulate is deterministic: the same seed gives the same metrics, another seed others")
    func simulateIsDeterministic() throws {
        let arguments = ["simulate", "--policy", "lru", "--apps", "200", "--hours", "2", "--format", "json"]
        let first = try runMempressure(arguments + ["--seed", "9"])
        let second = try runMempressure(arguments + ["--seed", "9"])
        let other = try runMempressure(arguments + ["--seed", "10"])
        #expect(first.status == 0 && second.status == 0 && other.status == 0)
        #expect(try Self.withoutTimings(first.standardOutput) == Self.withoutTimings(second.standardOutput))
        #expect(try Self.withoutTimings(first.standardOutput) != Self.withoutTimings(other.standardOutput))
    }

    @Test("compare runs every shipped policy on the same traces, in table, json and csv, and draws an SVG")
    func compareFormats() throws {
        let svg = Self.temporaryPath("chart.svg")
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let base = ["compare", "--apps", "300", "--hours", "24", "--seeds", "2"]
        let table = try runMempressure(base + ["--svg", svg])
        #expect(table.status == 0, "\(table.standardError)")
        for policy in ["ios4", "jetsam", "android-lmkd", "linux-oom", "earlyoom", "lru"] {
            #expect(table.standardOutput.contains(policy))
        }
        #expect(table.standardOutput.contains(" * "))
        let chart = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(chart.hasPrefix("<svg"))
        #expect(chart.contains("<polyline") && chart.contains("cold relaunches"))

        let json = try runMempressure(base + ["--format", "json"])
        let document = try Self.withoutTimings(json.standardOutput)
        #expect((document["samples"] as? [String]) == ["1", "2"])
        #expect(document["baseline"] as? String != nil)
        #expect((document["policies"] as? [NSDictionary])?.count == 14)  // thirteen shipped policies and the oracle
        // Sequential (one job) and parallel runs give the same figures.
        let sequential = try runMempressure(base + ["--format", "json", "--jobs", "1"])
        #expect(try Self.withoutTimings(sequential.standardOutput) == document)

        let csv = try runMempressure(base + ["--format", "csv", "--policies", "ios4,lru"])
        let lines = csv.standardOutput.split(separator: "\n")
        #expect(lines.first == "policy,metric,statistic,sample,value")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("ios4,") || $0.hasPrefix("lru,") })
        #expect(
            lines.contains(
                "ios4,launchWait,value,2,"
                    + (lines.first { $0.hasPrefix("ios4,launchWait,value,2,") }?
                        .split(separator: ",").last.map(String.init) ?? "?")))
        #expect(
            lines.contains { $0.hasPrefix("lru,launchWait,adjustedP,,") || $0.hasPrefix("ios4,launchWait,adjustedP,,") }
        )
    }

    @Test("a usage log can be compared")
    func compareUsageLog() throws {
        let result = try runMempressure(["compare", "--usage-log", "Examples/usage/sample.csv", "--policies", "ios4"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("workload usage log"))
    }

    @Test("bad input gets the documented exit codes and says where and what was expected")
    func errors() throws {
        let workload = Self.temporaryPath("workload.yaml")
        defer { try? FileManager.default.removeItem(atPath: workload) }
        try "usage:\n  hours: lots\n".write(toFile: workload, atomically: true, encoding: .utf8)
        let malformed = try runMempressure(["simulate", "--workload", workload])
        #expect(malformed.status == 65)
        #expect(
            malformed.standardError.contains(
                "workload.yaml:2:10: usage.hours: expected a number, found the string \"lots\""))
        #expect(try runMempressure(["simulate", "--workload", "no/such/workload.yaml"]).status == 66)
        #expect(try runMempressure(["compare", "--seeds", "0"]).status == 64)
        #expect(try runMempressure(["simulate", "--hours", "-2"]).status == 64)
        let unwritable = try runMempressure([
            "compare", "--apps", "50", "--hours", "1", "--seeds", "1", "--svg", "/no/such/dir/chart.svg",
        ])
        #expect(unwritable.status == 74)
        #expect(unwritable.standardError.contains("/no/such/dir/chart.svg"))
        #expect(!FileManager.default.fileExists(atPath: "/no/such/dir/chart.svg"))
        let badLog = try runMempressure(["compare", "--usage-log", "Examples/snapshots/phone.yaml"])
        #expect(badLog.status == 65)
    }
}
