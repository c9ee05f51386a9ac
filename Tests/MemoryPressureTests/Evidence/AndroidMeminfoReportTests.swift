import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Issue 22: Android's `dumpsys meminfo` as a process list lmkd chooses from. The example in
// Examples/reports/ is constructed in the layout ActivityManagerService prints (its
// DUMP_MEM_OOM_LABEL categories, right-aligned sizes), not copied from a device.

@Suite("dumpsys meminfo: the process list by oom_adj category, ranked by android-lmkd")
struct AndroidMeminfoReportTests {
    static func example() throws -> AndroidMeminfoReport {
        let path = PackagePaths.path("Examples/reports/dumpsys-meminfo-constructed.txt")
        return try AndroidMeminfoReport.parse(try String(contentsOfFile: path, encoding: .utf8), file: "m.txt")
    }

    @Test("categories by name whatever the alignment; each process with its category's adj, RSS preferred; the totals")
    func parses() throws {
        let report = try Self.example()
        #expect(report.measure == "RSS")
        #expect(report.processes.count == 12)
        let adj = Dictionary(uniqueKeysWithValues: report.processes.map { ($0.name, $0.oomScoreAdj) })
        #expect(adj["surfaceflinger"] == -1000)
        #expect(adj["com.spotify.music"] == 200)
        #expect(adj["com.whatsapp"] == 700)
        #expect(adj["com.google.android.apps.nexuslauncher"] == 600)
        #expect(adj["com.android.chrome"] == 900)
        #expect(report.processes.first { $0.name == "com.google.android.gm" }?.kib == 131_844)
        #expect(report.totalKiB == 3_787_544)
        #expect(report.freeKiB == 1_802_310)
        #expect(report.swapKiB == 2_097_148)
    }

    @Test("lmkd's order: slots from 1000 down, negative adj protected, the foreground app last")
    func ranks() throws {
        let evidence = try Self.example().evidence(source: "m.txt")
        let ranking = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("android-lmkd")))
        let order = ranking.order.map(\.app.rawValue)
        #expect(
            Set(order.prefix(4)) == [
                "com.android.chrome[3910]", "com.android.settings[7733]",
                "com.google.android.apps.maps[6102]", "com.google.android.gm[4567]",
            ])
        #expect(
            Array(order.dropFirst(4)) == [
                "com.whatsapp[7001]", "com.google.android.apps.nexuslauncher[2230]", "com.spotify.music[5120]",
                "com.example.game[8811]",
            ])
        #expect(ranking.protected.count == 4)
        #expect(evidence.killed.isEmpty)
        #expect(evidence.missing.contains { $0.hasPrefix("the exact oom_score_adj inside a category") })
        #expect(evidence.snapshot?.device.memory == Bytes(3_787_544 * 1024))
    }

    @Test("PSS when there is no RSS section; no section at all is an error; recognised by content")
    func pssAndErrors() throws {
        let pss = try AndroidMeminfoReport.parse(
            "Total PSS by OOM adjustment:\n    1,024K: Cached\n        1,024K: com.a (pid 5 / activities)\n\nTotal RAM: 2,048K\n",
            file: "m.txt")
        #expect(pss.measure == "PSS")
        #expect(pss.processes.map(\.pid) == [5])
        #expect(pss.evidence(source: "m.txt").notes.contains { $0.hasPrefix("sizes are PSS") })
        #expect(throws: InputError.self) {
            try AndroidMeminfoReport.parse("Applications Memory Usage\n", file: "m.txt")
        }
        #expect(EvidenceFormat.detect(["Total RSS by OOM adjustment:"]) == .androidMeminfo)
        #expect(EvidenceFormat.androidMeminfo.matchingPolicy == "android-lmkd")
    }
}
