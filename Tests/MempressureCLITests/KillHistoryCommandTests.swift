import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif
import TestSupport

/// `kill-order --history`: a whole log's kills in one view, checked on a peer's test asset (a whole
/// /var/log/messages from oom-investigate, with the counts its own test expects) and on a log that
/// mixes report kinds.
@Suite("mempressure kill-order --history")
struct KillHistoryCommandTests {
    private let messages = "evidence/public/logs/oom-investigate-messages.log"

    @Test("oom-investigate's /var/log/messages: its 19 incidents with a task table (20 reports), 32 GiB, per process")
    func peerAsset() throws {
        let result = try runMempressure(["kill-order", "--history", messages])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.contains("20 kills in 20 reports (19 with a process table), 34188 lines read"))
        #expect(text.contains("log from Jun 19 05:43:21 to Jun 20 20:32:45; memory 32.0 GiB; swap 2.0 GiB"))
        #expect(text.contains("   19  php-fpm\n") && text.contains("    1  mysqld\n"))
        #expect(text.contains("Jun 20 12:47:04  the kernel  mysqld   40738"))
        // 2.6.32 chose with badness(): a kill whose report lost its table is said to be unranked.
        #expect(text.contains("not ranked: the report holds no process list"))
    }

    @Test("the same from standard input, as JSON; --name and --since/--until filter it; CSV has a row per kill")
    func standardInputAndFilters() throws {
        let log = try String(contentsOfFile: PackagePaths.path(messages), encoding: .utf8)
        let json = try runMempressure(["kill-order", "--history", "-", "--format", "json"], input: log)
        #expect(json.status == 0, "\(json.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((document["kills"] as? [[String: Any]])?.count == 20)
        #expect(document["reportsWithTable"] as? Int == 19)
        #expect(document["memory"] as? [Int] == [34_359_734_272])
        #expect((document["counts"] as? [[String: Any]])?.first?["name"] as? String == "php-fpm")
        let named = try runMempressure(["kill-order", "--history", messages, "--name", "mysql", "--format", "jsonl"])
        #expect(named.standardOutput.split(separator: "\n").count == 1)
        #expect(named.standardOutput.contains("\"victim\":\"mysqld\",\"pid\":40738"))
        let window = try runMempressure([
            "kill-order", "--history", messages, "--since", "Jun 20 12:47:45", "--until", "Jun 20 12:47:50",
            "--format", "csv",
        ])
        #expect(window.status == 0, "\(window.standardError)")
        let rows = window.standardOutput.split(separator: "\n")
        #expect(rows.first == "time,killer,victim,pid,memory,reason,verdict,line")
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix("Jun 20 12:47:4") || $0.hasPrefix("Jun 20 12:47:50") })
        #expect(rows.count - 1 == 9)
        let bad = try runMempressure(["kill-order", "--history", messages, "--since", "yesterday"])
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("--since: expected a time as a log writes it"))
        let misplaced = try runMempressure(["kill-order", messages, "--name", "x"])
        #expect(misplaced.status == 64)
    }

    @Test("a log mixing a kernel report, lmkd kills and an earlyoom kill gives each kill as its kind")
    func mixedKinds() throws {
        let kernel = try String(
            contentsOfFile: PackagePaths.path("evidence/public/linux/002-lkml-mglru-rsync-memcg-6.7.log"),
            encoding: .utf8)
        // Constructed around the real kernel report: lines in lmkd's and earlyoom's formats.
        let log =
            "10-24 14:24:06.590   710   710 I lowmemorykiller: Kill 'com.example.a' (18624), uid 10453, "
            + "oom_score_adj 905 to free 183244kB rss, 34860kB swap; reason: device is not responding\n"
            + kernel
            + "Sep 10 21:54:23 host earlyoom[904]: sending SIGTERM to process 2232050 uid 1000 \"bun\": "
            + "oom_score 712, oom_score_adj 0, VmRSS 4514 MiB, cmdline \"bun test\"\n"
        let result = try runMempressure(["kill-order", "--history", "-", "--format", "json"], input: log)
        #expect(result.status == 0, "\(result.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let kills = try #require(document["kills"] as? [[String: Any]])
        #expect(kills.map { $0["killer"] as? String } == ["lmkd", "the kernel", "earlyoom"])
        #expect(kills.map { $0["victim"] as? String } == ["com.example.a", "rsync", "bun"])
        #expect(kills[1]["verdict"] as? String == "linux-oom ranks it first")
        #expect(kills[0]["time"] as? String == "10-24 14:24:06.590")
        #expect(kills[2]["memory"] as? Int == 4514 << 20)
    }

    @Test("--history --live reads this machine's kernel log, or says which sources it could not read and why")
    func thisMachine() throws {
        let result = try runMempressure(["kill-order", "--history", "--live", "--format", "json"])
        if result.status == 0 {
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let source = try #require(document["source"] as? String)
            #expect(source.hasPrefix("this machine's kernel log ("), "\(source)")
            #expect((document["lines"] as? Int ?? 0) > 0)
        } else {
            #expect(result.status == 66, "\(result.standardError)")
            #expect(result.standardError.contains("cannot read this machine's kernel log: journalctl"))
            #expect(result.standardError.contains("/dev/kmsg: "))
        }
        let both = try runMempressure(["kill-order", "--history", "--live", messages])
        #expect(both.status == 64)
        #expect(both.standardError.contains("give a log or --live, not both"))
    }

    @Test("--svg draws the kills over time: a mark per kill on its process's row, the killers in a legend")
    func timeline() throws {
        let directory = try scratchDirectory("kill-history-svg")
        let path = directory.appendingPathComponent("kills.svg").path
        let result = try runMempressure(["kill-order", "--history", messages, "--svg", path])
        #expect(result.status == 0, "\(result.standardError)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "the SVG is not well-formed XML")
        #expect(svg.components(separatedBy: "<circle ").count - 1 == 20 + 1)  // 20 kills and the legend's one killer
        #expect(svg.contains(">php-fpm</text>") && svg.contains(">mysqld</text>"))
        #expect(svg.contains("<title>Jun 20 12:47:04 the kernel: mysqld</title>"))
        let misplaced = try runMempressure(["kill-order", messages, "--svg", path])
        #expect(misplaced.status == 64)
    }
}
