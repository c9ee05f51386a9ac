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
    /// An Android log of kills: logcat, dmesg or a bugreport with lmkd's, the kernel driver's or
    /// ActivityManager's kill lines: ``AndroidKillLog``.
    case androidLog = "android-log"

    /// The shipped policy that reproduces the system that wrote such a report.
    public var matchingPolicy: String {
        switch self {
        case .linuxOOMReport: "linux-oom"
        case .earlyoom: "earlyoom"
        case .jetsamEvent: "jetsam"
        case .androidMeminfo, .androidLog: "android-lmkd"
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
        case .androidLog:
            "no Android kill found: expected lmkd's or the kernel's 'lowmemorykiller: Kill(ing) 'NAME' (PID), …', "
                + "an 'am_kill: [user,pid,name,adj,reason]' or 'killinfo: […]' event, am_low_memory or an LRU list"
        }
    }

    /// Who killed, in words for a table ("killed by the kernel").
    public var killer: String {
        switch self {
        case .linuxOOMReport: "the kernel"
        case .earlyoom: "earlyoom"
        case .jetsamEvent: "jetsam"
        case .androidMeminfo: "lmkd"
        case .androidLog: "Android"
        }
    }

    /// The lines each format is recognised by, for the message on an input that is none of them.
    public var marker: String {
        switch self {
        case .linuxOOMReport: "'… invoked oom-killer:', 'Out of memory: Kill(ed) process …'"
        case .earlyoom: "'earlyoom[pid]: sending SIGTERM to process …', 'mem avail: … swap free: …'"
        case .jetsamEvent: "a JSON header with \"bug_type\":\"298\", or the text form's 'Low Memory' process table"
        case .androidMeminfo: "'Total RSS by OOM adjustment:'"
        case .androidLog: "'lowmemorykiller: Kill …', 'am_kill: […]', 'killinfo: […]', am_low_memory, an LRU list"
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
            if EarlyoomLogParser.recognises(bytes) { return .earlyoom }
            if UTF8Search.contains(bytes, " invoked oom-killer: ")
                || UTF8Search.contains(bytes, "Tasks state (memory values in pages)")
                || UTF8Search.contains(bytes, "Killed process ") || UTF8Search.contains(bytes, "Out of memory: Kill")
            {
                return .linuxOOMReport
            }
            if AndroidKillLogParser.recognises(bytes) { return .androidLog }
        }
        return nil
    }
}
