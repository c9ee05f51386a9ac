import Foundation
import Testing
import TestSupport

@Suite("mempressure experiment")
struct ExperimentCommandTests {
    @Test("fleet-cached-apps prints its table as the golden file holds it, in every format")
    func golden() throws {
        for (format, suffix) in [("table", "txt"), ("json", "json"), ("csv", "csv")] {
            let result = try runMempressure(["experiment", "fleet-cached-apps", "--format", format])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.isEmpty)
            let mismatch = goldenMismatch(result.standardOutput, "experiment/fleet-cached-apps.\(suffix)")
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    @Test("the CSV's measured columns are evidence/papers/fleet-cached-apps.csv's, step by step")
    func measuredColumnsAreTheEvidence() throws {
        let result = try runMempressure(["experiment", "fleet-cached-apps", "--format", "csv"])
        #expect(result.status == 0, "\(result.standardError)")
        let evidence = try String(
            contentsOfFile: PackagePaths.path("evidence/papers/fleet-cached-apps.csv"), encoding: .utf8)
        func columns(_ text: String, _ names: [String]) -> [[String]] {
            let lines = text.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
            let indices = names.map { lines[0].firstIndex(of: $0) ?? -1 }
            return lines.dropFirst().map { row in indices.map { $0 >= 0 ? row[$0] : "?" } }
        }
        let names = ["step", "round", "app", "package", "android_no_swap", "android_swap_file"]
        let printed = columns(result.standardOutput, names)
        #expect(printed.count == 36)
        #expect(printed == columns(evidence, names))
    }

    @Test("the JSON document carries 36 steps, six series and the footprint of every app with its source")
    func json() throws {
        let result = try runMempressure(["experiment", "fleet-cached-apps", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect(steps.count == 36)
        let series = try #require(document["series"] as? [[String: Any]])
        #expect(
            series.compactMap { $0["key"] as? String } == [
                "android_no_swap", "linux_oom", "android_lmkd_pixel3", "android_lmkd_psi", "android_swap_file",
                "linux_oom_swap_file",
            ])
        let apps = try #require(document["apps"] as? [[String: Any]])
        #expect(apps.count == 18)
        #expect(apps.allSatisfy { ($0["source"] as? String)?.isEmpty == false })
    }

    @Test("--format trace prints the scripted trace, which replay reads: 36 launches, 35 Homes")
    func trace() throws {
        let result = try runMempressure(["experiment", "fleet-cached-apps", "--format", "trace"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first == #"{"t":0,"event":"device","memory":4294967296,"reserved":1610612736}"#)
        #expect(lines.count { $0.contains(#""event":"open""#) } == 36)
        #expect(lines.count { $0.contains(#""event":"home""#) } == 35)
        let replayed = try runMempressure(["replay", "-", "--policy", "linux-oom"], input: result.standardOutput)
        #expect(replayed.status == 0, "\(replayed.standardError)")
    }

    @Test("--reserved moves the system's share, and refuses what leaves the apps nothing")
    func reserved() throws {
        let less = try runMempressure(["experiment", "fleet-cached-apps", "--reserved", "1GiB", "--format", "json"])
        #expect(less.status == 0, "\(less.standardError)")
        #expect(less.standardOutput.contains("\"reserved\":1073741824"))
        for bad in ["4GiB", "5GiB", "lots"] {
            let result = try runMempressure(["experiment", "fleet-cached-apps", "--reserved", bad])
            #expect(result.status == 64, "\(bad): \(result.standardError)")
            #expect(result.standardError.contains("--reserved must be"), "\(bad)")
        }
        let unknown = try runMempressure(["experiment", "fleet"])
        #expect(unknown.status == 64)
    }
}
