// The hot path for callers that change footprints all the time (a server tracking its tenants):
// a reference to an app skips the id lookup, so a footprint change costs the books, one kill-key
// update and the pressure check.

/// A cheap, stable reference to an app the engine knows, valid for the engine's lifetime (across
/// kills and relaunches of the app).
public struct AppReference: Hashable, Sendable {
    /// The app's index in the engine (the order in which apps first appeared).
    public let index: Int
}

extension PressureEngine {
    /// A reference to `app`, or `nil` if the engine has never seen it.
    ///
    /// - Complexity: O(1) (one hash of the id)
    public func reference(to app: AppID) -> AppReference? {
        indexByID[app].map { AppReference(index: Int($0)) }
    }

    /// The id of the app `reference` refers to.
    public func id(of reference: AppReference) -> AppID { apps[reference.index].id }

    /// Changes the footprint of the app `reference` refers to by `delta` bytes (positive: it
    /// allocated; negative: it freed) at `time`, then re-evaluates pressure, exactly as applying
    /// ``Action/allocate(app:bytes:purgeable:)`` or ``Action/free(app:bytes:purgeable:)`` does.
    ///
    /// - Throws: ``EngineError/notRunning(_:)`` if the app is not executing,
    ///   ``EngineError/freesMoreThanHeld(_:requested:held:)``, or
    ///   ``EngineError/timeWentBackwards(now:given:)``; nothing changes then.
    /// - Complexity: O(log n) for the kill-queue update, plus the pressure response if a level changes.
    public func changeFootprint(
        of reference: AppReference, by delta: Bytes, purgeable: Bool = false, at time: Double
    ) throws(EngineError) {
        guard time >= now else { throw .timeWentBackwards(now: now, given: time) }
        if let next = taskQueue.max, -next.priority <= time { expireBackgroundTasks(through: time) }
        try changeFootprint(of: reference.index, by: delta.value, purgeable: purgeable)
        now = time
        if needsPressureEvaluation { evaluatePressure() }
    }

    /// The footprint change shared by actions and references; checks before it changes anything.
    func changeFootprint(of index: Int, by delta: Int64, purgeable: Bool) throws(EngineError) {
        guard apps[index].state.isExecuting else { throw .notRunning(apps[index].id) }
        let held = purgeable ? apps[index].purgeable : apps[index].base
        guard delta >= -held else {
            throw .freesMoreThanHeld(apps[index].id, requested: Bytes(-delta), held: Bytes(held))
        }
        try checkGrowth(of: index, by: delta)
        if purgeable { apps[index].purgeable &+= delta } else { apps[index].base &+= delta }
        charge(index, delta)
    }
}
