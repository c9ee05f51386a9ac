import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// `mempressure kill-order` on a real Android kill log (evidence/public/android/005: the kernel
// driver's multi-line kills in dmesg, copied verbatim from a public source), on a file that is no
// report at all, and on a snapshot with an error of its own.

private let androidLog = "evidence/public/android/005-shared-android-001.log"

private func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
}

@Suite("mempressure kill-order on an Android kill log, and on files that are no report")
struct KillOrderAndroidCommandTests {
    @Test("The table: one row per kill with KILLER, PROCESS, PID, ADJ and FREED, and the burst's rule check")
    func table() throws {
        let result = try runMempressure(["kill-order", androidLog])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.standardOutput
        #expect(output.hasPrefix("Android kill log: \(androidLog), "), "\(output)")
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("#  ") }, "\(output)")
        let columns = header.split(separator: " ").map(String.init)
        for column in ["KILLER", "PROCESS", "PID", "ADJ", "FREED"] {
            #expect(columns.contains(column), "\(header)")
        }
        #expect(
            columns.firstIndex(of: "KILLER")! < columns.firstIndex(of: "PROCESS")!
                && columns.firstIndex(of: "PROCESS")! < columns.firstIndex(of: "PID")!
                && columns.firstIndex(of: "PID")! < columns.firstIndex(of: "ADJ")!
                && columns.firstIndex(of: "ADJ")! < columns.firstIndex(of: "FREED")!)
        let rows = lines.filter { $0.first?.isNumber == true && $0.contains("lowmemorykiller") }
        #expect(rows.count == 7, "\(output)")
        #expect(rows.first?.contains("d.play.games.ui") == true && rows.first?.contains(" 2613 ") == true)
        #expect(rows.first?.contains("20.3 MiB") == true, "\(rows.first ?? "")")
        #expect(output.contains("burst of 7 kills by the kernel's lowmemorykiller"), "\(output)")
        #expect(output.contains("highest oom_score_adj first holds (1000 ×6, then 764)"), "\(output)")
        #expect(output.contains("largest first"))
    }

    @Test("--format json: format android-log, and each killed entry with a numeric pid, oomScoreAdj and freed")
    func asJSON() throws {
        let result = try runMempressure(["kill-order", androidLog, "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let document = try #require(try json(result.standardOutput) as? [String: Any])
        let evidence = try #require(document["evidence"] as? [String: Any])
        #expect(evidence["format"] as? String == "android-log")
        #expect(evidence["source"] as? String == androidLog)
        let killed = try #require(evidence["killed"] as? [[String: Any]])
        #expect(killed.count == 7)
        for entry in killed {
            #expect(entry["pid"] is NSNumber, "\(entry)")
            #expect(entry["oomScoreAdj"] is NSNumber, "\(entry)")
            #expect(entry["freed"] is NSNumber, "\(entry)")
            #expect(entry["killer"] as? String == "the kernel's lowmemorykiller", "\(entry)")
        }
        #expect(killed.map { ($0["pid"] as? NSNumber)?.intValue } == [2613, 2533, 2235, 2468, 2565, 2510, 2578])
        let freed: Int64? = (killed.first?["freed"] as? NSNumber)?.int64Value
        #expect(freed == Int64(20784 * 1024), "to free 20784kB")
        #expect((killed.last?["oomScoreAdj"] as? NSNumber)?.intValue == 764)
        let notes = try #require(evidence["notes"] as? [String])
        #expect(notes.contains { $0.hasPrefix("burst of 7 kills") })
    }

    @Test("An ordinary syslog exits 65 naming every format tried and --input-format")
    func ordinarySyslog() throws {
        let directory = try scratchDirectory("kill-order-android")
        let file = directory.appendingPathComponent("syslog")
        let text =
            (1...50).map {
                "Nov 28 03:50:\(String(format: "%02d", $0 % 60)) host systemd[1]: Started Session \($0) of user root."
            }
            .joined(separator: "\n") + "\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = try runMempressure(["kill-order", file.path])
        #expect(result.status == 65, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("formats tried"), "\(result.standardError)")
        for format in EvidenceFormat.allCases {
            #expect(
                result.standardError.contains(format.rawValue), "\(format.rawValue) not named: \(result.standardError)")
        }
        #expect(result.standardError.contains("--input-format"), "\(result.standardError)")
        #expect(result.standardError.contains(file.path))
    }

    @Test("A YAML snapshot with a bad state still gives the snapshot's own line:column error")
    func snapshotErrorStands() throws {
        let directory = try scratchDirectory("kill-order-android")
        let file = directory.appendingPathComponent("phone.yaml")
        let phone = try String(contentsOfFile: PackagePaths.path("Examples/snapshots/phone.yaml"), encoding: .utf8)
        var lines = phone.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains("state: background") })
        lines[index] = lines[index].replacingOccurrences(of: "state: background", with: "state: flying")
        let column = try #require(lines[index].range(of: "flying")).lowerBound.utf16Offset(in: lines[index]) + 1
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let result = try runMempressure(["kill-order", file.path])
        #expect(result.status == 65)
        #expect(result.standardError.contains("\(file.path):\(index + 1):\(column): "), "\(result.standardError)")
        #expect(result.standardError.contains("state"), "\(result.standardError)")
        #expect(!result.standardError.contains("formats tried"), "\(result.standardError)")
    }
}

/// The kernel report's own figures in `kill-order --format json` (KernelGenerationTests has the
/// rest; this part runs the executable, so it lives with the CLI's tests).
@Suite("Kernel generations: the figures in kill-order's JSON")
struct KernelGenerationFiguresCommandTests {
    @Test("kill-order --format json on real reports: every order entry carries the six figures as numbers, and the why")
    func figuresInJSON() throws {
        let names = ["rss", "swapEntries", "pageTableBytes", "oomScoreAdj", "badnessPoints", "oomScore"]
        for path in [
            "evidence/public/linux/019-shared-stable-5.4-backport.log", "evidence/linux-oom/02-largest-dies.log",
            "evidence/linux-oom/06-page-tables.log",
        ] {
            let result = try runMempressure(["kill-order", path, "--format", "json"])
            #expect(result.status == 0, "\(path): \(result.standardError)")
            let parsed = try json(result.standardOutput)
            var documents: [[String: Any]]
            if let array = parsed as? [[String: Any]] {
                documents = array
            } else {
                documents = [try #require(parsed as? [String: Any])]
            }
            for document in documents {
                let order = try #require(document["order"] as? [[String: Any]], "\(path)")
                #expect(!order.isEmpty)
                for entry in order {
                    for key in names {
                        #expect(
                            entry[key] is NSNumber, "\(path): \(key) = \(String(describing: entry[key])) in \(entry)")
                    }
                }
                let evidence = try #require(document["evidence"] as? [String: Any])
                #expect(evidence["figures"] as? [String] == names)
                let why = try #require(evidence["why"] as? [String: Any], "\(path)")
                #expect(why["margin"] is NSNumber, "\(path)")
                #expect(why.keys.contains("reversingOomScoreAdj"), "\(path)")
                #expect(why["reversingOomScoreAdj"] is NSNumber || why["reversingOomScoreAdj"] is NSNull, "\(path)")
            }
        }
    }
}
