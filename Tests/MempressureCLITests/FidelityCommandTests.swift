import Foundation
import MemoryPressure
import Testing
import TestSupport

// Issue 12 on the command line: `kill-order --live` leaves its own process out and says so;
// `policy show` prints the new fields.

@Suite("mempressure: live self-exclusion and the policy fields of issue 12")
struct FidelityCommandTests {
    @Test(
        "kill-order --live: its own process is not ranked, the table and the JSON say so", .tags(.machine),
        .machineDependent)
    func liveLeavesItselfOut() throws {
        let table = try runMempressure(["kill-order", "--live", "--policy", "earlyoom"])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.standardOutput.contains("not ranked:"))
        #expect(table.standardOutput.contains("this tool's own process"))
        let json = try runMempressure(["kill-order", "--live", "--format", "json"])
        #expect(json.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let excluded = try #require(object["excluded"] as? [[String: Any]])
        let own = try #require(excluded.first?["app"] as? String)
        let order = try #require(object["order"] as? [[String: Any]])
        #expect(!order.contains { ($0["app"] as? String) == own })
    }

    @Test(
        "watch under systemd-oomd prints the machine's PSI full avg10 beside oomd's limit; other policies do not",
        .tags(.machine), .machineDependent)
    func watchShowsFullStall() throws {
        guard FileManager.default.isReadableFile(atPath: "/proc/pressure/memory") else { return }
        let oomd = try runMempressure(["watch", "--policy", "systemd-oomd", "--count", "1"])
        #expect(oomd.status == 0, "\(oomd.standardError)")
        let line = oomd.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            line.contains(", full avg10 ") && line.contains("% (systemd-oomd acts above 50.00% held 20s)"), "\(line)")
        let earlyoom = try runMempressure(["watch", "--policy", "earlyoom", "--count", "1"])
        #expect(!earlyoom.standardOutput.contains("full avg10"), "\(earlyoom.standardOutput)")
    }

    @Test("kill-order under systemd-oomd names, under the table, whom its memory-pressure rule would kill instead")
    func pressureRuleNote() throws {
        let table = try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--policy", "systemd-oomd"])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(
            table.standardOutput.contains(
                "memory-pressure rule: once PSI full avg10 has stayed above 50.00% for 20 s (with reclaim in the last 30 s), "
                    + "it kills the app with the most resident memory instead: com.example.game; a snapshot holds no stall history"
            ),
            "\(table.standardOutput)")
        let earlyoom = try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--policy", "earlyoom"])
        #expect(!earlyoom.standardOutput.contains("memory-pressure rule"))
    }

    @Test("kill-order of a snapshot keeps the contract's keys (no excluded key)")
    func snapshotReportUnchanged() throws {
        let json = try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["policy", "device", "order", "protected"])
    }

    @Test("policy show prints comparison, swap conditions, band start/stop points, priority slots and tie rules")
    func showNewFields() throws {
        let earlyoom = try runMempressure(["policy", "show", "earlyoom"]).standardOutput
        #expect(earlyoom.contains("comparison: atOrBelow"))
        #expect(earlyoom.contains("urgent: { enter: 10%, clear: 10%, swapFree: 10% }"))
        #expect(earlyoom.contains("ties: firstAppeared"))
        let lmkd = try runMempressure(["policy", "show", "android-lmkd"]).standardOutput
        #expect(lmkd.contains("oomScoreAdjByBackgroundMode: { audio: 200, location: 200, voip: 200 }"))
        #expect(
            lmkd.contains(
                "killBelow: { low: \(49152 * 1024), high: \(184320 * 1024), scaleFrom: \(350 << 20), scaleTo: \(700 << 20) }"
            ))
        #expect(lmkd.contains("ties: newestInBand"))
        let jetsam = try runMempressure(["policy", "show", "jetsam"]).standardOutput
        #expect(jetsam.contains("slotsByPriority: true"))
        #expect(jetsam.contains("priorityByBackgroundMode: { audio: 120 }"))
        #expect(
            jetsam.contains(
                "killBelow: [{ upTo: \(3 << 30), amount: 10% }, { upTo: \(6 << 30), amount: 9% }, { amount: 8% }]"))
    }
}
