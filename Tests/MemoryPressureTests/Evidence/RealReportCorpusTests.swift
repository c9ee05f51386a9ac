import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Ground truth (issue 22): every real report kept in evidence/ — kills the Linux kernel and
// earlyoom really made on a real machine (scripts/collect-linux-oom-reports.py,
// scripts/collect-earlyoom-log.py; evidence/README.md) — is read, rebuilt and ranked by the
// policy of the system that wrote it, and the real victim must be that policy's first choice.

/// The files of `folder` under evidence/ that end in `.log`, sorted.
private func corpus(_ folder: String) throws -> [String] {
    let directory = PackagePaths.path("evidence/\(folder)")
    return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".log") }.sorted()
        .map { directory + "/" + $0 }
}

@Suite("Real reports: the matching policy names the real victim first")
struct RealReportCorpusTests {
    @Test("linux-oom ranks the kernel's victim first in every report of the corpus")
    func linuxCorpus() throws {
        let policy = try Policy.shipped("linux-oom")
        var reports = 0
        var global = 0
        var swapped = 0
        for path in try corpus("linux-oom") {
            let parsed = try KernelOOMReportParser.reports(
                in: try String(contentsOfFile: path, encoding: .utf8), file: path)
            #expect(!parsed.isEmpty, "\(path): no report read")
            for report in parsed {
                reports += 1
                if report.constraint == KernelOOMReport.Constraint.none { global += 1 }
                if report.tasks.contains(where: { ($0.swapEntries ?? 0) > 0 }) { swapped += 1 }
                #expect(report.columns.contains("pgtables_bytes"), "\(path): layout \(report.columns)")
                #expect(report.derivedPageSize == 4096, "\(path) line \(report.firstLine): page size not shown")
                let evidence = report.evidence(source: path)
                let ranking = try #require(try EvidenceRanking(evidence, policy: policy))
                let killed = try #require(
                    evidence.killed.first?.app, "\(path) line \(report.firstLine): victim not in the table")
                #expect(
                    ranking.rank(of: killed) == 1,
                    "\(path) line \(report.firstLine): \(ranking.verdicts(for: evidence).joined(separator: "; "))")
            }
        }
        // The corpus as committed: 56 kills in 37 logs, one of them a whole-machine OOM, 17 of them
        // over zram swap with swapped-out tasks in the table.
        #expect(reports == 56)
        #expect(global == 1)
        #expect(swapped == 17)
    }

    @Test("earlyoom ranks earlyoom's victim first in every kill of its log")
    func earlyoomCorpus() throws {
        let policy = try Policy.shipped("earlyoom")
        var kills = 0
        for path in try corpus("earlyoom") {
            for kill in try EarlyoomLogParser.kills(in: try String(contentsOfFile: path, encoding: .utf8), file: path) {
                kills += 1
                #expect(kill.signal == "SIGTERM")
                #expect(!kill.candidates.isEmpty)
                let evidence = kill.evidence(source: path)
                let ranking = try #require(try EvidenceRanking(evidence, policy: policy))
                let victim = try #require(evidence.killed.first?.app)
                #expect(ranking.rank(of: victim) == 1, "\(path): \(ranking.verdicts(for: evidence))")
            }
        }
        // The corpus as committed: 20 kills in 8 logs (scripts/collect-earlyoom-log.py).
        #expect(kills == 20)
    }

    /// evidence/earlyoom/08-prefer-avoid.log: earlyoom was started with `--prefer` and `--avoid`,
    /// which its start-up lines state (main.c). The reader takes them as the killer's own name
    /// preferences (kill.c: +300 and −300), every policy ranks with them, and earlyoom's rule then
    /// names the preferred 713 MiB process before the 1.5 GiB one, as earlyoom did.
    @Test("earlyoom's --prefer and --avoid are read from its start-up lines and ranked with")
    func preferAndAvoid() throws {
        let path = PackagePaths.path("evidence/earlyoom/08-prefer-avoid.log")
        let kill = try #require(
            try EarlyoomLogParser.kills(in: try String(contentsOfFile: path, encoding: .utf8), file: path).first)
        #expect(kill.preferPattern == "^hog-700m-prefer$" && kill.avoidPattern == "^hog-2000m-avoid$")
        let evidence = kill.evidence(source: path)
        #expect(
            evidence.preferences == [
                NamePreference(pattern: "^hog-700m-prefer$", score: 300),
                NamePreference(pattern: "^hog-2000m-avoid$", score: -300),
            ])
        #expect(!evidence.missing.contains { $0.contains("--prefer") })
        let victim = try #require(evidence.killed.first?.app)
        #expect(victim.rawValue.hasPrefix("hog-700m-prefer["))
        var policy = try Policy.shipped("earlyoom")
        #expect(try EvidenceRanking(evidence, policy: policy)?.rank(of: victim) == 1)
        // A policy that states the same preference does not count it twice: the order is the same.
        policy.preferences = evidence.preferences
        #expect(
            try EvidenceRanking(evidence, policy: policy)?.order.map(\.app)
                == EvidenceRanking(
                    evidence, policy: try Policy.shipped("earlyoom"))?.order.map(\.app))
        // Without the start-up lines the reader says what it cannot know; a pattern it cannot
        // read is named, not guessed.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let cut = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(6).joined(separator: "\n")
        let headless = try #require(try EarlyoomLogParser.kills(in: cut, file: "cut.log").first)
        #expect(headless.preferPattern == nil && headless.evidence(source: "cut.log").preferences.isEmpty)
        #expect(headless.evidence(source: "cut.log").missing.contains { $0.contains("--prefer and --avoid") })
        let unreadable = text.replacingOccurrences(of: "regex '^hog-700m-prefer$'", with: "regex 'hog(-700m'")
        let odd = try #require(try EarlyoomLogParser.kills(in: unreadable, file: "odd.log").first)
        #expect(odd.evidence(source: "odd.log").missing.contains { $0.contains("--prefer 'hog(-700m'") })
        #expect(
            odd.evidence(source: "odd.log").preferences == [NamePreference(pattern: "^hog-2000m-avoid$", score: -300)])
    }

    /// evidence/earlyoom/07-rounded-tie.log: the kernel's own points rank hog-1015m-adj30 higher
    /// (oom_badness() → 72 against 71 per mille), but `/proc/PID/oom_score`, which earlyoom reads,
    /// is `(1000 + points × 1000 / totalpages) × 2 / 3` rounded down: 714 for both, and earlyoom
    /// breaks the tie by VmRSS. `earlyoom` models that read and ranks the real victim first;
    /// `linux-oom`, the kernel's own choice, would have killed the other.
    @Test("A rounded oom_score tie: earlyoom's rule names the real victim, the kernel's rule the other")
    func roundedTie() throws {
        let path = PackagePaths.path("evidence/earlyoom/07-rounded-tie.log")
        let kill = try #require(
            try EarlyoomLogParser.kills(in: try String(contentsOfFile: path, encoding: .utf8), file: path).first)
        #expect(kill.name == "hog-1713m-adj0" && kill.badness == 714)
        #expect(kill.candidates.filter { $0.name.hasPrefix("hog-") }.map(\.badness) == [714, 714])
        let evidence = kill.evidence(source: path)
        let victim = try #require(evidence.killed.first?.app)
        let earlyoom = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("earlyoom")))
        let kernel = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("linux-oom")))
        #expect(earlyoom.rank(of: victim) == 1)
        #expect(kernel.rank(of: victim) == 2)
    }

    /// evidence/linux-oom/29-swapped-idle.log, over zram swap: `idle` (14 MiB resident, 220 MiB in
    /// swap) has the least rss of the three tasks and the most rss + swap entries; the kernel,
    /// which counts `MM_SWAPENTS` in oom_badness() (mm/oom_kill.c), killed it. `linux-oom` counts
    /// them and names it first; a rule that weighs resident memory alone (`ios4`) names `grower`.
    @Test("Over zram swap the kernel kills by rss + swap entries: linux-oom names the swapped-out victim first")
    func swappedVictim() throws {
        let path = PackagePaths.path("evidence/linux-oom/29-swapped-idle.log")
        let report = try #require(
            try KernelOOMReportParser.reports(in: try String(contentsOfFile: path, encoding: .utf8), file: path).first)
        let victim = try #require(report.victimTask)
        #expect(victim.name == "idle")
        #expect(report.tasks.map(\.residentPages).max() != victim.residentPages)
        #expect((victim.swapEntries ?? 0) > victim.residentPages * 10)
        let evidence = report.evidence(source: path)
        let killed = try #require(evidence.killed.first?.app)
        let kernel = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("linux-oom")))
        let largest = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("ios4")))
        #expect(kernel.rank(of: killed) == 1)
        #expect(largest.rank(of: killed) != 1)
    }

    @Test("A memory-cgroup report is read field by field (evidence/linux-oom/02-largest-dies.log)")
    func fieldsOfOneReport() throws {
        let path = PackagePaths.path("evidence/linux-oom/02-largest-dies.log")
        let report = try #require(
            try KernelOOMReportParser.reports(in: try String(contentsOfFile: path, encoding: .utf8), file: path).first)
        #expect(report.kernelRelease == "6.18.44-fc-v657")
        #expect(report.kernelVersion == [6, 18, 44])
        #expect(report.constraint == .memoryCgroup)
        #expect(report.oomMemoryCgroup == "/mp-oom-largest-dies")
        #expect(report.cgroupLimit == .mebibytes(256))
        #expect(report.cgroupUsage == .mebibytes(256))
        #expect(report.invokingTask?.name == "grower")
        #expect(report.invokingTask?.order == 0)
        #expect(report.invokingTask?.gfpMask == "0xcc0(GFP_KERNEL)")
        #expect(report.tasks.map(\.name) == ["big", "medium", "small", "grower"])
        #expect(report.invokingTask?.pid == report.tasks.last?.pid)
        let victim = try #require(report.victim)
        #expect(victim.name == "big" && victim.byMemoryCgroup && victim.oomScoreAdj == 0)
        #expect(report.victimTask?.residentPages == (victim.anonymousKiB! + victim.fileKiB!) / 4)
        let evidence = report.evidence(source: path)
        #expect(evidence.snapshot?.device.memory == .mebibytes(256))
        #expect(evidence.missing.contains { $0.contains("foreground app") })
    }

    @Test("The whole-machine report: RAM less reserved pages is totalpages, and free memory is Mem-Info's")
    func globalReport() throws {
        let path = PackagePaths.path("evidence/linux-oom/28-global.log")
        let report = try #require(
            try KernelOOMReportParser.reports(in: try String(contentsOfFile: path, encoding: .utf8), file: path).first)
        #expect(report.constraint == KernelOOMReport.Constraint.none)
        #expect(report.pagesRAM == 6_291_358 && report.pagesReserved == 120_335)
        #expect(report.totalSwap == .zero)
        let free = try #require(report.freePages)
        let evidence = report.evidence(source: path)
        let snapshot = try #require(evidence.snapshot)
        #expect(snapshot.device.memory.value == (6_291_358 - 120_335) * 4096)
        let resident = snapshot.apps.reduce(Int64(0)) { $0 + $1.footprint.value }
        #expect(snapshot.unattributed.value == snapshot.device.memory.value - free * 4096 - resident)
    }
}
