import MemoryPressure

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
        /// Why the killer says it killed it (a JetsamEvent's `reason`), where it says.
        public var reason: String?
        /// Whether the kill was a choice among processes, which a policy's ranking can be held
        /// to; `false` for a process killed for passing its own memory limit.
        public var isChoice: Bool
        /// Its user id, where the log gives one (lmkd's `uid`, earlyoom's `uid`).
        public var uid: Int? = nil
        /// Its oom_score_adj (or the older oom_adj) at the kill, where the log gives one.
        public var oomScoreAdj: Int? = nil
        /// The memory the killer says the kill frees (lmkd's and the driver's `to free NkB`,
        /// `am_kill`'s rss, earlyoom's VmRSS), where it says.
        public var freed: Bytes? = nil
        /// The score the killer ranked it by, in ``ReportEvidence/killerScoreName``'s unit
        /// (earlyoom's `oom_score` or `badness`), where the log gives one.
        public var score: Int64? = nil
        /// Who killed it when a log holds several killers (`lmkd`, `the kernel's lowmemorykiller`,
        /// `ActivityManager`); `nil` for the report's own killer.
        public var killer: String? = nil
        /// When, as the log writes it (`10-24 14:24:06.590`), where it does.
        public var time: String? = nil
        /// The 1-based line of the kill in the input, where known.
        public var line: Int? = nil

        /// A killed process.
        ///
        /// - Complexity: O(1)
        public init(pid: Int?, name: String, app: AppID?, reason: String? = nil, isChoice: Bool = true) {
            self.pid = pid
            self.name = name
            self.app = app
            self.reason = reason
            self.isChoice = isChoice
        }
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
    /// The names of the figures the killer weighed for each process (``figures``), in order:
    /// for a kernel report `rss`, `swapEntries` (pages), `pageTableBytes`, `oomScoreAdj`,
    /// `badnessPoints` (pages) and `oomScore` (the points' share of totalpages as
    /// `/proc/PID/oom_score` shows it).
    public var figureNames: [String] = []
    /// Each process's figures, in the order of ``figureNames`` (`nil` where the report has none).
    public var figures: [AppID: [Int64?]] = [:]
    /// Why the killer chose its victim over the runner-up, where the report lets one say.
    public var why: Why? = nil
    /// The real killer's own order where its generation ranked differently from the policy that
    /// reproduces it today (a kernel before 5.9 clamped every badness of 0 or less to 1, and the
    /// first task scanned among ties died): ``EvidenceRanking`` ranks by it under that policy.
    public var generationOrder: (policy: String, order: [AppID], rule: String)? = nil

    /// The margin of a kill: the victim's score against the runner-up's, and the
    /// oom_score_adj at which the choice would have gone the other way.
    public struct Why: Sendable, Hashable {
        /// The victim and its score.
        public var victim: AppID, victimScore: Int64
        /// The process the killer would have chosen next, and its score.
        public var runnerUp: AppID, runnerUpScore: Int64
        /// The score's unit (`oom_badness points (pages)`).
        public var unit: String
        /// The highest oom_score_adj of the victim at which the runner-up would have died
        /// instead, or `nil` when no adj above −1000 (which exempts a process) would do.
        public var reversingOomScoreAdj: Int?
        /// The sentence for people.
        public var text: String
    }

    /// Name preferences the real killer was configured with, as the report states them
    /// (earlyoom's `--prefer` and `--avoid`): every policy ranks the snapshot with them added to
    /// its own `Policy.preferences`.
    public var preferences: [NamePreference] = []

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
