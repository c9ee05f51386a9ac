import MemoryPressure

/// Reads a log of one of the line-based report formats (a kernel log, earlyoom's log, an Android
/// kill log) a line at a time, in bounded memory, and gives every report in it as evidence: the
/// one place `kill-order` and the tests turn lines into ``ReportEvidence``.
public struct EvidenceLogReader {
    /// The format read.
    public let format: EvidenceFormat
    /// The input's name, as reports and errors give it.
    public let source: String
    private var kernel: KernelOOMReportParser
    private var earlyoom: EarlyoomLogParser
    private var android = AndroidKillLogParser()
    private var reports: [ReportEvidence] = []

    /// A reader of `format` for the input named `source`.
    ///
    /// - Precondition: `format` is line-based: ``EvidenceFormat/linuxOOMReport``,
    ///   ``EvidenceFormat/earlyoom`` or ``EvidenceFormat/androidLog``.
    /// - Complexity: O(1)
    public init(format: EvidenceFormat, source: String) {
        precondition(Self.isLineBased(format), "\(format.rawValue) is read as a whole text")
        self.format = format
        self.source = source
        kernel = KernelOOMReportParser(file: source)
        earlyoom = EarlyoomLogParser(file: source)
    }

    /// Whether `format` is read a line at a time (the others need their whole text).
    ///
    /// - Complexity: O(1)
    public static func isLineBased(_ format: EvidenceFormat) -> Bool {
        format == .linuxOOMReport || format == .earlyoom || format == .androidLog
    }

    /// Reads line `lineNumber` (1-based).
    ///
    /// - Throws: `InputError` when a limit on one report is passed (a bound on memory).
    /// - Complexity: O(length of the line)
    public mutating func consume(_ line: Substring, lineNumber: Int) throws(InputError) {
        switch format {
        case .linuxOOMReport:
            if let report = try kernel.consume(line, lineNumber: lineNumber) {
                reports.append(report.evidence(source: source))
            }
        case .earlyoom:
            if let kill = try earlyoom.consume(line, lineNumber: lineNumber) {
                reports.append(kill.evidence(source: source))
            }
        case .androidLog:
            try android.consume(line, lineNumber: lineNumber, file: source)
        case .jetsamEvent, .androidMeminfo:
            break
        }
    }

    /// The reports closed so far, handed over and forgotten (memory stays bounded on a long log).
    ///
    /// - Complexity: O(reports)
    public mutating func takeReports() -> [ReportEvidence] {
        defer { reports = [] }
        return reports
    }

    /// Every report read, with what was still open at the end.
    ///
    /// - Complexity: O(reports)
    public mutating func finish() -> [ReportEvidence] {
        switch format {
        case .linuxOOMReport:
            if let report = kernel.finish() { reports.append(report.evidence(source: source)) }
        case .earlyoom:
            if let quiet = earlyoom.evidenceWithoutKill(source: source) { reports.append(quiet) }
        case .androidLog:
            let log = android.finish()
            if !log.isEmpty { reports.append(log.evidence(source: source)) }
        case .jetsamEvent, .androidMeminfo:
            break
        }
        defer { reports = [] }
        return reports
    }

    /// Every report in `text`.
    ///
    /// - Throws: `InputError` when a limit on one report is passed.
    /// - Complexity: O(length of `text`)
    public static func reports(in text: String, format: EvidenceFormat, source: String) throws(InputError)
        -> [ReportEvidence]
    {
        var reader = EvidenceLogReader(format: format, source: source)
        for (offset, line) in InputText.lines(text).enumerated() {
            try reader.consume(line, lineNumber: offset + 1)
        }
        return reader.finish()
    }
}

extension EvidenceLogReader: PassingOverLineConsumer {
    /// What a line must hold to matter to the format's parser while ``mayPassOver`` holds.
    package var passOverMarkers: ByteMarkers {
        switch format {
        case .linuxOOMReport: KernelOOMReportParser.passOverMarkers
        case .earlyoom: EarlyoomLogParser.passOverMarkers
        case .androidLog: AndroidKillLogParser.passOverMarkers
        case .jetsamEvent, .androidMeminfo: ByteMarkers([])
        }
    }

    /// Whether the format's parser may pass over a line without its markers now.
    package var mayPassOver: Bool {
        switch format {
        case .linuxOOMReport: kernel.mayPassOver
        case .androidLog: android.mayPassOver
        case .earlyoom, .jetsamEvent, .androidMeminfo: true
        }
    }

    /// Counts the lines passed over as the format's parser counts the lines it skips.
    ///
    /// - Complexity: O(1)
    package mutating func passOver(_ lines: PassedOverLines) {
        switch format {
        case .linuxOOMReport: kernel.passOver(lines: lines.count)
        case .androidLog: android.passOver(lines: lines.count)
        case .earlyoom, .jetsamEvent, .androidMeminfo: break
        }
    }
}
