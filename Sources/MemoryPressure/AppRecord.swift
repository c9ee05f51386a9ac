import IndexedHeapModule

/// A view controller as the engine tracks it.
struct ViewRecord: Sendable {
    var name: String
    var bytes: Int64
    var isLoaded: Bool
    var isOnscreen: Bool
}

/// Everything the engine knows about one app, in one flat record (kept small: the simulation
/// tracks thousands of apps).
struct AppRecord {
    let id: AppID
    var state: AppState = .notRunning
    var backgroundModes: BackgroundModes = []
    var exitsOnSuspend = false
    var ignoresWarnings = false
    /// Bit 0: ignored a level-1 warning while in the foreground; bit 1: ignored a level-2 one.
    var ignoredWarnings: UInt8 = 0
    /// The app's own oom_score_adj, or ``AppRecord/derived`` to take the policy's value for its state.
    var oomScoreAdj: Int16 = AppRecord.derived
    var priority: Int32? = nil
    /// The sum of the policy's name preferences that match the app's id.
    var preference: Int16 = 0
    /// The memory limits when active and inactive (0: none), whether they are fatal, and whether
    /// the app is over the limit of its state (then it is killed first).
    var limitActive: Int64 = 0
    var limitInactive: Int64 = 0
    var limitIsFatal = false
    var isOverLimit = false

    /// Memory not releasable by purging (includes the onscreen view).
    var base: Int64 = 0
    /// Loaded views that are offscreen: released by a purge.
    var viewCaches: Int64 = 0
    /// The onscreen view's bytes.
    var onscreenView: Int64 = 0
    /// Registered purgeable caches.
    var purgeable: Int64 = 0
    var swap: Int64 = 0
    var pageTables: Int64 = 0

    /// When the app was last frontmost (engine time, seconds).
    var lastFrontmost: Double = 0
    /// When its background task ends (`-infinity` when it has none).
    var taskExpiry: Double = -.infinity
    /// The order in which apps entered their current band (for first-in first-out bands).
    var bandEntry: UInt64 = 0

    /// The app's element in the kill queue, when it is killable.
    var killHandle: IndexedHeapHandle? = nil
    /// Its element in the background-task expiry queue, when it has a task.
    var taskHandle: IndexedHeapHandle? = nil
    /// Its band for each state (indexed by ``AppState`` order), ``BandTable/none`` when unkillable.
    var bands = BandTable()

    var views: [ViewRecord] = []
    /// Notifications that arrived while suspended, with their counts, in arrival order.
    var pendingNotifications: [(name: String, count: Int)] = []

    /// Marks an oom_score_adj that the policy derives from the app's state.
    static let derived: Int16 = .min

    init(id: AppID) {
        self.id = id
    }

    /// The memory limit that applies in the current state (0: none).
    var currentLimit: Int64 { state.isForeground ? limitActive : limitInactive }

    /// The app's total resident bytes.
    var footprint: Int64 { base &+ viewCaches &+ onscreenView &+ purgeable }
}

/// An app's band index for each of the five states, in 5 bytes.
struct BandTable: Sendable {
    static let none: UInt8 = .max
    private var storage: (UInt8, UInt8, UInt8, UInt8, UInt8) = (.max, .max, .max, .max, .max)

    subscript(state: AppState) -> UInt8 {
        get {
            switch state {
            case .notRunning: storage.0
            case .inactive: storage.1
            case .active: storage.2
            case .background: storage.3
            case .suspended: storage.4
            }
        }
        set {
            switch state {
            case .notRunning: storage.0 = newValue
            case .inactive: storage.1 = newValue
            case .active: storage.2 = newValue
            case .background: storage.3 = newValue
            case .suspended: storage.4 = newValue
            }
        }
    }
}
