import MemoryPressure

/// An iOS JetsamEvent report (`JetsamEvent-….ips`, `bug_type` 298), as the device writes it to
/// its analytics data: the memory status when jetsam acted and every process with its jetsam
/// priority, states and resident pages; the processes jetsam killed carry a `reason`.
///
/// Two forms are read (``JetsamEventReportParser``): the current one, a one-line JSON header
/// (`{"bug_type":"298","timestamp":…,"os_version":…}`) followed by the JSON body, and the older
/// single JSON document holding `bug_type` and the body's keys together. Field names are those
/// of the reports pasted in public threads (Apple's developer documentation, "Identifying high-memory
/// use with jetsam event reports").
public struct JetsamEventReport: Sendable, Hashable {
    /// One process of the report.
    public struct Process: Sendable, Hashable {
        /// Its pid, where given.
        public var pid: Int?
        /// Its name.
        public var name: String
        /// Its jetsam priority band (`priority`: 0 idle … 210), where given.
        public var priority: Int?
        /// Its states (`frontmost`, `suspended`, `daemon`, `idle`, `resume`, …).
        public var states: [String]
        /// Resident pages (`rpages`).
        public var residentPages: Int64
        /// The most pages it ever held (`lifetimeMax`), where given.
        public var lifetimeMaxPages: Int64?
        /// Its coalition, where given.
        public var coalition: Int?
        /// Why jetsam killed it (`reason`: `per-process-limit`, `vm-pageshortage`, `highwater`,
        /// `fc-thrashing`, `idle-exit`, …), or `nil` for a process left alive.
        public var reason: String?
        /// The 1-based line its entry starts on.
        public var line: Int
    }

    /// Which form the file had.
    public enum Form: String, Sendable, Hashable {
        /// A one-line JSON header, then the JSON body.
        case headerAndBody = "header and body"
        /// One JSON document.
        case singleDocument = "single JSON document"
        /// The plain-text "Low Memory" report of iOS 5–8 (`Name <UUID> rpages … [reason] (state)`),
        /// alone or after a JSON header (bug_type 198).
        case text = "plain text"
        /// Process entries without the report around them (a lone victim's entry, or a window of
        /// the `processes` list).
        case processEntries = "process entries only"
    }

    /// Lines the publisher elided (`...`) inside the report, skipped: the list is incomplete.
    public var elidedLines = 0
    /// Brackets a report cut short left open, closed by the reader (0 for a whole report).
    public var closedBrackets = 0
    /// Entries of a window that were cut (no `name` or `rpages`), skipped.
    public var partialEntries = 0

    /// The form.
    public var form: Form
    /// `bug_type` (298 for a JetsamEvent), where given.
    public var bugType: String?
    /// The OS version (`os_version` or `build`), where given.
    public var osVersion: String?
    /// The device model (`product`, such as `iPhone12,1`), where given.
    public var product: String?
    /// The report's date (`date` or `timestamp`), where given.
    public var date: String?
    /// The VM page size in bytes (`memoryStatus.pageSize`, or `pageSize` at the top in older
    /// reports), where given.
    public var pageSize: Int64?
    /// `memoryStatus.memoryPages`: `free`, `active`, `inactive`, `speculative`, `throttled`,
    /// `wired`, `purgeable`, `fileBacked`, `anonymous`, as given.
    public var memoryPages: [String: Int64]
    /// Pages the compressor holds (`memoryStatus.compressorSize`), where given.
    public var compressorPages: Int64?
    /// `largestProcess`, where given.
    public var largestProcess: String?
    /// Every process, in the report's order.
    public var processes: [Process]

    /// The processes jetsam killed (those with a `reason`), in the report's order.
    ///
    /// - Complexity: O(processes)
    public var killed: [Process] { processes.filter { $0.reason != nil } }

    /// The kill reasons that are not a choice among processes: the process passed its own memory
    /// limit (`per-process-limit`, `highwater` before iOS 13's naming, `vnode-limit`), so jetsam
    /// killed it whatever the others held (XNU `memorystatus_kill_reason` values
    /// kMemorystatusKilledPerProcessLimit, kMemorystatusKilledHiwat, kMemorystatusKilledVnodes).
    public static let ownLimitReasons: Set<String> = ["per-process-limit", "highwater", "vnode-limit"]
}
