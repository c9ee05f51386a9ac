import IndexedHeapModule

/// A view controller as the engine tracks it.
struct ViewRecord: Sendable {
    var name: String
    var bytes: Int64
    var isLoaded: Bool
    var isOnscreen: Bool
}

/// What the engine reads on every footprint change and state change of an app, in one flat
/// record of 64 bytes — one cache line, as ``AppTable`` aligns it. What a footprint change never
/// reads (the id, the times) is in the app's ``AppColdRecord``; everything else about an app lives
/// in ``AppExtras``, and only for apps that have it.
struct AppRecord {
    /// Memory not releasable by purging.
    var base: Int64 = 0
    /// Registered purgeable caches.
    var purgeable: Int64 = 0
    /// Loaded views that are offscreen: released by a purge.
    var viewCaches: Int64 = 0
    /// The onscreen view's bytes.
    var onscreenView: Int64 = 0
    /// The app's element in the kill queue, when it is killable.
    var killHandle: IndexedHeapHandle? = nil
    /// Its band for each state, ``BandTable/none`` when unkillable.
    var bands = BandTable()
    var state: AppState = .notRunning
    var flags: AppFlags = []
    /// The background modes the app is using now (playing audio, navigating, in a call): they keep
    /// it executing in the background. A subset of ``declaredModes``.
    var backgroundModes: BackgroundModes = []
    /// The background modes the app declared at launch.
    var declaredModes: BackgroundModes = []
    /// The sum of the policy's name preferences that match the app's id.
    var preference: Int16 = 0
    /// The app's own oom_score_adj, or ``AppRecord/derived`` to take the policy's value for its state.
    var oomScoreAdj: Int16 = AppRecord.derived
    /// The app's explicit priority, or ``AppRecord/noPriority``.
    var priority: Int32 = AppRecord.noPriority

    /// Marks an oom_score_adj that the policy derives from the app's state.
    static let derived: Int16 = .min
    /// Marks an app without an explicit priority.
    static let noPriority: Int32 = .min

    /// The app's total resident bytes.
    @inline(__always)
    var footprint: Int64 { base &+ viewCaches &+ onscreenView &+ purgeable }

    /// The explicit priority, if any.
    var explicitPriority: Int? { priority == Self.noPriority ? nil : Int(priority) }
}

/// What the engine keeps of an app beside its ``AppRecord`` and reads less often: its id (for
/// events and errors), and the times and counts that only some band orders read (40 bytes). Split
/// from the record so that a footprint change reads one cache line: with 10,000 apps the records
/// are 640 KB, within a core's 1 MiB L2 cache, where with these fields (104 bytes a record) they
/// were not (Benchmarks/README.md, "One footprint change").
struct AppColdRecord {
    let id: AppID
    /// When the app was last frontmost (engine time, seconds).
    var lastFrontmost: Double = 0
    /// The order in which apps entered their current band (for first-in first-out bands).
    var bandEntry: UInt64 = 0
    /// log of the app's decayed count of opens, referred to time 0 (``RelaunchModel``); −∞ before
    /// its first open.
    var useLog: Double = -.infinity

    init(id: AppID) {
        self.id = id
    }
}

/// An app's yes/no attributes, in one byte.
struct AppFlags: OptionSet {
    var rawValue: UInt8
    /// It opted out of multitasking.
    static let exitsOnSuspend = AppFlags(rawValue: 1)
    /// Its handlers release nothing when warned.
    static let ignoresWarnings = AppFlags(rawValue: 2)
    /// A policy limit applies to it (the limits are in its ``AppExtras``).
    static let hasLimit = AppFlags(rawValue: 4)
    /// It is over the limit of its state, so it is killed first.
    static let isOverLimit = AppFlags(rawValue: 8)
    /// The slot's record was reclaimed (``PressureEngine/retainsEndedApps``): it holds no app.
    static let isReclaimed = AppFlags(rawValue: 16)
    /// The engine prewarmed it (``Prewarm``) and the user has not opened it since.
    static let prewarmed = AppFlags(rawValue: 32)
}

/// What only some apps have: view controllers, coalesced notifications, a background task,
/// swap and page tables (live sources), memory limits.
struct AppExtras {
    var views: [ViewRecord] = []
    /// Notifications that arrived while suspended, with their counts, in arrival order.
    var pendingNotifications: [(name: String, count: Int)] = []
    /// Its element in the background-task expiry queue, when it has a task.
    var taskHandle: IndexedHeapHandle? = nil
    /// The memory limits when active and inactive (0: none), and whether they are fatal.
    var limitActive: Int64 = 0
    var limitInactive: Int64 = 0
    var limitIsFatal = false

    /// Whether it holds nothing (then it is not stored).
    var isEmpty: Bool {
        views.isEmpty && pendingNotifications.isEmpty && taskHandle == nil && limitActive == 0 && limitInactive == 0
    }
}

/// An app's band index for each of the five states, in 5 bytes.
///
/// A read is a shift and a select, with no jump table: it is on every footprint change's path.
struct BandTable: Sendable {
    static let none: UInt8 = .max
    /// The bands of `notRunning`, `inactive`, `active` and `background`, a byte each from the lowest.
    private var executingOrNot: UInt32 = .max
    /// The band of `suspended`.
    private var suspended: UInt8 = .max

    /// The bit position of `state`'s byte in ``executingOrNot`` (32 for `suspended`, kept apart):
    /// 8 × the state's ordinal, which is the enum's stored tag (``AppState/ordinal``).
    @inline(__always)
    private static func shift(of state: AppState) -> UInt32 {
        UInt32(state.ordinal) &* 8
    }

    subscript(state: AppState) -> UInt8 {
        @inline(__always) get {
            let shift = Self.shift(of: state)
            return shift == 32 ? suspended : UInt8(truncatingIfNeeded: executingOrNot >> (shift & 31))
        }
        set {
            let shift = Self.shift(of: state)
            if shift == 32 {
                suspended = newValue
            } else {
                executingOrNot = executingOrNot & ~(0xFF << shift) | UInt32(newValue) << shift
            }
        }
    }
}
