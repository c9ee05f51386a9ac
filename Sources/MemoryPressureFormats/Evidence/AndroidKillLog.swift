import MemoryPressure

/// The kills an Android log states, as people paste it: logcat in any `-v` format (threadtime,
/// brief, time, long, with a year, an epoch or a uid column), `dmesg` with `<6>` priorities and
/// `[ 123.456]` times, bugreport excerpts, with `> ` quote prefixes and indentation. Read by
/// ``AndroidKillLogParser``.
public struct AndroidKillLog: Sendable {
    /// Who made a kill.
    public enum Killer: String, Sendable, Hashable {
        /// The userspace low memory killer daemon (system/memory/lmkd), Android 8.1 and later:
        /// its `Kill '…'` line or its `killinfo` event.
        case lmkd
        /// The kernel's staging lowmemorykiller driver (drivers/staging/android/lowmemorykiller.c),
        /// up to Android 9 on most devices.
        case kernelDriver = "the kernel's lowmemorykiller"
        /// ActivityManager's own kills (`am_kill`): empty or cached processes past its limits,
        /// a removed task, an OEM cleaner. Not low-memory decisions by lmkd's rule.
        case activityManager = "ActivityManager"

        /// Whether the kill is a low-memory decision held to lmkd's or the driver's rule
        /// (highest oom_score_adj first).
        public var isLowMemoryKiller: Bool { self != .activityManager }
    }

    /// One kill.
    public struct Kill: Sendable, Hashable {
        /// Who killed.
        public var killer: Killer
        /// The process name as the log writes it (the kernel's 15-character `comm` for the driver).
        public var name: String
        /// The pid.
        public var pid: Int
        /// The uid, where the line gives one.
        public var uid: Int?
        /// The oom_score_adj (or oom_adj) at the kill.
        public var adj: Int?
        /// The memory the kill frees as the line states it, in KiB (rss, plus swap where lmkd adds it).
        public var freedKiB: Int64?
        /// The swap the lmkd line states besides the rss, in KiB.
        public var swapKiB: Int64?
        /// The reason, as stated (`device is not responding`, `empty #31`,
        /// `cache 32112kB is below limit 32384kB for oom_score_adj 1000`).
        public var reason: String?
        /// The time as the log writes it, if it does.
        public var time: String?
        /// The time in seconds (of the day, or since the log's clock origin), for bursts; `nil`
        /// when the line has no time.
        public var seconds: Double?
        /// The 1-based line the kill starts on.
        public var line: Int
    }

    /// A process of an ActivityManager LRU list (`dumpsys activity processes` or `lru`), in the
    /// list's order.
    public struct ListedProcess: Sendable, Hashable {
        /// The adj class as the list writes it (`cch+6`, `prev`, `fore`, `PERS`).
        public var adjClass: String
        /// The process name.
        public var name: String
        /// The pid.
        public var pid: Int
        /// The 1-based line.
        public var line: Int
    }

    /// Every kill, in the log's order.
    public var kills: [Kill] = []
    /// `am_low_memory` lines: ActivityManager ran out of cached processes (the value is the
    /// LRU list's length), with their lines.
    public var lowMemoryEvents: [(count: Int, line: Int)] = []
    /// Processes of an LRU list, in the order the list gives them.
    public var listed: [ListedProcess] = []
    /// Lines that confirm a death (`Process N exited due to signal 9`, `am_proc_died`), by pid.
    public var confirmedDeaths: Set<Int> = []
    /// The lines read that say nothing of kills: counted, not kept.
    public var otherLines = 0
    /// The first and last lines that say something this reader keeps.
    public var firstLine: Int?, lastLine: Int?

    /// An empty log.
    ///
    /// - Complexity: O(1)
    public init() {}

    /// Whether the log holds anything this reader keeps.
    public var isEmpty: Bool { kills.isEmpty && lowMemoryEvents.isEmpty && listed.isEmpty }
}

extension AndroidKillLog.Kill {
    /// Whether this kill and `other` are one burst: the same low-memory killer, no more than
    /// ``AndroidKillLogParser/burstSeconds`` apart (or adjacent in a log without times).
    ///
    /// - Complexity: O(1)
    func continuesBurst(after other: Self) -> Bool {
        guard killer == other.killer, killer.isLowMemoryKiller else { return false }
        guard let seconds, let previous = other.seconds else { return seconds == nil && other.seconds == nil }
        return seconds - previous >= 0 && seconds - previous <= AndroidKillLogParser.burstSeconds
    }
}
