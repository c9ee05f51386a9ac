import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// The Android kill-log reader on every layout people paste. The logs below are NOT real: they are
// constructed here from the format strings quoted in AndroidKillLogParser's doc comment (lmkd's
// `kill_one_process()` of each generation, the staging lowmemorykiller driver's `lowmem_scan()`,
// ActivityManager's `EventLogTags.logtags` and `ProcessRecord.killLocked()`, `dumpsys activity
// lru`), each wrapped in the prefix of one logcat `-v` format, dmesg or a mail quote. The real logs
// are in evidence/public/android (PublicCorpusTests).

/// The log `lines` read line by line.
private func read(_ lines: [String]) throws(InputError) -> AndroidKillLog {
    var parser = AndroidKillLogParser()
    for (offset, line) in lines.enumerated() {
        try parser.consume(line[...], lineNumber: offset + 1, file: "test.log")
    }
    return parser.finish()
}

/// The one evidence of `lines` as `kill-order` reads them.
private func androidEvidence(_ lines: [String]) throws -> ReportEvidence {
    let reports = try EvidenceLogReader.reports(
        in: lines.joined(separator: "\n") + "\n", format: .androidLog, source: "test.log")
    return try #require(reports.count == 1 ? reports.first : nil, "expected one evidence, got \(reports.count)")
}

/// What a test expects of one kill.
private struct Expected: Equatable, CustomStringConvertible {
    var killer: AndroidKillLog.Killer
    var name: String
    var pid: Int
    var uid: Int?
    var adj: Int?
    var freedKiB: Int64?
    var reason: String?

    init(_ kill: AndroidKillLog.Kill) {
        self.init(
            kill.killer, kill.name, kill.pid, uid: kill.uid, adj: kill.adj, freed: kill.freedKiB, reason: kill.reason)
    }

    init(
        _ killer: AndroidKillLog.Killer, _ name: String, _ pid: Int, uid: Int? = nil, adj: Int?, freed: Int64?,
        reason: String?
    ) {
        self.killer = killer
        self.name = name
        self.pid = pid
        self.uid = uid
        self.adj = adj
        self.freedKiB = freed
        self.reason = reason
    }

    var description: String {
        "\(killer.rawValue) \(name)[\(pid)] uid \(uid.map(String.init) ?? "-") adj \(adj.map(String.init) ?? "-") "
            + "freed \(freedKiB.map(String.init) ?? "-") reason \(reason ?? "-")"
    }
}

@Suite("Android kill logs as pasted")
struct AndroidKillLogTests {
    // MARK: - lmkd

    @Test("lmkd 11+: Kill '…' (pid), uid, oom_score_adj, rss and swap, reason (threadtime)")
    func lmkdEleven() throws {
        let log = try read([
            "10-24 14:24:06.590   710   710 I lowmemorykiller: Kill 'com.example.app' (4951), uid 10123, "
                + "oom_score_adj 905 to free 52340kB rss, 10240kB swap; reason: device is not responding"
        ])
        let kill = try #require(log.kills.first)
        #expect(log.kills.count == 1)
        #expect(
            Expected(kill)
                == Expected(
                    .lmkd, "com.example.app", 4951, uid: 10123, adj: 905, freed: 52340,
                    reason: "device is not responding"))
        #expect(kill.swapKiB == 10240)
        #expect(kill.time == "10-24 14:24:06.590")
        #expect(kill.line == 1)
    }

    @Test("lmkd 9–10: 'oom_adj' for the adj, no reason")
    func lmkdNine() throws {
        let log = try read([
            "10-24 14:24:06.590   710   710 I lowmemorykiller: Kill 'com.example.b' (5012), uid 10124, oom_adj 906 "
                + "to free 40000kB"
        ])
        #expect(
            log.kills.map(Expected.init) == [
                Expected(.lmkd, "com.example.b", 5012, uid: 10124, adj: 906, freed: 40000, reason: nil)
            ])
    }

    @Test("lmkd 8.1: 'Killing' with 'adj', the freed memory and reason on the continuation line")
    func lmkdEightOne() throws {
        let log = try read([
            "03-01 10:00:00.100   612   612 I lowmemorykiller: Killing 'com.example.c' (6001), uid 10125, adj 900",
            "03-01 10:00:00.100   612   612 I lowmemorykiller:    to free 30000kB because cache 120000kB is below "
                + "limit 122880kB for oom_adj 900",
            "03-01 10:00:00.100   612   612 I lowmemorykiller:    Free memory is 2000kB above reserved",
        ])
        #expect(
            log.kills.map(Expected.init) == [
                Expected(
                    .lmkd, "com.example.c", 6001, uid: 10125, adj: 900, freed: 30000,
                    reason: "cache 120000kB is below limit 122880kB for oom_adj 900")
            ])
        #expect(log.otherLines == 0, "the continuation lines belong to the kill")
        #expect(log.firstLine == 1 && log.lastLine == 3)
    }

    // MARK: - The kernel's driver

    /// The driver's four-line message as dmesg prints it: each line with `<6>` and a time.
    private static let driverLines = [
        "<6>[  123.456] lowmemorykiller: Killing 'd.play.games.ui' (2613), adj 1000,",
        "<6>[  123.456]    to free 20784kB on behalf of 'kswapd0' (442) because",
        "<6>[  123.456]    cache 32112kB is below limit 32384kB for oom_score_adj 1000",
        "<6>[  123.456]    Free memory is 17432kB above reserved",
    ]
    private static let driverKill = Expected(
        .kernelDriver, "d.play.games.ui", 2613, adj: 1000, freed: 20784,
        reason: "cache 32112kB is below limit 32384kB for oom_score_adj 1000")

    @Test("The kernel driver's multi-line message in dmesg, each line with <6> and [ 123.456]")
    func driverMultiLine() throws {
        let log = try read(Self.driverLines)
        #expect(log.kills.map(Expected.init) == [Self.driverKill])
        #expect(log.kills.first?.seconds == 123.456)
        #expect(log.otherLines == 0)
    }

    @Test("The driver's message as one line with literal \\x0a for its line breaks")
    func driverEscapedBreaks() throws {
        let line =
            "<6>[  123.456] lowmemorykiller: Killing 'd.play.games.ui' (2613), adj 1000,\\x0a   to free 20784kB on "
            + "behalf of 'kswapd0' (442) because\\x0a   cache 32112kB is below limit 32384kB for oom_score_adj 1000"
            + "\\x0a   Free memory is 17432kB above reserved"
        let log = try read([line])
        #expect(log.kills.map(Expected.init) == [Self.driverKill])
        #expect(log.kills.first?.line == 1)
    }

    @Test("The 3.0-era driver: 'send sigkill to PID (NAME), adj A, size PAGES', size in 4 KiB pages")
    func sendSigkill() throws {
        let log = try read(["<4>[ 5000.123] send sigkill to 3456 (com.android.browser), adj 8, size 12000"])
        #expect(
            log.kills.map(Expected.init) == [
                Expected(
                    .kernelDriver, "com.android.browser", 3456, adj: 8, freed: 48000,
                    reason: "size in pages, taken as 4 KiB")
            ])
        #expect(log.kills.first?.seconds == 5000.123)
    }

    // MARK: - ActivityManager

    @Test("am_kill with 5 fields (threadtime), 6 fields (-v uid, an extra uid column) and brief")
    func amKill() throws {
        let log = try read([
            "10-24 14:25:00.000  1885  1900 I am_kill : [0,7138,com.example.d,905,empty #17]",
            "10-24 14:25:01.000  system  1885  1900 I am_kill : [0,7139,com.example.e:remote,915,empty #18,40960]",
            "I/am_kill ( 1885): [0,7140,com.example.f,925,empty #19]",
        ])
        #expect(
            log.kills.map(Expected.init) == [
                Expected(.activityManager, "com.example.d", 7138, adj: 905, freed: nil, reason: "empty #17"),
                Expected(.activityManager, "com.example.e:remote", 7139, adj: 915, freed: 40960, reason: "empty #18"),
                Expected(.activityManager, "com.example.f", 7140, adj: 925, freed: nil, reason: "empty #19"),
            ])
        #expect(log.kills.map(\.time) == ["10-24 14:25:00.000", "10-24 14:25:01.000", nil])
    }

    @Test("killinfo and the same pid's Kill line are one kill, in either order")
    func killinfoMerged() throws {
        let kill =
            "10-24 14:26:00.100   710   710 I lowmemorykiller: Kill 'com.example.g' (8001), uid 10200, "
            + "oom_score_adj 950 to free 60000kB rss, 0kB swap; reason: low watermark is breached"
        let info = "10-24 14:26:00.100   710   710 I killinfo: [8001,10200,950,200,60000,2,1024,512]"
        let expected = Expected(
            .lmkd, "com.example.g", 8001, uid: 10200, adj: 950, freed: 60000, reason: "low watermark is breached")
        let killFirst = try read([kill, info])
        #expect(killFirst.kills.map(Expected.init) == [expected])
        let infoFirst = try read([info, kill])
        #expect(infoFirst.kills.count == 1)
        let merged = try #require(infoFirst.kills.first)
        #expect(merged.name == "com.example.g" && merged.pid == 8001 && merged.uid == 10200 && merged.adj == 950)
        #expect(merged.freedKiB == 60000 && merged.reason != nil)
        // Another pid's killinfo is another kill.
        let two = try read([kill, info.replacingOccurrences(of: "[8001,", with: "[8002,")])
        #expect(two.kills.map(\.pid) == [8001, 8002])
    }

    @Test("ActivityManager's 'Killing pid:name/uid (adj N): reason' in threadtime, -v time and Android Studio layouts")
    func activityManagerKilling() throws {
        let expected = Expected(.activityManager, "com.x", 7138, adj: 905, freed: nil, reason: "remove task")
        for line in [
            "10-24 14:27:00.000  1885  2000 I ActivityManager: Killing 7138:com.x/u0a269 (adj 905): remove task",
            "10-24 14:27:00.000 I/ActivityManager( 1885): Killing 7138:com.x/u0a269 (adj 905): remove task",
            "10-24 14:27:00.000 1885-2000/system_process I/ActivityManager: Killing 7138:com.x/u0a269 (adj 905): "
                + "remove task",
            "2024-10-24 14:27:00.000  1885-2000  ActivityManager         system_server                        I  "
                + "Killing 7138:com.x/u0a269 (adj 905): remove task",
        ] {
            let log = try read([line])
            #expect(log.kills.map(Expected.init) == [expected], "\(line)")
            #expect(log.kills.first?.time?.hasSuffix("10-24 14:27:00.000") == true, "\(line)")
        }
    }

    @Test("logcat -v long: the header's tag and time go to the message on the next line")
    func logcatLong() throws {
        let log = try read([
            "[ 10-24 14:24:06.590   710:  710 I/lowmemorykiller ]",
            "Kill 'com.example.h' (9001), uid 10300, oom_score_adj 999 to free 1000kB rss, 0kB swap; reason: "
                + "min watermark is breached",
            "",
        ])
        #expect(
            log.kills.map(Expected.init) == [
                Expected(
                    .lmkd, "com.example.h", 9001, uid: 10300, adj: 999, freed: 1000, reason: "min watermark is breached"
                )
            ])
        #expect(log.kills.first?.time == "10-24 14:24:06.590")
        #expect(log.kills.first?.line == 2)
    }

    @Test("A mail's '> ' quotes and indentation are dropped")
    func mailQuotes() throws {
        let log = try read(
            [
                "> " + Self.driverLines[0], ">> " + Self.driverLines[1], ">  " + Self.driverLines[2],
                "  " + Self.driverLines[3],
            ])
        #expect(log.kills.map(Expected.init) == [Self.driverKill])
        let lmkd = try read([
            "> 10-24 14:24:06.590   710   710 I lowmemorykiller: Kill 'com.example.app' (4951), uid 10123, "
                + "oom_score_adj 905 to free 52340kB rss, 10240kB swap; reason: device is not responding"
        ])
        #expect(lmkd.kills.map(\.pid) == [4951])
    }

    // MARK: - No kill

    @Test("am_low_memory alone: accepted, no kill, a note")
    func lowMemoryOnly() throws {
        let lines = [
            "10-24 14:28:00.000  1885  1900 I am_low_memory: 12",
            "10-24 14:28:05.000  1885  1900 I am_low_memory: 9",
        ]
        let log = try read(lines)
        #expect(log.kills.isEmpty && !log.isEmpty)
        #expect(log.lowMemoryEvents.map(\.count) == [12, 9])
        let evidence = try androidEvidence(lines)
        #expect(evidence.format == .androidLog)
        #expect(evidence.killed.isEmpty)
        #expect(evidence.summary.contains("no kill"), "\(evidence.summary)")
        #expect(
            evidence.notes.contains { $0.contains("am_low_memory 2 times") && $0.contains("12, 9") },
            "\(evidence.notes)")
        #expect(EvidenceFormat.detect(lines) == .androidLog)
    }

    @Test("An LRU list gives who lmkd would kill next, highest adj first, the list's order within an adj")
    func lruList() throws {
        let lines = [
            "  Process LRU list (sorted by oom_adj, 30 total, non-act at 3, non-svc at 3):",
            "    Proc #25: cch+6 B/ /CE trm: 0 4951:com.example/u0a12 (cch-empty)",
            "    Proc #24: prev  B/ /LA trm: 0 5000:com.prev/u0a13 (previous)",
            "    Proc #23: cch+15 B/ /CE trm: 0 5100:com.old/u0a14 (cch-empty)",
            "    Proc #22: cch+6 B/ /CE trm: 0 5200:com.other/u0a16 (cch-empty)",
            "    PERS #21: sys   F/ /P  trm: 0 1885:system/1000 (fixed)",
            "    Proc # 3: fore  T/A/TOP trm: 0 6000:com.top/u0a15 (top-activity)",
        ]
        let log = try read(lines)
        #expect(log.kills.isEmpty)
        #expect(log.listed.map(\.pid) == [4951, 5000, 5100, 5200, 1885, 6000])
        #expect(log.listed.map(\.adjClass) == ["cch+6", "prev", "cch+15", "cch+6", "sys", "fore"])
        let evidence = try androidEvidence(lines)
        #expect(evidence.killed.isEmpty)
        let note = try #require(evidence.notes.first { $0.hasPrefix("who lmkd would kill next") })
        #expect(
            note.hasSuffix(
                "1. com.old[5100] (cch+15 = adj 915), 2. com.example[4951] (cch+6 = adj 906), "
                    + "3. com.other[5200] (cch+6 = adj 906), 4. com.prev[5000] (prev = adj 700), "
                    + "5. com.top[6000] (fore = adj 0)"),
            "\(note)")
        #expect(!note.contains("system["), "adj below 0 is not killable")
        #expect(EvidenceFormat.detect(lines) == .androidLog)
    }

    // MARK: - The killers' rules

    @Test("A driver burst of adj 1000, 1000, 764 with falling sizes: highest adj first holds, largest first")
    func burstHolds() throws {
        var lines: [String] = []
        for (index, (name, pid, adj, kib)) in [
            ("a.one", 101, 1000, 20000), ("a.two", 102, 1000, 15000), ("a.three", 103, 764, 9000),
        ]
        .enumerated() {
            let time = String(format: "%.3f", 200.0 + Double(index) * 0.1)
            lines += [
                "<6>[  \(time)] lowmemorykiller: Killing '\(name)' (\(pid)), adj \(adj),",
                "<6>[  \(time)]    to free \(kib)kB on behalf of 'kswapd0' (442) because",
                "<6>[  \(time)]    cache 32112kB is below limit 32384kB for oom_score_adj \(adj)",
                "<6>[  \(time)]    Free memory is 17432kB above reserved",
            ]
        }
        let evidence = try androidEvidence(lines)
        #expect(evidence.killed.map(\.pid) == [101, 102, 103])
        #expect(evidence.killed.map(\.oomScoreAdj) == [1000, 1000, 764])
        #expect(evidence.killed.map(\.freed) == [.kibibytes(20000), .kibibytes(15000), .kibibytes(9000)])
        #expect(evidence.killed.allSatisfy { $0.killer == "the kernel's lowmemorykiller" && $0.isChoice })
        let note = try #require(evidence.notes.first { $0.hasPrefix("burst of 3 kills") }, "\(evidence.notes)")
        #expect(note.contains("highest oom_score_adj first holds (1000 ×2, then 764)"), "\(note)")
        #expect(note.contains("largest first"), "\(note)")
        #expect(!note.contains("breaks"), "\(note)")
    }

    @Test("An lmkd burst where the adj rises (905 then 995) breaks the rule, naming the later kill")
    func burstBreaks() throws {
        let lines = [
            "10-24 14:24:06.590   710   710 I lowmemorykiller: Kill 'com.first' (3001), uid 10001, oom_score_adj 905 "
                + "to free 5000kB rss, 0kB swap; reason: min watermark is breached",
            "10-24 14:24:06.700   710   710 I lowmemorykiller: Kill 'com.second' (3002), uid 10002, oom_score_adj 995 "
                + "to free 4000kB rss, 0kB swap; reason: min watermark is breached",
        ]
        let evidence = try androidEvidence(lines)
        let note = try #require(evidence.notes.first { $0.hasPrefix("burst of 2 kills by lmkd") }, "\(evidence.notes)")
        #expect(note.contains("breaks"), "\(note)")
        #expect(note.contains("com.second (line 2, adj 995) was killed after com.first (adj 905)"), "\(note)")
        // Two seconds and more apart they are two pressure events, not one burst.
        let apart = try androidEvidence([
            lines[0], lines[1].replacingOccurrences(of: "14:24:06.700", with: "14:24:09.700"),
        ])
        #expect(!apart.notes.contains { $0.hasPrefix("burst") }, "\(apart.notes)")
    }

    @Test("ActivityManager's kills are noted apart: not a low-memory decision, not held to lmkd's rule")
    func activityManagerApart() throws {
        let evidence = try androidEvidence([
            "10-24 14:25:00.000  1885  1900 I am_kill : [0,7138,com.example.d,995,empty #17]",
            "10-24 14:25:00.100  1885  1900 I am_kill : [0,7139,com.example.e,999,empty #18]",
            "10-24 14:25:00.200  1885  2000 I ActivityManager: Killing 7140:com.x/u0a269 (adj 905): remove task",
        ])
        #expect(evidence.killed.count == 3)
        #expect(evidence.killed.allSatisfy { !$0.isChoice && $0.killer == "ActivityManager" })
        #expect(!evidence.notes.contains { $0.hasPrefix("burst") }, "\(evidence.notes)")
        let note = try #require(evidence.notes.first { $0.contains("by ActivityManager") }, "\(evidence.notes)")
        #expect(note.hasPrefix("3 kills by ActivityManager"), "\(note)")
        #expect(note.contains("not a low-memory decision"), "\(note)")
        #expect(note.contains("empty #17") && note.contains("remove task"), "\(note)")
    }

    @Test("Every Android form above is detected as an Android log")
    func detection() throws {
        let forms: [(String, [String])] = [
            (
                "lmkd 11+",
                [
                    "10-24 14:24:06.590   710   710 I lowmemorykiller: Kill 'a' (1), uid 2, oom_score_adj 905 to free 1kB rss, 0kB swap; reason: x"
                ]
            ),
            (
                "lmkd 9",
                ["10-24 14:24:06.590   710   710 I lowmemorykiller: Kill 'a' (1), uid 2, oom_adj 906 to free 1kB"]
            ),
            ("lmkd 8.1", ["03-01 10:00:00.100   612   612 I lowmemorykiller: Killing 'a' (1), uid 2, adj 900"]),
            ("driver", Self.driverLines),
            ("driver \\x0a", [Self.driverLines.joined(separator: "\\x0a")]),
            ("am_kill", ["10-24 14:25:00.000  1885  1900 I am_kill : [0,7138,com.example.d,905,empty #17]"]),
            ("am_kill brief", ["I/am_kill ( 1885): [0,7140,com.example.f,925,empty #19]"]),
            ("killinfo", ["10-24 14:26:00.100   710   710 I killinfo: [8001,10200,950,200,60000,2,1024,512]"]),
            (
                "Killing",
                ["10-24 14:27:00.000 I/ActivityManager( 1885): Killing 7138:com.x/u0a269 (adj 905): remove task"]
            ),
            ("quoted", ["> " + Self.driverLines[0]]),
            ("am_low_memory", ["10-24 14:28:00.000  1885  1900 I am_low_memory: 12"]),
            ("LRU", ["  Process LRU list (sorted by oom_adj, 30 total, non-act at 3, non-svc at 3):"]),
        ]
        for (name, lines) in forms {
            #expect(EvidenceFormat.detect(lines) == .androidLog, "\(name)")
        }
    }

    /// Forms the reader reads that recognition misses when they stand alone: `logcat -v long`
    /// (the tag is on the header line, the `Kill '…'` on the next) and the 3.0-era driver's
    /// `send sigkill` line (printed with no `lowmemorykiller:` prefix).
    @Test("logcat -v long and the 3.0-era 'send sigkill' line alone are detected as Android logs")
    func detectionOfLoneForms() throws {
        let long = [
            "[ 10-24 14:24:06.590   710:  710 I/lowmemorykiller ]",
            "Kill 'com.example.h' (9001), uid 10300, oom_score_adj 999 to free 1000kB rss, 0kB swap; reason: x",
        ]
        #expect(EvidenceFormat.detect(long) == .androidLog, "logcat -v long")
        #expect(
            EvidenceFormat.detect(["<4>[ 5000.123] send sigkill to 3456 (com.android.browser), adj 8, size 12000"])
                == .androidLog, "send sigkill")
    }

    @Test("Death lines confirm kills by pid; no-break spaces read as blanks; a log of nothing gives no evidence")
    func confirmationsAndBlanks() throws {
        let lines = [
            "10-24 14:25:00.000  1885  1900 I am_kill : [0,7138,com.example.d,905,empty #17]",
            "10-24 14:25:00.000  1885  1900 I am_kill : [0,7139,com.example.e,915,empty #18]",
            "10-24 14:25:00.050   600   600 I Zygote  : Process 7138 exited due to signal 9 (Killed)",
            "10-24 14:25:00.060  1885  1910 I ActivityManager: Process com.example.e (pid 7139) has died: cch+5 CEM",
        ]
        let log = try read(lines)
        #expect(log.confirmedDeaths == [7138, 7139])
        let evidence = try androidEvidence(lines)
        #expect(evidence.notes.contains { $0.hasPrefix("2 of 2 kills confirmed by a death line") }, "\(evidence.notes)")
        let spaced = try read(Self.driverLines.map { $0.replacingOccurrences(of: " ", with: "\u{A0}") })
        #expect(spaced.kills.map(Expected.init) == [Self.driverKill])
        let nothing = try EvidenceLogReader.reports(
            in: "--------- beginning of main\nI chatty  : uid=1000(system) expire 3 lines\n", format: .androidLog,
            source: "quiet.log")
        #expect(nothing.isEmpty)
    }

    // MARK: - Properties

    @Test("Random kills in random layouts and logcat prefixes, among unrelated lines, read back exactly, in order")
    func randomKillsReadBack() throws {
        try withEvery("seed", in: UInt64(0)..<200) { seed in
            var random = SplitMix64(seed: seed)
            let generated = RandomAndroidLog.make(using: &random)
            let log = try read(generated.lines)
            let got = log.kills.map(Expected.init)
            let message = TestContext.annotate(
                "kills differ:\n got      \(got)\n expected \(generated.kills)\n log:\n"
                    + generated.lines.joined(separator: "\n"))
            #expect(got == generated.kills, "\(message)")
        }
    }

    @Test("Random bursts: the rule check agrees with a reference model (breaks exactly at each rise; sizes per adj)")
    func burstRuleAgainstModel() throws {
        try withEvery("seed", in: UInt64(0)..<300) { seed in
            var random = SplitMix64(seed: seed)
            var lines: [String] = []
            var expectedNotes: [(count: Int, breaks: [String], sizes: [Int: Bool])] = []
            var pid = 100
            for burst in 0..<Int.random(in: 1...3, using: &random) {
                let driver = Bool.random(using: &random)
                var kills: [(name: String, adj: Int, kib: Int)] = []
                for index in 0..<Int.random(in: 1...6, using: &random) {
                    pid += 1
                    let kill = (
                        name: "p\(pid)", adj: [1000, 906, 900, 764, 529, 0].randomElement(using: &random)!,
                        kib: [1000, 2000, 3000].randomElement(using: &random)!
                    )
                    kills.append(kill)
                    let clock = 3600.0 + Double(burst) * 10 + Double(index) * 0.1
                    if driver {
                        let time = String(format: "%.6f", clock)
                        lines += [
                            "<6>[ \(time)] lowmemorykiller: Killing '\(kill.name)' (\(pid)), adj \(kill.adj),",
                            "<6>[ \(time)]    to free \(kill.kib)kB on behalf of 'kswapd0' (442) because",
                            "<6>[ \(time)]    cache 1kB is below limit 2kB for oom_score_adj \(kill.adj)",
                        ]
                    } else {
                        let seconds = Int(clock)
                        let time = String(
                            format: "10-24 %02d:%02d:%02d.%03d", seconds / 3600, seconds / 60 % 60, seconds % 60,
                            Int((clock * 1000).rounded()) % 1000)
                        lines.append(
                            "\(time)   710   710 I lowmemorykiller: Kill '\(kill.name)' (\(pid)), uid 10000, "
                                + "oom_score_adj \(kill.adj) to free \(kill.kib)kB rss, 0kB swap; reason: x")
                    }
                }
                guard kills.count >= 2 else { continue }
                // The model: a rise of adj from one kill to the next breaks the rule; within an adj,
                // the sizes hold if they never rise.
                var breaks: [String] = []
                for (previous, kill) in zip(kills, kills.dropFirst()) where kill.adj > previous.adj {
                    breaks.append("\(kill.name) (line ")
                }
                var sizes: [Int: Bool] = [:]
                for adj in Set(kills.map(\.adj)) {
                    let list = kills.filter { $0.adj == adj }.map(\.kib)
                    guard list.count >= 2 else { continue }
                    sizes[adj] = zip(list, list.dropFirst()).allSatisfy { $0 >= $1 }
                }
                expectedNotes.append((kills.count, breaks, sizes))
            }
            let evidence = try androidEvidence(lines)
            let notes = evidence.notes.filter { $0.hasPrefix("burst of ") }
            #expect(notes.count == expectedNotes.count, "\(TestContext.annotate("\(notes)"))")
            for (note, expected) in zip(notes, expectedNotes) {
                let context = TestContext.annotate(note)
                #expect(note.hasPrefix("burst of \(expected.count) kills"), "\(context)")
                #expect(note.contains(": highest oom_score_adj first holds") == expected.breaks.isEmpty, "\(context)")
                #expect(note.contains("highest oom_score_adj first breaks") == !expected.breaks.isEmpty, "\(context)")
                for name in expected.breaks { #expect(note.contains(name), "\(context)") }
                #expect(
                    note.components(separatedBy: " was killed after ").count - 1 == expected.breaks.count, "\(context)")
                for (adj, holds) in expected.sizes {
                    let says =
                        holds
                        ? "within adj \(adj) each kill frees no more than the one before"
                        : "within adj \(adj) the sizes do not fall"
                    #expect(note.contains(says), "\(context): expected '\(says)'")
                }
            }
        }
    }

    @Test("Random bytes and mutated kill lines never crash the reader and never make it throw", .singleThreadedLongRun)
    func hostileLines() throws {
        let seeds: [String] =
            [
                Self.driverLines.joined(separator: "\\x0a"),
                "10-24 14:24:06.590   710   710 I lowmemorykiller: Kill 'com.example.app' (4951), uid 10123, "
                    + "oom_score_adj 905 to free 52340kB rss, 10240kB swap; reason: device is not responding",
                "10-24 14:25:01.000  system  1885  1900 I am_kill : [0,7139,com.example.e:remote,915,empty #18,40960]",
                "10-24 14:27:00.000 I/ActivityManager( 1885): Killing 7138:com.x/u0a269 (adj 905): remove task",
                "<4>[ 5000.123] send sigkill to 3456 (com.android.browser), adj 8, size 12000",
                "[ 10-24 14:24:06.590   710:  710 I/lowmemorykiller ]",
                "    Proc #25: cch+6 B/ /CE trm: 0 4951:com.example/u0a12 (cch-empty)",
                "10-24 14:26:00.100   710   710 I killinfo: [8001,10200,950,200,60000,2,1024,512]",
                "10-24 14:28:00.000  1885  1900 I am_low_memory: 12",
            ] + Self.driverLines
        let alphabet =
            Array("0123456789 -:,.'()[]<>/\\x#+kB\u{A0}é\r\t")
            + ["9223372036854775808", "-9223372036854775809"]
            .flatMap { Array($0) }
        try withEvery("seed", in: UInt64(0)..<300) { seed in
            var random = SplitMix64(seed: seed)
            var lines: [String] = []
            for _ in 0..<40 {
                if Bool.random(using: &random) {
                    var bytes = (0..<Int.random(in: 0..<120, using: &random)).map { _ in
                        UInt8.random(in: 0...255, using: &random)
                    }
                    if bytes.count > 4, Bool.random(using: &random) {
                        bytes.replaceSubrange(0..<2, with: Array("<6".utf8))
                    }
                    lines.append(String(decoding: bytes, as: UTF8.self))
                } else {
                    var line = Array(seeds.randomElement(using: &random)!)
                    for _ in 0..<Int.random(in: 1...6, using: &random) where !line.isEmpty {
                        let at = Int.random(in: 0..<line.count, using: &random)
                        switch Int.random(in: 0..<4, using: &random) {
                        case 0: line.remove(at: at)
                        case 1: line.insert(alphabet.randomElement(using: &random)!, at: at)
                        case 2: line[at] = alphabet.randomElement(using: &random)!
                        default: line = Array(line[..<at])
                        }
                    }
                    lines.append(String(line))
                }
            }
            let log = try read(lines)
            _ = log.evidence(source: "hostile.log")
            _ = EvidenceFormat.detect(lines)
            var reader = EvidenceLogReader(format: .androidLog, source: "hostile.log")
            for (offset, line) in lines.enumerated() { try reader.consume(line[...], lineNumber: offset + 1) }
            for report in reader.finish() {
                let section = KillOrderReport.EvidenceSection(evidence: report, ranking: nil)
                _ = section.killsTable + section.json + section.tableFooter
            }
        }
    }
}

/// A random Android log: kills in every layout the reader knows, each behind a random logcat (or
/// dmesg) prefix, with unrelated lines between them; and the kills it states.
private enum RandomAndroidLog {
    static let nameAlphabet = Array("abcdefxyz019.:_")
    static let unrelated = [
        "I chatty  : uid=1000(system) Binder:1885_3 expire 3 lines",
        "D WifiStateMachine: connected to network 7",
        "I/ActivityManager( 1885): Start proc 1234:com.foo/u0a5 for activity com.foo/.Main",
        "W/art: Suspending all threads took: 5.012ms",
        "I ActivityManager: Process com.foo (pid 4567) has died: cch+5 CEM",
        "I Zygote  : Process 4567 exited due to signal 9 (Killed)",
        "D lowmemorykiller: Using psi monitors for memory pressure detection",
        "<6>[  100.000] binder: 1885:2000 transaction failed 29189/-22",
        "--------- beginning of main",
        "",
    ]
    static let lmkdReasons = [
        "device is not responding", "low watermark is breached and swap is low (1234kB < 5678kB)",
        "min watermark is breached", "critical pressure and swap is low",
    ]
    static let amReasons = [
        "empty #17", "remove task", "empty for 1800s", "excessive cpu 1000 during 300000 dur=1 limit=2",
    ]

    static func make(using random: inout SplitMix64) -> (lines: [String], kills: [Expected]) {
        var lines: [String] = []
        var kills: [Expected] = []
        var pids = Set<Int>()
        var clock = Double.random(in: 0..<80_000, using: &random)
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                lines.append(
                    prefix(tag: "Binder", clock: clock, random: &random) + unrelated.randomElement(using: &random)!)
            }
            clock += Double.random(in: 0..<5, using: &random)
            var pid = Int.random(in: 2...99_999, using: &random)
            while pids.contains(pid) { pid = Int.random(in: 2...99_999, using: &random) }
            pids.insert(pid)
            var name = String(
                (0..<Int.random(in: 1...20, using: &random)).map { _ in nameAlphabet.randomElement(using: &random)! })
            if Bool.random(using: &random) { name = "com." + name }
            let uid = Int.random(in: 0...99_999, using: &random)
            let adj = Int.random(in: -1000...1000, using: &random)
            let kib = Int64.random(in: 0...10_000_000, using: &random)
            let quote = Int.random(in: 0..<8, using: &random) == 0 ? "> " : ""
            switch Int.random(in: 0..<8, using: &random) {
            case 0:  // lmkd 11+
                let reason = lmkdReasons.randomElement(using: &random)!
                let swap = Int64.random(in: 0...1_000_000, using: &random)
                lines.append(
                    quote + prefix(tag: "lowmemorykiller", clock: clock, random: &random)
                        + "Kill '\(name)' (\(pid)), uid \(uid), oom_score_adj \(adj) to free \(kib)kB rss, \(swap)kB swap; "
                        + "reason: \(reason)")
                kills.append(Expected(.lmkd, name, pid, uid: uid, adj: adj, freed: kib, reason: reason))
            case 1:  // lmkd 9–10
                lines.append(
                    quote + prefix(tag: "lowmemorykiller", clock: clock, random: &random)
                        + "Kill '\(name)' (\(pid)), uid \(uid), oom_adj \(adj) to free \(kib)kB")
                kills.append(Expected(.lmkd, name, pid, uid: uid, adj: adj, freed: kib, reason: nil))
            case 2:  // lmkd 8.1, two lines
                let reason = "cache 120000kB is below limit 122880kB for oom_adj \(adj)"
                let head = prefix(tag: "lowmemorykiller", clock: clock, random: &random)
                lines.append(quote + head + "Killing '\(name)' (\(pid)), uid \(uid), adj \(adj)")
                lines.append(quote + head + "   to free \(kib)kB because \(reason)")
                kills.append(Expected(.lmkd, name, pid, uid: uid, adj: adj, freed: kib, reason: reason))
            case 3:  // the driver, four lines (or one with \x0a)
                let reason = "cache 32112kB is below limit 32384kB for oom_score_adj \(adj)"
                let head = prefix(tag: "lowmemorykiller", clock: clock, random: &random, kernel: true)
                let parts = [
                    "Killing '\(name)' (\(pid)), adj \(adj),",
                    "   to free \(kib)kB on behalf of 'kswapd0' (442) because",
                    "   \(reason)",
                    "   Free memory is 17432kB above reserved",
                ]
                if Int.random(in: 0..<3, using: &random) == 0 {
                    lines.append(quote + head + parts.joined(separator: "\\x0a"))
                } else {
                    lines += parts.map { quote + head + $0 }
                }
                kills.append(Expected(.kernelDriver, name, pid, adj: adj, freed: kib, reason: reason))
            case 4:  // the 3.0-era driver
                let pages = Int64.random(in: 0...1_000_000, using: &random)
                lines.append(
                    quote + prefix(tag: "lowmemorykiller", clock: clock, random: &random, kernel: true)
                        + "send sigkill to \(pid) (\(name)), adj \(adj), size \(pages)")
                kills.append(
                    Expected(
                        .kernelDriver, name, pid, adj: adj, freed: pages * 4, reason: "size in pages, taken as 4 KiB"))
            case 5:  // am_kill, 5 fields
                let reason = amReasons.randomElement(using: &random)!
                lines.append(
                    quote + prefix(tag: "am_kill", clock: clock, random: &random)
                        + "[0,\(pid),\(name),\(adj),\(reason)]")
                kills.append(Expected(.activityManager, name, pid, adj: adj, freed: nil, reason: reason))
            case 6:  // am_kill, 6 fields (Android 12+)
                let reason = amReasons.randomElement(using: &random)!
                lines.append(
                    quote + prefix(tag: "am_kill", clock: clock, random: &random)
                        + "[0,\(pid),\(name),\(adj),\(reason),\(kib)]")
                kills.append(Expected(.activityManager, name, pid, adj: adj, freed: kib, reason: reason))
            default:  // ActivityManager's Killing
                let reason = amReasons.randomElement(using: &random)!
                lines.append(
                    quote + prefix(tag: "ActivityManager", clock: clock, random: &random)
                        + "Killing \(pid):\(name)/u0a\(uid % 1000) (adj \(adj)): \(reason)")
                kills.append(Expected(.activityManager, name, pid, adj: adj, freed: nil, reason: reason))
            }
        }
        return (lines, kills)
    }

    /// A random prefix for a message of `tag` at `clock` seconds: a logcat `-v` format, or (for
    /// the kernel's own lines) dmesg's.
    static func prefix(tag: String, clock: Double, random: inout SplitMix64, kernel: Bool = false) -> String {
        let seconds = Int(clock) % 86_400
        let time = String(
            format: "10-24 %02d:%02d:%02d.%03d", seconds / 3600, seconds / 60 % 60, seconds % 60,
            Int(clock * 1000) % 1000)
        let pid = Int.random(in: 1...32768, using: &random)
        let forms = kernel ? 7 : 6
        switch Int.random(in: 0..<forms, using: &random) {
        case 0: return "\(time)  \(pid)  \(pid + 1) I \(tag): "  // threadtime
        case 1: return "\(time) I/\(tag)(\(String(repeating: " ", count: 5 - min(5, "\(pid)".count)))\(pid)): "  // time
        case 2: return "I/\(tag)(\(pid)): "  // brief
        case 3: return "2026-\(time)  \(pid)  \(pid) I \(tag): "  // -v year
        case 4: return "\(time)  system  \(pid)  \(pid) I \(tag): "  // -v uid
        case 5:
            // -v epoch
            return "1729779846.\(String(format: "%03d", Int(clock * 1000) % 1000))  \(pid)  \(pid) I \(tag): "
        default: return "<6>[\(String(format: "%12.6f", clock))] \(tag): "  // dmesg
        }
    }
}
