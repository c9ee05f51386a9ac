import MemoryPressure

extension RealMemoryHost {
    /// Applies every timed action of `actions` in order, skipping (and counting) those the engine
    /// refuses, as a simulation does when an action addresses an app the policy killed.
    ///
    /// - Parameters:
    ///   - actions: the timed actions, in time order.
    ///   - progress: called now and then with the number of actions applied so far.
    /// - Returns: how many actions the engine refused.
    /// - Throws: ``RealMemoryError/jemalloc(_:app:)`` or
    ///   ``RealMemoryError/outOfSync(app:step:engine:mirrored:)`` from ``apply(_:at:)``; the
    ///   actions before it were applied.
    /// - Complexity: the sum of ``apply(_:at:)`` over the actions.
    @discardableResult
    public func replay<Actions: Sequence>(
        _ actions: Actions, progress: ((Int) -> Void)? = nil
    ) throws(RealMemoryError) -> Int where Actions.Element == (time: Double, action: Action) {
        var refused = 0
        var applied = 0
        for (time, action) in actions {
            do {
                try apply(action, at: time)
            } catch .engine {
                refused += 1
            }
            applied += 1
            if let progress, applied % 1024 == 0 { progress(applied) }
        }
        return refused
    }
}
