import FuzzSupport
import MemoryPressure
import MemoryPressureFormats

/// libFuzzer entry point: any bytes are read as a kernel OOM log, an earlyoom log, an Android kill
/// log, an iOS JetsamEvent report (JSON, repaired or plain text) and Android's dumpsys meminfo;
/// each either gives reports or an
/// ``InputError``. Every report is rebuilt as evidence and ranked by the policy of the system
/// that wrote it, and the report document is rendered in every form. The line-based formats and the
/// whole-log history are read both line by line and through the block scan.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = fuzzText(data, size)
    var evidence: [ReportEvidence] = []
    // The line-based formats through the one reader kill-order uses (kernel, earlyoom, Android).
    for format in [EvidenceFormat.linuxOOMReport, .earlyoom, .androidLog] {
        if let reports = try? EvidenceLogReader.reports(in: text, format: format, source: "fuzz.log") {
            evidence += reports
        }
    }
    if let report = try? JetsamEventReportParser.report(in: text, file: "fuzz.ips") {
        evidence.append(report.evidence(source: "fuzz.ips"))
    }
    if let report = try? AndroidMeminfoReport.parse(text, file: "fuzz.txt") {
        evidence.append(report.evidence(source: "fuzz.txt"))
    }
    _ = EvidenceFormat.detect(text.split(separator: "\n").prefix(400))
    // The whole-log history: every kind at once, with each line's time.
    var history = KillHistoryReader(source: "fuzz.log")
    var number = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        number += 1
        _ = LogTime.parse(line)
        try? history.consume(line, lineNumber: number)
    }
    _ = history.finish().counts
    // The same through the block scan kill-order runs on files (LogLineScanner), with a block size
    // from the first byte so lines and markers are cut at every place.
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let blockBytes = 1 + Int(bytes.first ?? 0) % 97
    var scanned = KillHistoryReader(source: "fuzz.log")
    if (try? scanned.consume(logBytes: bytes, file: "fuzz.log", blockBytes: blockBytes)) != nil {
        _ = scanned.finish().counts
    }
    for format in [EvidenceFormat.linuxOOMReport, .earlyoom, .androidLog] {
        var reader = EvidenceLogReader(format: format, source: "fuzz.log")
        if (try? reader.consume(logBytes: bytes, file: "fuzz.log", blockBytes: blockBytes)) != nil {
            _ = reader.finish()
        }
    }
    for item in evidence {
        guard let policy = try? Policy.shipped(item.format.matchingPolicy) else { continue }
        let ranking = try? EvidenceRanking(item, policy: policy)
        var report = KillOrderReport(
            policy: policy.name, device: item.snapshot?.device ?? Device(memory: .zero), free: ranking?.free ?? .zero,
            level: ranking?.level ?? .normal, order: Array((ranking?.order ?? []).prefix(20)),
            protected: ranking?.protected ?? [], explain: false)
        report.evidence = KillOrderReport.EvidenceSection(evidence: item, ranking: ranking)
        _ = report.json
        _ = report.table
        _ = report.csv
    }
    return 0
}

/// The process's entry point (SwiftPM renames `main` to this): libFuzzer's driver.
@_cdecl("FuzzReport_main")
public func fuzzReportMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzReport)
}
