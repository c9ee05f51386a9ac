import Foundation
import MemoryPressure
import MemoryPressureFormats
@testable import MemoryPressureSimulation
import Testing
import TestSupport

// `mempressure kill-order REPORT` (issue 22) on the real reports of evidence/: recognised by
// content, every report of a log, the contract's `evidence`, `pid` and `killed` fields, and the
// documented exit codes for reports that cannot be read.

private func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
}

@Suite("mempressure kill-order on real reports")
struct KillOrderEvidenceCommandTests {
    @Test("A log with two kernel reports gives a JSON array, each ranked by linux-oom with its victim first")
    func twoReportsAsJSON() throws {
        let result = try runMempressure(["kill-order", "evidence/linux-oom/04-shmem.log", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let documents = try #require(try json(result.standardOutput) as? [[String: Any]])
        #expect(documents.count == 2)
        for document in documents {
            #expect(document["policy"] as? String == "linux-oom")
            let evidence = try #require(document["evidence"] as? [String: Any])
            #expect(evidence["format"] as? String == "linux-oom-report")
            #expect(evidence["source"] as? String == "evidence/linux-oom/04-shmem.log")
            let killed = try #require((evidence["killed"] as? [[String: Any]])?.first)
            #expect(killed["rank"] as? Int == 1)
            let first = try #require((document["order"] as? [[String: Any]])?.first)
            #expect(first["killed"] as? Bool == true)
            #expect(first["pid"] as? Int == killed["pid"] as? Int)
        }
    }

    @Test("jsonl gives one report a line; the table marks the victim in words")
    func jsonLinesAndTable() throws {
        let lines = try runMempressure(["kill-order", "evidence/linux-oom/26-random-11.log", "--format", "jsonl"])
        #expect(lines.status == 0)
        #expect(lines.standardOutput.split(separator: "\n").count == 4)
        let table = try runMempressure(["kill-order", "evidence/linux-oom/02-largest-dies.log"])
        #expect(table.standardOutput.contains("the kernel killed big["))
        #expect(table.standardOutput.contains("linux-oom ranks it first"))
        #expect(table.standardOutput.contains("killed by the kernel"))
        #expect(table.standardOutput.contains("the foreground app and app states"))
    }

    @Test("--policies all shows where every shipped policy ranks the real victim; --policy changes the ranking")
    func everyPolicy() throws {
        let result = try runMempressure([
            "kill-order", "evidence/linux-oom/03-adj-beats-size.log", "--policies", "all", "--format", "json",
        ])
        let document = try #require(try json(result.standardOutput) as? [String: Any])
        let policies = try #require((document["evidence"] as? [String: Any])?["policies"] as? [[String: Any]])
        #expect(policies.map { $0["policy"] as? String } == Policy.shippedNames)
        let ios4 = try runMempressure(["kill-order", "evidence/linux-oom/03-adj-beats-size.log", "--policy", "ios4"])
        #expect(ios4.standardOutput.contains("policy ios4"))
        #expect(ios4.standardOutput.contains("ios4 ranks it"))
    }

    @Test("earlyoom's log is recognised and ranked by the earlyoom policy")
    func earlyoomLog() throws {
        let result = try runMempressure(["kill-order", "evidence/earlyoom/01-three-hogs.log", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.standardError)")
        let documents = result.standardOutput.split(separator: "\n")
        #expect(documents.count == 2)
        for line in documents {
            let document = try #require(try json(String(line)) as? [String: Any])
            #expect(document["policy"] as? String == "earlyoom")
            let evidence = try #require(document["evidence"] as? [String: Any])
            #expect((evidence["killed"] as? [[String: Any]])?.first?["rank"] as? Int == 1)
        }
    }

    @Test("An iOS JetsamEvent report (constructed, in both forms) is recognised and ranked by jetsam")
    func jetsamEvent() throws {
        let result = try runMempressure(["kill-order", "Examples/reports/JetsamEvent-two-part.ips", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let document = try #require(try json(result.standardOutput) as? [String: Any])
        #expect(document["policy"] as? String == "jetsam")
        let evidence = try #require(document["evidence"] as? [String: Any])
        #expect(evidence["format"] as? String == "jetsam-event")
        let killed = try #require(evidence["killed"] as? [[String: Any]])
        #expect(killed.map { $0["rank"] as? Int } == [1, 2])
        #expect(killed.map { $0["reason"] as? String } == ["vm-pageshortage", "vm-pageshortage"])
        let single = try runMempressure(["kill-order", "Examples/reports/JetsamEvent-single-document.ips"])
        #expect(single.status == 0, "\(single.standardError)")
        #expect(single.standardOutput.contains("it passed its own memory limit, which is not a choice among processes"))
        #expect(single.standardOutput.contains("killed by jetsam"))
        // Forced, a report that is not one is refused naming the file and what was expected.
        let forced = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--input-format", "jetsam-event",
        ])
        #expect(forced.status == 65)
        #expect(forced.standardError.contains("Examples/snapshots/phone.yaml:"), "\(forced.standardError)")
    }

    @Test("A report on standard input is recognised too")
    func standardInput() throws {
        let text = try String(
            contentsOfFile: PackagePaths.path("evidence/linux-oom/08-adj-max-small.log"), encoding: .utf8)
        let result = try runMempressure(["kill-order", "-", "--format", "json"], input: text)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"source\":\"<stdin>\""))
        #expect(result.standardOutput.contains("\"killed\":true"))
    }

    @Test(
        "A malformed task row is skipped and named with its line and column; a file with no report, 65 saying what was expected"
    )
    func errors() throws {
        let directory = try scratchDirectory("kill-order-evidence")
        let bad = directory.appendingPathComponent("bad.log")
        let text = try String(
            contentsOfFile: PackagePaths.path("evidence/linux-oom/02-largest-dies.log"), encoding: .utf8)
        // The row of `medium`, its rss column replaced: "[  345.019722] [   5929]     0  5929    19649    18885 …".
        var lines = text.components(separatedBy: "\n")
        let row = try #require(lines.firstIndex { $0.hasSuffix(" medium") })
        var words = lines[row].split(separator: " ", omittingEmptySubsequences: false)
        let rss = try #require(words.indices.filter { !words[$0].isEmpty }.dropFirst(7).first)
        words[rss] = "?"
        lines[row] = words.joined(separator: " ")
        try lines.joined(separator: "\n").write(to: bad, atomically: true, encoding: .utf8)
        // A reader of what a real tool printed is forgiving: the row is skipped and named.
        let malformed = try runMempressure(["kill-order", bad.path])
        #expect(malformed.status == 0, "\(malformed.standardError)")
        #expect(malformed.standardOutput.contains("line \(row + 1): expected a number in column rss"))
        #expect(!malformed.standardOutput.contains(" medium["))
        let snapshot = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--input-format", "linux-oom-report",
        ])
        #expect(snapshot.status == 65)
        #expect(snapshot.standardError.contains("no kernel OOM report found"))
        let policies = try runMempressure([
            "kill-order", "evidence/linux-oom/02-largest-dies.log", "--policies", "a,,b",
        ])
        #expect(policies.status == 64)
    }

    @Test(
        "The README's example: each listed policy's rank of the kernel's victim, as in its golden file and the README"
    )
    func readmeExample() throws {
        let command = [
            "kill-order", "evidence/public/linux/002-lkml-mglru-rsync-memcg-6.7.log", "--limit", "3", "--policies",
            "linux-oom,earlyoom,ios4",
        ]
        let result = try runMempressure(command)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("where each policy ranks what the kernel killed:"))
        let golden = goldenMismatch(result.standardOutput, "kill-order/evidence-public-002-rsync-policies.table")
        #expect(golden == nil, "\(golden ?? "")")
        let readme = try String(contentsOfFile: PackagePaths.path("README.md"), encoding: .utf8)
        #expect(readme.contains("$ mempressure " + command.joined(separator: " ") + "\n" + result.standardOutput))
    }

    @Test(
        "csv of a log of two reports: one header, each row with its report's number, pid and killed; --policies noted")
    func csvOfSeveralReports() throws {
        let result = try runMempressure([
            "kill-order", "evidence/linux-oom/04-shmem.log", "--format", "csv", "--policies", "earlyoom",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        // Read as RFC 4180 CSV (a reason may hold a comma, quoted), with the reader of usage logs.
        var reader = DelimitedText.Reader(
            lines: ByteLineReader(.bytes(Array(result.standardOutput.utf8)), file: "standard output"), separator: ",")
        var rows: [[String]] = []
        while let record = try reader.next() { rows.append(record.fields.map(\.text)) }
        #expect(
            rows.first == [
                "report", "rank", "app", "state", "band", "footprint", "notice", "reason", "pid", "killed",
            ])
        let body = rows.dropFirst()
        #expect(Set(body.map { $0[0] }) == ["1", "2"])
        #expect(body.allSatisfy { $0.count == 10 && Int($0[8]) != nil })
        for report in ["1", "2"] {
            let killed = body.filter { $0[0] == report && $0[9] == "true" }
            #expect(killed.count == 1 && killed.first?[1] == "1", "report \(report): the victim ranks first")
        }
        #expect(result.standardError.contains("--format csv carries the kill order"))
        let single = try runMempressure(["kill-order", "evidence/linux-oom/06-page-tables.log", "--format", "csv"])
        #expect(single.standardError.isEmpty)
        #expect(single.standardOutput.hasPrefix("report,rank,app,"))
    }
}
