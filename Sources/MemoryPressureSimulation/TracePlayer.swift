import MemoryPressure

/// Applies a trace's actions to an engine with the one trace semantics that `replay`, `simulate`,
/// `compare` and `sweep` share: a trace is what the user did, so an action aimed at an app the
/// policy has killed (the user cannot touch an app that is gone) is skipped and counted; the
/// next `open` of that app relaunches it. Every other refused action is an error.
public struct TracePlayer {
    /// The engine the actions go to.
    public let engine: PressureEngine
    /// Actions skipped because they addressed an app the policy had killed.
    public private(set) var skipped = 0
    /// Apps the engine killed and the trace has not relaunched since.
    private var killed: Set<AppID> = []

    /// A player driving `engine`.
    ///
    /// - Complexity: O(1)
    public init(engine: PressureEngine) {
        self.engine = engine
    }

    /// Applies `entry` and returns the events it caused, or `nil` when it was skipped and nothing
    /// else happened. When the time up to the entry may kill by itself
    /// (`PressureEngine.killsMayFall(through:)`: systemd-oomd's memory-pressure checks), a `tick`
    /// at the entry's time goes first, so that an action aimed at an app killed meanwhile is
    /// skipped like any other; the tick's events come first in the result.
    ///
    /// - Throws: the engine's `EngineError` for an action refused for any other reason.
    /// - Complexity: the engine's cost for the action.
    public mutating func apply(_ entry: Trace.Entry) throws(EngineError) -> [Event]? {
        var passed: [Event] = []
        if engine.killsMayFall(through: entry.time) {
            try engine.apply(.tick, at: entry.time)
            passed = engine.takeEvents()
            note(passed)
        }
        do {
            try engine.apply(entry.action, at: entry.time)
        } catch {
            guard let app = entry.action.app, killed.contains(app), !isOpen(entry.action) else { throw error }
            skipped += 1
            return passed.isEmpty ? nil : passed
        }
        let events = engine.takeEvents()
        note(events)
        return passed.isEmpty ? events : passed + events
    }

    /// Keeps ``killed`` up to date with `events`.
    private mutating func note(_ events: [Event]) {
        for event in events {
            switch event.kind {
            case .kill(let app, _, _, _, _): killed.insert(app)
            case .callback(let app, .didFinishLaunching, _): killed.remove(app)
            default: break
            }
        }
    }

    private func isOpen(_ action: Action) -> Bool {
        if case .open = action { return true }
        return false
    }
}
