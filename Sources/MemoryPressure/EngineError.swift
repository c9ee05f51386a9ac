/// Why the engine refused an action or a registration. The engine's state is unchanged when it
/// throws.
public enum EngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app has never been launched or registered.
    case unknownApp(AppID)
    /// A cold launch of an app that is already running.
    case alreadyRunning(AppID, state: AppState)
    /// The action needs a running app, and this one is not running.
    case notRunning(AppID)
    /// The app is already the foreground app.
    case alreadyForeground(AppID)
    /// The action needs a foreground app, and there is none.
    case noForegroundApp(action: String)
    /// The action needs a pending interruption, and there is none.
    case noInterruption
    /// Apps cannot be opened or sent home while the device is locked.
    case deviceLocked(action: String)
    /// The user cannot kill the foreground app from the app switcher.
    case cannotKillForeground(AppID)
    /// The app has no view controller of that name (and no size was given to create one).
    case unknownView(AppID, view: String)
    /// The app frees more than it holds.
    case freesMoreThanHeld(AppID, requested: Bytes, held: Bytes)
    /// A launch whose views and caches exceed its footprint.
    case footprintTooSmall(AppID, footprint: Bytes, viewsAndCaches: Bytes)
    /// A size that must not be negative is negative.
    case negativeSize(String)
    /// Actions must come in time order.
    case timeWentBackwards(now: Double, given: Double)
    /// The engine tracks at most ``PressureEngine/maximumApps`` apps.
    case tooManyApps(limit: Int)
    /// A policy's regular expression does not compile.
    case invalidPattern(String)
    /// An app id appears twice where ids must be unique.
    case duplicateApp(AppID)
    /// The policy breaks a rule of the policy schema (``Policy/validate()`` lists every problem).
    case invalidPolicy(PolicyErrors)
    /// An app uses a background mode it did not declare at launch.
    case undeclaredBackgroundMode(AppID, used: BackgroundModes, declared: BackgroundModes)
    /// A footprint would pass ``PressureEngine/maximumFootprint`` for one app, or the sum of
    /// every footprint ``PressureEngine/maximumTotalFootprint``; the text says which.
    case sizeLimit(AppID, String)
    /// The action took effect, but mutations that its callbacks requested (deferred until it
    /// finished, see ``PressureEngine/isMutating``) failed; each failed one changed nothing.
    case deferredActionsFailed([DeferredActionFailure])
    /// An ``AppReference`` whose app's record was reclaimed (``PressureEngine/forget(_:)``, or
    /// ``PressureEngine/retainsEndedApps`` off): its slot may now hold another app.
    case staleReference(AppReference)

    /// What went wrong and what was expected.
    public var description: String {
        switch self {
        case .unknownApp(let app): "unknown app \(app): it was never launched"
        case .alreadyRunning(let app, let state): "cannot launch \(app): it is already running (\(state.rawValue))"
        case .notRunning(let app): "\(app) is not running"
        case .alreadyForeground(let app): "\(app) is already the foreground app"
        case .noForegroundApp(let action): "\(action) needs a foreground app, and there is none"
        case .noInterruption: "interruptEnd without a pending interruption"
        case .deviceLocked(let action): "cannot \(action) while the device is locked"
        case .cannotKillForeground(let app):
            "the user cannot kill \(app) from the app switcher: it is in the foreground"
        case .unknownView(let app, let view): "\(app) has no view \"\(view)\" (give \"bytes\" to create it)"
        case .freesMoreThanHeld(let app, let requested, let held):
            "\(app) frees \(requested.value) bytes but holds only \(held.value)"
        case .footprintTooSmall(let app, let footprint, let parts):
            "\(app): footprint \(footprint.value) is smaller than its views and caches (\(parts.value))"
        case .negativeSize(let what): "\(what) must not be negative"
        case .timeWentBackwards(let now, let given): "time went backwards: \(given) is before \(now)"
        case .tooManyApps(let limit): "the engine tracks at most \(limit) apps"
        case .invalidPattern(let pattern): "invalid regular expression \"\(pattern)\""
        case .duplicateApp(let app): "app \(app) appears twice"
        case .invalidPolicy(let errors): "invalid policy:\n\(errors.description)"
        case .undeclaredBackgroundMode(let app, let used, let declared):
            "\(app) uses background modes [\(used.modes.map(\.rawValue).joined(separator: ", "))] but declared "
                + "only [\(declared.modes.map(\.rawValue).joined(separator: ", "))]"
        case .sizeLimit(let app, let what): "\(app): \(what)"
        case .deferredActionsFailed(let failures):
            "the action took effect, but \(failures.count) action(s) deferred by its callbacks failed:\n"
                + failures.map { "  \($0.description)" }.joined(separator: "\n")
        case .staleReference(let reference):
            "stale app reference (slot \(reference.index), generation \(reference.generation)): the app's record was reclaimed"
        }
    }
}
