import MemoryPressure

/// The kinds of real artifact `kill-order` reads besides a snapshot.
public enum EvidenceFormat: String, Sendable, Hashable, CaseIterable {
    /// A Linux kernel OOM report (dmesg, `journalctl -k`, kern.log): ``KernelOOMReport``.
    case linuxOOMReport = "linux-oom-report"
    /// earlyoom's log with its `-d` process list: ``EarlyoomLogParser``.
    case earlyoom

    /// The shipped policy that reproduces the system that wrote such a report.
    public var matchingPolicy: String {
        switch self {
        case .linuxOOMReport: "linux-oom"
        case .earlyoom: "earlyoom"
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
        }
    }

    /// Who killed, in words for a table ("killed by the kernel").
    public var killer: String {
        switch self {
        case .linuxOOMReport: "the kernel"
        case .earlyoom: "earlyoom"
        }
    }

    /// The format of `lines` (the first lines of an input), or `nil` for anything else (a snapshot).
    ///
    /// - Complexity: O(total length of `lines`)
    public static func detect<Lines: Sequence>(_ lines: Lines) -> EvidenceFormat? where Lines.Element: StringProtocol {
        for line in lines {
            if line.contains("earlyoom v") || line.contains("earlyoom: ") && line.contains("mem avail:") {
                return .earlyoom
            }
            if line.contains(" invoked oom-killer: ") || line.contains("Tasks state (memory values in pages)")
                || line.contains("Killed process ") || line.contains("Out of memory: Kill")
            {
                return .linuxOOMReport
            }
        }
        return nil
    }
}

/// What one real report gives `kill-order`: the snapshot rebuilt from it, the processes it says
/// were killed, and what it does not say.
public struct ReportEvidence: Sendable {
    /// A process the report says was killed.
    public struct KilledProcess: Sendable, Hashable {
        /// Its pid, where the report gives one.
        public var pid: Int?
        /// Its name.
        public var name: String
        /// The app it is in ``ReportEvidence/snapshot``, if it is there.
        public var app: AppID?
    }

    /// The report's format.
    public var format: EvidenceFormat
    /// The input's name as given.
    public var source: String
    /// Where in the input the report is, for people: `lines 12–93`.
    public var location: String
    /// A one-line description of the report (kernel, constraint, cgroup).
    public var summary: String
    /// The machine as the report shows it at the moment of the kill, or `nil` if the report
    /// holds no process list to rank.
    public var snapshot: Snapshot?
    /// The pid of each app of ``snapshot``.
    public var pids: [AppID: Int]
    /// The processes the report says died, in the order it says so.
    public var killed: [KilledProcess]
    /// Processes of the report left out of the ranking, with the reason (init, for one).
    public var excluded: [(app: String, reason: String)]
    /// What the report does not say that a ranking would need, in words; never guessed.
    public var missing: [String]
    /// Other remarks on how the snapshot was rebuilt.
    public var notes: [String]
    /// The score the real killer gave each app, in its own units, where the report shows or
    /// lets one compute it (`oom_badness` points for a kernel report), for explanations.
    public var killerScores: [AppID: Int64]
    /// The name of ``killerScores``' unit ("oom_badness points").
    public var killerScoreName: String

    /// Evidence with the given parts; ``excluded``, ``missing``, ``notes`` and ``killerScores`` start empty.
    ///
    /// - Complexity: O(1)
    public init(
        format: EvidenceFormat, source: String, location: String, summary: String, snapshot: Snapshot?,
        pids: [AppID: Int], killed: [KilledProcess]
    ) {
        self.format = format
        self.source = source
        self.location = location
        self.summary = summary
        self.snapshot = snapshot
        self.pids = pids
        self.killed = killed
        self.excluded = []
        self.missing = []
        self.notes = []
        self.killerScores = [:]
        self.killerScoreName = ""
    }
}
