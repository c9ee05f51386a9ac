import MemoryPressure

/// The kinds of real artifact `kill-order` reads besides a snapshot.
public enum EvidenceFormat: String, Sendable, Hashable, CaseIterable {
    /// A Linux kernel OOM report (dmesg, `journalctl -k`, kern.log): ``KernelOOMReport``.
    case linuxOOMReport = "linux-oom-report"
    /// earlyoom's log with its `-d` process list: ``EarlyoomLogParser``.
    case earlyoom
    /// An iOS JetsamEvent report (`.ips`, bug_type 298): ``JetsamEventReport``.
    case jetsamEvent = "jetsam-event"
    /// Android's `dumpsys meminfo` (its processes by oom_adj category): ``AndroidMeminfoReport``.
    case androidMeminfo = "android-meminfo"

    /// The shipped policy that reproduces the system that wrote such a report.
    public var matchingPolicy: String {
        switch self {
        case .linuxOOMReport: "linux-oom"
        case .earlyoom: "earlyoom"
        case .jetsamEvent: "jetsam"
        case .androidMeminfo: "android-lmkd"
        }
    }

    /// What to say when an input of this format holds no report.
    public var noReportMessage: String {
        switch self {
        case .linuxOOMReport:
            "no kernel OOM report found: expected a line 'NAME invoked oom-killer: …', a task table "
                + "('[  pid  ]   uid … name') or 'Killed process PID (NAME) …'"
        case .earlyoom:
            "no kill found in this earlyoom log: expected a line 'sending SIGTERM to process PID uid UID \"NAME\": …'"
        case .jetsamEvent:
            "no JetsamEvent report found: expected a JSON header with \"bug_type\":\"298\" and a body with "
                + "\"memoryStatus\" and \"processes\""
        case .androidMeminfo:
            "no process list found: expected dumpsys meminfo's 'Total RSS by OOM adjustment:' (or PSS) section"
        }
    }

    /// Who killed, in words for a table ("killed by the kernel").
    public var killer: String {
        switch self {
        case .linuxOOMReport: "the kernel"
        case .earlyoom: "earlyoom"
        case .jetsamEvent: "jetsam"
        case .androidMeminfo: "lmkd"
        }
    }

    /// The format of `lines` (the first lines of an input), or `nil` for anything else (a snapshot).
    ///
    /// - Complexity: O(total length of `lines`)
    public static func detect<Lines: Sequence>(_ lines: Lines) -> EvidenceFormat? where Lines.Element: StringProtocol {
        for line in lines {
            // Searched as bytes: the first 64 KiB of a JSON snapshot are one line, where
            // `String.contains` took 20 ms of every `kill-order` run.
            let bytes = Array(line.utf8)
            if JetsamEventReportParser.startsReport(bytes) { return .jetsamEvent }
            if AndroidMeminfoReport.startsReport(bytes) { return .androidMeminfo }
            if UTF8Search.contains(bytes, "earlyoom v")
                || UTF8Search.contains(bytes, "earlyoom: ") && UTF8Search.contains(bytes, "mem avail:")
            {
                return .earlyoom
            }
            if UTF8Search.contains(bytes, " invoked oom-killer: ")
                || UTF8Search.contains(bytes, "Tasks state (memory values in pages)")
                || UTF8Search.contains(bytes, "Killed process ") || UTF8Search.contains(bytes, "Out of memory: Kill")
            {
                return .linuxOOMReport
            }
        }
        return nil
    }
}
