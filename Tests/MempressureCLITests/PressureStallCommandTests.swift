import Foundation
import Testing
import TestSupport

/// The simulated pressure stall through the command line: `simulate --policy android-lmkd-psi`
/// reports it (text and `--format json`), its event log has the crossings, and replaying the
/// trace it wrote gives the same log; a policy without PSI thresholds has neither.
@Suite("mempressure simulate: the simulated pressure stall")
struct PressureStallCommandTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mempressure-\(getpid())-psi-\(name)").path
    }

    /// The default phone workload's first user-day: memory runs short under android-lmkd-psi
    /// (lmkd kills for "device is not responding" and the min watermark).
    static let workload = ["--seed", "1"]

    /// The JSON objects of the log's `pressure` lines.
    static func crossings(_ log: String) throws -> [[String: Any]] {
        try log.split(separator: "\n").filter { $0.contains("\"type\":\"pressure\"") }.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test(
        "android-lmkd-psi: --format json carries the stall figures, the event log the crossings, each up followed by its down, and a replay of the trace gives the same log"
    )
    func lmkdPressureStall() throws {
        let trace = Self.temporaryPath("trace.jsonl")
        let events = Self.temporaryPath("events.jsonl")
        defer { for path in [trace, events] { try? FileManager.default.removeItem(atPath: path) } }
        let result = try runMempressure(
            [
                "simulate", "--policy", "android-lmkd-psi", "--format", "json", "--trace-out", trace, "--events-out",
                events,
            ]
                + Self.workload)
        #expect(result.status == 0, "\(result.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let policy = try #require((document["policies"] as? [[String: Any]])?.first)
        let run = try #require((policy["runs"] as? [[String: Any]])?.first)
        for stall in [policy["pressureStall"], run["pressureStall"]] {
            let figures = try #require(stall as? [String: Any])
            #expect(figures["someSeconds"] is NSNumber && figures["fullSeconds"] is NSNumber)
            let thresholds = try #require(figures["thresholds"] as? [[String: Any]])
            #expect(thresholds.map { $0["stall"] as? String } == ["some", "full"])
            #expect(thresholds.map { $0["window"] as? String } == ["1s", "1s"])
            #expect(thresholds.map { $0["threshold"] as? Int } == [7, 70])
            for threshold in thresholds {
                for key in ["secondsAbove", "crossings", "peak"] { #expect(threshold[key] is NSNumber, "\(key)") }
            }
        }
        let log = try String(contentsOfFile: events, encoding: .utf8)
        let crossings = try Self.crossings(log)
        let runFigures = try #require(run["pressureStall"] as? [String: Any])
        let runThresholds = try #require(runFigures["thresholds"] as? [[String: Any]])
        let ups = crossings.filter { $0["direction"] as? String == "up" }
        #expect(!ups.isEmpty, "the workload must make memory short")
        #expect(ups.count == runThresholds.map { $0["crossings"] as? Int ?? 0 }.reduce(0, +))
        for stall in ["some", "full"] {
            let directions = crossings.filter { $0["stall"] as? String == stall }.map {
                $0["direction"] as? String ?? ""
            }
            for (index, direction) in directions.enumerated() {
                #expect(direction == (index % 2 == 0 ? "up" : "down"), "\(stall): crossings alternate, up first")
            }
        }
        let replay = try runMempressure(["replay", trace, "--policy", "android-lmkd-psi", "--format", "jsonl"])
        #expect(replay.status == 0, "\(replay.standardError)")
        #expect(try Self.crossings(replay.standardOutput).count == crossings.count)
        #expect(replay.standardOutput == log)
        let text = try runMempressure(["simulate", "--policy", "android-lmkd-psi"] + Self.workload)
        #expect(text.standardOutput.contains("pressure stall (simulated PSI):\n  android-lmkd-psi: some "))
        #expect(text.standardOutput.contains("; some 1s threshold 7.00%: "))
    }

    /// PSI's averages as an object of the JSON: `avg10`, `avg60`, `avg300`, in percent.
    static func averages(_ value: Any?) throws -> [String: Double] {
        let object = try #require(value as? [String: Any], "\(String(describing: value))")
        #expect(Set(object.keys) == ["avg10", "avg60", "avg300"])
        var out: [String: Double] = [:]
        for (key, number) in object {
            let value = try #require((number as? NSNumber)?.doubleValue)
            #expect(value >= 0 && value <= 100 && abs((value * 100).rounded() - value * 100) < 1e-6, "\(key) \(value)")
            out[key] = value
        }
        return out
    }

    @Test(
        "android-lmkd-psi: --format json has the peak some and full avg10/avg60/avg300, every pressure event carries the averages, none above its peak, and the text prints them as /proc/pressure/memory does"
    )
    func lmkdAverages() throws {
        let events = Self.temporaryPath("events-averages.jsonl")
        defer { try? FileManager.default.removeItem(atPath: events) }
        let result = try runMempressure(
            ["simulate", "--policy", "android-lmkd-psi", "--format", "json", "--events-out", events] + Self.workload)
        #expect(result.status == 0, "\(result.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let policy = try #require((document["policies"] as? [[String: Any]])?.first)
        let run = try #require((policy["runs"] as? [[String: Any]])?.first)
        var peaks: [String: [String: Double]] = [:]
        for stall in [policy["pressureStall"], run["pressureStall"]] {
            let figures = try #require(stall as? [String: Any])
            let averages = try #require(figures["peakAverages"] as? [String: Any])
            #expect(Set(averages.keys) == ["some", "full"])
            for key in ["some", "full"] { peaks[key] = try Self.averages(averages[key]) }
        }
        #expect((peaks["full"]?["avg10"] ?? 0) > 0, "the workload stalls: \(peaks)")
        let crossings = try Self.crossings(try String(contentsOfFile: events, encoding: .utf8))
        #expect(!crossings.isEmpty)
        for crossing in crossings {
            for key in ["some", "full"] {
                let averages = try Self.averages(crossing[key])
                for (window, value) in averages {
                    #expect(value <= peaks[key]?[window] ?? -1, "\(key) \(window) \(value) above its peak")
                }
            }
        }
        let text = try runMempressure(["simulate", "--policy", "android-lmkd-psi"] + Self.workload)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        for key in ["some", "full"] {
            let line = try #require(lines.first { $0.hasPrefix("    peak \(key) avg10=") }, "\(text.standardOutput)")
            let peak = try #require(peaks[key])
            func two(_ value: Double) -> String { String(format: "%.2f", value) }
            #expect(
                line
                    == "    peak \(key) avg10=\(two(peak["avg10"]!)) avg60=\(two(peak["avg60"]!)) avg300=\(two(peak["avg300"]!))"
            )
        }
    }

    @Test(
        "a policy without PSI thresholds: no crossing in the log, no stall figures",
        arguments: ["ios4", "android-lmkd"])
    func noThresholds(policy: String) throws {
        let events = Self.temporaryPath("events-\(policy).jsonl")
        defer { try? FileManager.default.removeItem(atPath: events) }
        let result = try runMempressure(
            ["simulate", "--policy", policy, "--format", "json", "--events-out", events] + Self.workload)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.contains("pressureStall"))
        let log = try String(contentsOfFile: events, encoding: .utf8)
        #expect(!log.isEmpty && !log.contains("\"type\":\"pressure\""))
        let text = try runMempressure(["simulate", "--policy", policy] + Self.workload)
        #expect(!text.standardOutput.contains("pressure stall"))
    }
}
