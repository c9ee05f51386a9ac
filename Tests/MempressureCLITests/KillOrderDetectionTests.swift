import Foundation
import Testing
import TestSupport

/// A report is recognised by the first report line anywhere in a file, not by its first lines: a
/// syslog holds thousands of other lines before an OOM report.
@Suite("kill-order finds a report anywhere in a log")
struct KillOrderDetectionTests {
    /// `count` ordinary syslog lines (constructed: no report in them).
    private func syslog(_ count: Int, from first: Int = 0) -> String {
        (first..<first + count).map {
            "Nov 28 03:\(String(format: "%02d", $0 / 60 % 60)):\(String(format: "%02d", $0 % 60)) host systemd[1]: Started Session \($0) of user root.\n"
        }.joined()
    }

    @Test("a kernel report after 12,000 other lines is found without --input-format, and named by its lines")
    func reportFarDown() throws {
        let directory = try scratchDirectory("kill-order-detection")
        let report = try String(
            contentsOfFile: PackagePaths.path("evidence/public/linux/002-lkml-mglru-rsync-memcg-6.7.log"),
            encoding: .utf8)
        let path = directory.appendingPathComponent("messages").path
        try (syslog(12_000) + report + syslog(50, from: 12_000)).write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runMempressure(["kill-order", path, "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"format\":\"linux-oom-report\""))
        #expect(result.standardOutput.contains("\"location\":\"lines 12001–"))
        #expect(result.standardOutput.contains("\"pid\":128825,\"name\":\"rsync\",\"rank\":1"))
    }

    @Test("an Android kill and an earlyoom kill far down are found too; a syslog with none is refused, 65")
    func otherKindsAndNone() throws {
        let directory = try scratchDirectory("kill-order-detection-kinds")
        let android = directory.appendingPathComponent("logcat").path
        try
            (syslog(11_000)
            + "10-24 14:24:06.590   710   710 I lowmemorykiller: Kill 'com.example.app' (18624), uid 10453, "
            + "oom_score_adj 905 to free 183244kB rss, 34860kB swap; reason: device is not responding\n")
            .write(toFile: android, atomically: true, encoding: .utf8)
        let found = try runMempressure(["kill-order", android, "--format", "json"])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.standardOutput.contains("\"format\":\"android-log\""))
        #expect(found.standardOutput.contains("\"pid\":18624"))
        let earlyoom = directory.appendingPathComponent("journal").path
        try
            (syslog(11_000)
            + "Sep 10 21:54:23 host earlyoom[904]: sending SIGTERM to process 2232050 uid 1000 \"bun\": "
            + "oom_score 712, oom_score_adj 0, VmRSS 4514 MiB, cmdline \"bun test\"\n")
            .write(toFile: earlyoom, atomically: true, encoding: .utf8)
        let killed = try runMempressure(["kill-order", earlyoom, "--format", "json"])
        #expect(killed.status == 0, "\(killed.standardError)")
        #expect(killed.standardOutput.contains("\"pid\":2232050,\"name\":\"bun\""))
        let none = directory.appendingPathComponent("plain").path
        try syslog(11_000).write(toFile: none, atomically: true, encoding: .utf8)
        let refused = try runMempressure(["kill-order", none])
        #expect(refused.status == 65)
        #expect(refused.standardError.contains("no known report or snapshot found; formats tried: linux-oom-report"))
    }
}
