import MemoryPressure

/// A whole log's kills, as an operator asks for them: one row per kill (when, who killed, the
/// victim, its pid, its memory, the reason and the verdict of the killer's own policy), how often
/// each process name died, the log's first and last times, and the machine's memory and swap as
/// the reports state them. Built a line at a time by ``KillHistoryReader``, which reads every
/// line-based report kind at once, so a log that mixes kinds (a bugreport with kernel and lmkd
/// lines) gives each kill as its kind.
public struct KillHistory: Sendable {
    /// One kill.
    public struct Entry: Sendable, Hashable {
        /// When, as the log writes it, where it does.
        public var time: LogTime?
        /// Who killed (`the kernel`, `earlyoom`, `lmkd`, …).
        public var killer: String
        /// The victim's name.
        public var victim: String
        /// Its pid, where the log gives one.
        public var pid: Int?
        /// The memory the killer says it held or freed, where it says.
        public var memory: Bytes?
        /// The reason, as the report states it (a constraint and cgroup, a limits line, lmkd's reason).
        public var reason: String
        /// What the killer's own policy says of the choice (`linux-oom ranks it first`), or why
        /// it cannot say.
        public var verdict: String
        /// The 1-based line of the kill.
        public var line: Int?
    }

    /// Every kill, in the log's order.
    public var entries: [Entry] = []
    /// Reports read (a kernel report, an earlyoom kill, an Android log), and how many of them hold
    /// a process table (oom-investigate counts an incident per task table).
    public var reports = 0, reportsWithTable = 0
    /// The first and last times of the log's lines.
    public var firstTime: LogTime?, lastTime: LogTime?
    /// The lines read.
    public var lines = 0
    /// The memory and swap the reports state, each value once, in the order first stated.
    public var memory: [Bytes] = [], swap: [Bytes] = []

    /// An empty history.
    ///
    /// - Complexity: O(1)
    public init() {}

    /// How many times each process name died, most first (ties by name).
    ///
    /// - Complexity: O(entries log entries)
    public var counts: [(name: String, count: Int)] {
        var counts: [String: Int] = [:]
        for entry in entries { counts[entry.victim, default: 0] += 1 }
        return counts.map { ($0.key, $0.value) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name
        }
    }

    /// The history with only the kills for which `keep` is true (counts and totals follow).
    ///
    /// - Complexity: O(entries)
    public func filter(_ keep: (Entry) -> Bool) -> KillHistory {
        var copy = self
        copy.entries = entries.filter(keep)
        return copy
    }
}

/// Builds a ``KillHistory`` from a log a line at a time, in memory bounded by the kills it holds.
public struct KillHistoryReader {
    private var readers: [EvidenceLogReader]
    private var history = KillHistory()
    /// The time of each line that holds a kill marker, by line (only those lines are kept).
    private var killLineTimes: [Int: LogTime] = [:]
    /// The policy of each report kind's killer, loaded once (`nil`: it could not be loaded).
    private var policies: [EvidenceFormat: Policy?] = [:]
    private let source: String

    /// The byte strings of a line on which a kill is stated.
    private static let killMarkers = ByteMarkers([
        "Killed process", "sending SIG", "illing process", "Kill '", "Killing '", "am_kill", "killinfo",
        "Reclaim '", "send sigkill", "ActivityManager",
    ])

    /// A reader of the log named `source`.
    ///
    /// - Complexity: O(1)
    public init(source: String) {
        self.source = source
        readers = [.linuxOOMReport, .earlyoom, .androidLog].map { EvidenceLogReader(format: $0, source: source) }
    }

    /// Reads line `lineNumber` (1-based).
    ///
    /// - Throws: `InputError` when a limit on one report is passed.
    /// - Complexity: O(length of the line)
    public mutating func consume(_ line: Substring, lineNumber: Int) throws(InputError) {
        history.lines += 1
        if let time = LogTime.parse(line) {
            if history.firstTime == nil { history.firstTime = time }
            history.lastTime = time
            if Self.killMarkers.matches(line) { killLineTimes[lineNumber] = time }
        }
        for index in readers.indices {
            try readers[index].consume(line, lineNumber: lineNumber)
            for report in readers[index].takeReports() { add(report) }
        }
    }

    /// The history, with what was still open at the end.
    ///
    /// - Complexity: O(kills)
    public mutating func finish() -> KillHistory {
        for index in readers.indices {
            for report in readers[index].finish() { add(report) }
        }
        history.entries.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        return history
    }

    /// Every kill of `report`, with its time and the verdict of the killer's own policy.
    private mutating func add(_ report: ReportEvidence) {
        history.reports += 1
        if report.snapshot != nil { history.reportsWithTable += 1 }
        if let memory = report.machineMemory, !history.memory.contains(memory) { history.memory.append(memory) }
        if let swap = report.machineSwap, !history.swap.contains(swap) { history.swap.append(swap) }
        if policies[report.format] == nil {
            policies[report.format] = try? Policy.shipped(report.format.matchingPolicy)
        }
        let policy = policies[report.format] ?? nil
        let ranking = policy.flatMap { try? EvidenceRanking(report, policy: $0) } ?? nil
        for killed in report.killed {
            var verdict: String
            if !killed.isChoice {
                verdict = "not a choice among processes (its own limit)"
            } else if report.format == .androidLog {
                verdict = killed.killer == "ActivityManager" ? "not a low-memory decision" : "low-memory kill"
            } else if let ranking, let app = killed.app, let rank = ranking.rank(of: app) {
                verdict = "\(ranking.policy) ranks it \(EvidenceRanking.ordinal(rank))"
            } else if report.snapshot == nil {
                verdict = "not ranked: the report holds no process list"
            } else {
                verdict = "not ranked: not in the report's process list"
            }
            if let order = report.generationOrder, verdict.hasPrefix(order.policy) { verdict += " (\(order.rule))" }
            let reason: String =
                switch report.format {
                case .linuxOOMReport: report.summary
                default: killed.reason ?? ""
                }
            history.entries.append(
                .init(
                    time: killed.line.flatMap { killLineTimes[$0] }, killer: killed.killer ?? report.format.killer,
                    victim: killed.name, pid: killed.pid, memory: killed.freed, reason: reason, verdict: verdict,
                    line: killed.line))
        }
    }
}

extension KillHistoryReader: PassingOverLineConsumer {
    /// What a line must hold to matter to one of the report kinds' parsers.
    package static let passOverMarkers = ByteMarkers(
        union: [
            KernelOOMReportParser.passOverMarkers, EarlyoomLogParser.passOverMarkers,
            AndroidKillLogParser.passOverMarkers,
        ])

    /// What a line must hold to matter to one of the report kinds' parsers.
    package var passOverMarkers: ByteMarkers { Self.passOverMarkers }

    /// Whether every report kind's parser may pass over a line without its markers now.
    package var mayPassOver: Bool { readers.allSatisfy(\.mayPassOver) }

    /// Counts the lines passed over, takes the log's first and last times from them, and tells
    /// each parser (a kill marker's time is kept only for lines read: only they can state a kill).
    ///
    /// - Complexity: O(bytes up to the first line with a time, while the log has none yet) plus
    ///   O(bytes from the last line with a time to the end of the run).
    package mutating func passOver(_ lines: PassedOverLines) {
        history.lines += lines.count
        if history.firstTime == nil { history.firstTime = lines.first(LogTime.parse(utf8:)) }
        if let time = lines.last(LogTime.parse(utf8:)) { history.lastTime = time }
        for index in readers.indices { readers[index].passOver(lines) }
    }
}
