import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// earlyoom's log behind every prefix a journal, syslog or a user puts before it, in every
// generation of its kill line. The lines below are NOT real: they are constructed from earlyoom's
// format strings (kill.c `kill_process()` of 1.1, the 2019 master, 1.3–1.7 and 1.8+; main.c
// `print_mem_stats()`). The real logs are in evidence/earlyoom and evidence/public/earlyoom.

/// The prefixes a line of earlyoom's may carry.
private let prefixes: [(name: String, text: String)] = [
    ("journal, short-iso", "2026-09-10T21:54:23-04:00 host earlyoom[904]: "),
    ("syslog", "Sep 10 21:54:23 host earlyoom[904]: "),
    ("syslog without a pid", "host earlyoom: "),
    ("tag alone", "earlyoom: "),
    ("journalctl -o cat", ""),
    ("a user's own time", "Jun 12 06:39:16: "),
    ("indented", "   "),
]

/// What one generation's kill line must give.
private struct Generation {
    var name: String
    var line: String
    var pid: Int, processName: String, signal: String, score: Int, residentMiB: Int64, scoreName: String
    var uid: Int?, oomScoreAdj: Int?
}

private let generations: [Generation] = [
    Generation(
        name: "1.8+",
        line: "sending SIGTERM to process 4242 uid 1000 \"bun\": oom_score 712, oom_score_adj 0, VmRSS 4514 MiB, "
            + "cmdline \"bun test --watch src/\"",
        pid: 4242, processName: "bun", signal: "SIGTERM", score: 712, residentMiB: 4514, scoreName: "oom_score",
        uid: 1000, oomScoreAdj: 0),
    Generation(
        name: "1.3–1.7",
        line: "sending SIGTERM to process 7372 uid 0 \"hog-1g\": badness 999, VmRSS 6318 MiB",
        pid: 7372, processName: "hog-1g", signal: "SIGTERM", score: 999, residentMiB: 6318, scoreName: "badness",
        uid: 0),
    Generation(
        name: "2019",
        line: "killing process 27541 \"bash\" with signal 15: badness 550, VmRSS 7609 MiB",
        pid: 27541, processName: "bash", signal: "SIGTERM", score: 550, residentMiB: 7609, scoreName: "badness"),
    Generation(
        name: "1.1",
        line: "Killing process 'bash' with signal 15, pid: 5874, badness: 538, VmRSS: 3160 MiB",
        pid: 5874, processName: "bash", signal: "SIGTERM", score: 538, residentMiB: 3160, scoreName: "badness"),
]

private let memoryLine = "mem avail: 1200 of 17518 MiB ( 6.85%), swap free: 13345 of 47119 MiB (28.32%)"

@Suite("earlyoom's log behind every journal prefix, in every kill-line generation")
struct EarlyoomJournalTests {
    @Test("Every prefix × every kill-line generation: pid, name, signal, score, VmRSS and the score's name")
    func prefixesByGenerations() throws {
        for prefix in prefixes {
            for generation in generations {
                let context = "\(prefix.name), \(generation.name)"
                let text = prefix.text + memoryLine + "\n" + prefix.text + generation.line + "\n"
                let kills = try EarlyoomLogParser.kills(in: text, file: "test.log")
                #expect(kills.count == 1, "\(context)")
                guard let kill = kills.first else { continue }
                #expect(kill.pid == generation.pid, "\(context)")
                #expect(kill.name == generation.processName, "\(context)")
                #expect(kill.signal == generation.signal, "\(context)")
                #expect(kill.badness == generation.score, "\(context)")
                #expect(kill.residentMiB == generation.residentMiB, "\(context)")
                #expect(kill.scoreName == generation.scoreName, "\(context)")
                #expect(kill.uid == (generation.uid ?? -1), "\(context)")
                #expect(kill.oomScoreAdj == generation.oomScoreAdj, "\(context)")
                #expect(kill.line == 2, "\(context)")
                let evidence = kill.evidence(source: "test.log")
                #expect(evidence.killed.map(\.pid) == [generation.pid], "\(context)")
                #expect(evidence.killed.first?.name == generation.processName, "\(context)")
                #expect(evidence.killed.first?.score == Int64(generation.score), "\(context)")
                #expect(evidence.killed.first?.freed == .mebibytes(generation.residentMiB), "\(context)")
                #expect(
                    evidence.summary.hasPrefix("SIGTERM to \(generation.processName)[\(generation.pid)]"), "\(context)")
            }
        }
    }

    @Test("earlyoom 1.8's cmdline does not become the name, even when it holds quotes and a colon")
    func cmdlineIsNotTheName() throws {
        let line =
            "earlyoom[904]: sending SIGTERM to process 4242 uid 1000 \"bun\": oom_score 712, oom_score_adj 0, "
            + "VmRSS 4514 MiB, cmdline \"bun test \"a\": b --x\""
        let kill = try #require(try EarlyoomLogParser.kills(in: line, file: "t.log").first)
        #expect(kill.name == "bun")
        #expect(kill.badness == 712 && kill.scoreName == "oom_score" && kill.residentMiB == 4514)
    }

    @Test("mem avail's 'of' figures give the totals when the log has no 'mem total:' line")
    func totalsFromMemAvail() throws {
        for prefix in prefixes {
            let text = prefix.text + memoryLine + "\n" + prefix.text + generations[1].line + "\n"
            let kill = try #require(try EarlyoomLogParser.kills(in: text, file: "t.log").first, "\(prefix.name)")
            #expect(kill.memoryTotalMiB == 17518, "\(prefix.name)")
            #expect(kill.swapTotalMiB == 47119, "\(prefix.name)")
            #expect(kill.availableMiB == 1200, "\(prefix.name)")
            #expect(!kill.hasStartup, "\(prefix.name)")
            #expect(!kill.evidence(source: "t.log").missing.contains { $0.hasPrefix("mem total") }, "\(prefix.name)")
        }
        // A `mem total:` line, where the log has it, stands.
        let started = "mem total: 16000 MiB, swap total: 40000 MiB\n" + memoryLine + "\n" + generations[1].line
        let kill = try #require(try EarlyoomLogParser.kills(in: started, file: "t.log").first)
        #expect(kill.memoryTotalMiB == 16000 && kill.swapTotalMiB == 40000 && kill.hasStartup)
    }

    @Test("An episode with 'low memory!' and no kill is one evidence with no victim")
    func episodeWithoutKill() throws {
        for prefix in prefixes {
            let text =
                [
                    memoryLine,
                    "low memory! at or below SIGTERM limits: mem 10.00%, swap 30.00%",
                    "mem avail: 2400 of 17518 MiB (13.70%), swap free: 13345 of 47119 MiB (28.32%)",
                ].map { prefix.text + $0 }.joined(separator: "\n") + "\n"
            let reports = try EvidenceLogReader.reports(in: text, format: .earlyoom, source: "quiet.log")
            #expect(reports.count == 1, "\(prefix.name)")
            guard let evidence = reports.first else { continue }
            #expect(evidence.format == .earlyoom)
            #expect(evidence.killed.isEmpty, "\(prefix.name)")
            #expect(evidence.snapshot == nil)
            #expect(evidence.location == "lines 1–3", "\(prefix.name): \(evidence.location)")
            #expect(evidence.summary.contains("no victim"), "\(prefix.name): \(evidence.summary)")
            #expect(evidence.notes.contains { $0.contains("low memory! at or below SIGTERM limits") }, "\(prefix.name)")
            #expect(evidence.missing.contains { $0.hasPrefix("a kill") }, "\(prefix.name)")
        }
        // With a kill after it, the kill is the only evidence.
        let withKill = [
            memoryLine, "low memory! at or below SIGTERM limits: mem 10.00%, swap 30.00%", generations[0].line,
        ]
        .joined(separator: "\n")
        let reports = try EvidenceLogReader.reports(in: withKill, format: .earlyoom, source: "kill.log")
        #expect(reports.count == 1 && reports.first?.killed.map(\.pid) == [4242])
        #expect(reports.first?.killed.first?.reason?.contains("low memory!") == true)
    }

    @Test("detect() names earlyoom behind every prefix, for an episode of every generation")
    func detection() {
        for prefix in prefixes {
            for generation in generations {
                let lines = [prefix.text + memoryLine, prefix.text + generation.line]
                #expect(EvidenceFormat.detect(lines) == .earlyoom, "\(prefix.name), \(generation.name)")
            }
            #expect(
                EvidenceFormat.detect([prefix.text + "low memory! at or below SIGTERM limits: mem 10.00%, swap 30.00%"])
                    == .earlyoom, "\(prefix.name), low memory!")
        }
    }

    /// A kill line alone (an excerpt that starts at the kill): 1.3+ says `sending SIGTERM to
    /// process`, which recognition knows; the older generations say `killing process` and
    /// `Killing process '…' with signal`.
    @Test("detect() names earlyoom for a lone kill line of every generation behind every prefix")
    func detectionOfALoneKillLine() {
        var misses: [String] = []
        for prefix in prefixes {
            for generation in generations where EvidenceFormat.detect([prefix.text + generation.line]) != .earlyoom {
                misses.append("\(prefix.name) × \(generation.name)")
            }
        }
        #expect(misses.isEmpty, "not detected: \(misses.joined(separator: "; "))")
    }
    /// evidence/earlyoom/01-three-hogs.log and 08-prefer-avoid.log are real earlyoom 1.7 output
    /// with `-d` (its process lists) and, in 08, `--prefer` and `--avoid`; here each of their lines
    /// is put behind each prefix (the wrapping is constructed, the lines are real).
    @Test("A real -d log behind every prefix reads as it does bare: the same kills, process lists and --prefer/--avoid")
    func processListsBehindEveryPrefix() throws {
        struct Summary: Equatable {
            var kills: [String]
            var candidates: [[Int]]
            var totals: [Int64?]
            var patterns: [String?]
        }
        func summary(_ kills: [EarlyoomKill]) -> Summary {
            Summary(
                kills: kills.map { "\($0.signal) \($0.name)[\($0.pid)] \($0.badness) \($0.residentMiB)" },
                candidates: kills.map { $0.candidates.map(\.pid) },
                totals: kills.flatMap { [$0.memoryTotalMiB, $0.swapTotalMiB] },
                patterns: kills.flatMap { [$0.preferPattern, $0.avoidPattern] })
        }
        for file in ["evidence/earlyoom/01-three-hogs.log", "evidence/earlyoom/08-prefer-avoid.log"] {
            let text = try String(contentsOfFile: PackagePaths.path(file), encoding: .utf8)
            let bare = summary(try EarlyoomLogParser.kills(in: text, file: file))
            #expect(!bare.kills.isEmpty && bare.candidates.allSatisfy { !$0.isEmpty })
            for prefix in prefixes {
                let wrapped = text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix.text + $0 }
                    .joined(separator: "\n")
                let got = summary(try EarlyoomLogParser.kills(in: wrapped, file: file))
                #expect(got == bare, "\(file) behind \(prefix.name)")
            }
        }
    }
}

/// The times at the start of log lines, in every form the history view reads.
@Suite("Log times")
struct LogTimeTests {
    @Test("syslog, ISO 8601, logcat with and without a year, dmesg and /dev/kmsg times, each with its kind and order")
    func forms() throws {
        let cases: [(String, String, LogTime.Kind)] = [
            ("Jun 20 12:47:04 new-db1 kernel: [15180285.657506] x", "Jun 20 12:47:04", .syslog),
            ("Jun  5 02:03:04 host earlyoom[1]: x", "Jun  5 02:03:04", .syslog),
            ("2026-09-10T21:54:23-04:00 host earlyoom[904]: x", "2026-09-10T21:54:23-04:00", .calendar),
            ("2026-10-24 14:24:06.590   710   710 I lmkd: x", "2026-10-24 14:24:06.590", .calendar),
            ("10-24 14:24:06.590   710   710 I lowmemorykiller: x", "10-24 14:24:06.590", .monthDay),
            ("<6>[  123.456789] lowmemorykiller: x", "[  123.456789]", .uptime),
            ("6,1234,5678901,-;Out of memory: x", "[5.678901]", .uptime),
        ]
        for (line, text, kind) in cases {
            let time = try #require(LogTime.parse(line), "\(line)")
            #expect(time.text == text && time.kind == kind, "\(line): \(time)")
        }
        #expect(LogTime.parse("host systemd[1]: Started") == nil)
        #expect(LogTime.parse("") == nil)
        let earlier = try #require(LogTime.parse("Jun 20 12:47:04 a")),
            later = try #require(LogTime.parse("Jul  1 00:00:00 b"))
        #expect(earlier.key < later.key)
    }
}
