/// A user or system action the engine applies: one line of a trace (docs/DESIGN.md, "Trace").
public enum Action: Sendable, Hashable {
    /// A cold launch from the home screen: the app must not be running.
    case launch(AppLaunch)
    /// Opens an app: a cold launch if it is not running, a warm resume otherwise.
    case open(AppLaunch)
    /// The Home button: the foreground app leaves the foreground.
    case home
    /// An interruption (call, SMS, alert) arrives: the active app becomes inactive.
    case interrupt
    /// The interruption ends: ignored (`answered: false`) the app becomes active again; answered,
    /// it moves to the background.
    case interruptEnd(answered: Bool)
    /// The sleep button: the active app becomes inactive.
    case lock
    /// The device is woken: the foreground app becomes active again.
    case unlock
    /// The app allocates `bytes`; into its purgeable caches when `purgeable` is true.
    case allocate(app: AppID, bytes: Bytes, purgeable: Bool)
    /// The app frees `bytes` of its base memory (or of its purgeable caches when `purgeable`).
    case free(app: AppID, bytes: Bytes, purgeable: Bool)
    /// A view controller's view comes onscreen, loaded first if needed (a new view needs `bytes`).
    case showView(app: AppID, view: String, bytes: Bytes?)
    /// A view controller's view goes offscreen; it stays loaded (a view cache) until purged.
    case hideView(app: AppID, view: String)
    /// The app asks for a finite stretch of background execution.
    case beginBackgroundTask(app: AppID, seconds: Double)
    /// The app starts or stops using its declared background modes: `modes` is the set it uses from
    /// now on (audio playback started or ended, navigation, a VoIP call). An app in the background
    /// that uses none and has no background task is suspended at once; a launch starts with every
    /// declared mode in use.
    case useBackgroundModes(app: AppID, modes: BackgroundModes)
    /// The user kills the app from the app switcher.
    case userKill(app: AppID)
    /// A system notification (time change, locale change…) for every app; suspended apps get it,
    /// coalesced, when they resume.
    case notify(name: String)
    /// Time passes: background tasks expire, pressure is re-evaluated.
    case tick
}

extension Action {
    /// The app the action addresses, or `nil` for actions on the device (Home, lock, ticks…).
    public var app: AppID? {
        switch self {
        case .launch(let launch), .open(let launch): launch.id
        case .allocate(let app, _, _), .free(let app, _, _), .showView(let app, _, _), .hideView(let app, _),
            .beginBackgroundTask(let app, _), .useBackgroundModes(let app, _), .userKill(let app):
            app
        case .home, .interrupt, .interruptEnd, .lock, .unlock, .notify, .tick: nil
        }
    }
}

/// What an app brings to a launch: its identity, memory and declarations.
public struct AppLaunch: Sendable, Hashable {
    /// The app.
    public var id: AppID
    /// Its total footprint right after launching, including ``views`` and ``purgeable``.
    public var footprint: Bytes
    /// Background modes it declares.
    public var backgroundModes: BackgroundModes
    /// Whether it opted out of multitasking (`UIApplicationExitsOnSuspend`).
    public var exitsOnSuspend: Bool
    /// Its view controllers: the first one's view is onscreen, the rest are loaded offscreen.
    public var views: [ViewSpec]
    /// Bytes in registered purgeable caches.
    public var purgeable: Bytes
    /// Whether the app's handlers release nothing when warned (an app that ignores warnings).
    public var ignoresWarnings: Bool
    /// The app's own `oom_score_adj` (−1000…1000), for policies that use it; `nil` lets the
    /// policy derive it from the app's state.
    public var oomScoreAdj: Int?
    /// An explicit priority, for policies that band by it.
    public var priority: Int?

    /// A launch description; only `id` and `footprint` are required.
    ///
    /// - Complexity: O(1)
    public init(
        id: AppID,
        footprint: Bytes,
        backgroundModes: BackgroundModes = [],
        exitsOnSuspend: Bool = false,
        views: [ViewSpec] = [],
        purgeable: Bytes = .zero,
        ignoresWarnings: Bool = false,
        oomScoreAdj: Int? = nil,
        priority: Int? = nil
    ) {
        self.id = id
        self.footprint = footprint
        self.backgroundModes = backgroundModes
        self.exitsOnSuspend = exitsOnSuspend
        self.views = views
        self.purgeable = purgeable
        self.ignoresWarnings = ignoresWarnings
        self.oomScoreAdj = oomScoreAdj
        self.priority = priority
    }
}

/// A view controller as a launch or snapshot declares it.
public struct ViewSpec: Sendable, Hashable {
    /// The view controller's name, unique within its app.
    public var name: String
    /// The bytes its loaded view occupies.
    public var bytes: Bytes

    /// A view controller with a view of `bytes`.
    ///
    /// - Complexity: O(1)
    public init(name: String, bytes: Bytes) {
        self.name = name
        self.bytes = bytes
    }
}
