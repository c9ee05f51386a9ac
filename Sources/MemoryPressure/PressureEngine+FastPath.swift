// The hot path for callers that change footprints all the time (a server tracking its tenants):
// a reference to an app skips the id lookup, so a footprint change costs the books, one kill-key
// update and the pressure check.

/// A cheap, stable reference to an app the engine knows, valid while the engine holds the app's
/// record: across kills and relaunches of the app, until the record is reclaimed
/// (``PressureEngine/forget(_:)``, or ``PressureEngine/retainsEndedApps`` off). A reference to a
/// reclaimed record is stale: the engine detects it by the slot's generation.
public struct AppReference: Hashable, Sendable {
    /// The app's slot in the engine (the order in which apps first appeared, while no record
    /// has been reclaimed).
    public let index: Int
    /// The slot's generation when the reference was made.
    public let generation: UInt64
}

extension PressureEngine {
    /// A reference to `app`, or `nil` if the engine has never seen it.
    ///
    /// - Complexity: O(1) (one hash of the id)
    public func reference(to app: AppID) -> AppReference? {
        indexByID[app].map { AppReference(index: Int($0), generation: generation(ofSlot: Int($0))) }
    }

    /// The id of the app `reference` refers to, or `nil` if the reference is stale.
    ///
    /// - Complexity: O(1)
    public func id(of reference: AppReference) -> AppID? {
        isCurrent(reference) ? apps[cold: reference.index].id : nil
    }

    /// Whether `reference` still refers to the app it was made for.
    ///
    /// - Complexity: O(1)
    @inline(__always)
    public func isCurrent(_ reference: AppReference) -> Bool {
        reference.index >= 0 && reference.index < apps.count
            && generation(ofSlot: reference.index) == reference.generation
    }

    /// Changes the footprint of the app `reference` refers to by `delta` bytes (positive: it
    /// allocated; negative: it freed) at `time`, then re-evaluates pressure, exactly as applying
    /// ``Action/allocate(app:bytes:purgeable:)`` or ``Action/free(app:bytes:purgeable:)`` does.
    ///
    /// Called from inside a callback (``PressureEngine/isMutating``), the change is deferred as an
    /// `allocate` or `free` action until the current mutation has finished.
    ///
    /// - Throws: ``EngineError/staleReference(_:)`` if the app's record was reclaimed,
    ///   ``EngineError/notRunning(_:)`` if the app is not executing,
    ///   ``EngineError/freesMoreThanHeld(_:requested:held:)``, or
    ///   ``EngineError/timeWentBackwards(now:given:)``; nothing changes then.
    ///   ``EngineError/deferredActionsFailed(_:)`` if the change took effect but actions deferred
    ///   by the callbacks it caused failed.
    /// - Complexity: O(log n) for the kill-queue update, plus the pressure response if a level changes.
    public func changeFootprint(
        of reference: AppReference, by delta: Bytes, purgeable: Bool = false, at time: Double
    ) throws(EngineError) {
        guard isCurrent(reference) else { throw .staleReference(reference) }
        if mutationDepth > 0 {
            deferFootprintChange(of: reference, by: delta, purgeable: purgeable, at: time)
            return
        }
        guard time >= now else { throw .timeWentBackwards(now: now, given: time) }
        if hasMemoryPressureLimit {
            try changeFootprintWithTimedChecks(of: reference, by: delta, purgeable: purgeable, at: time)
            return
        }
        if !taskQueue.isEmpty, let next = taskQueue.max, -next.priority <= time {
            try mutate { () throws(EngineError) in expireBackgroundTasks(through: time) }
        }
        try changeFootprint(of: reference.index, by: delta.value, purgeable: purgeable)
        now = time
        if needsPressureEvaluation { try mutate { () throws(EngineError) in evaluatePressure() } }
    }

    /// The footprint change under a policy with ``Policy/memoryPressureLimit``: as an action, after
    /// the expiries and the rule's checks due by `time`, and the state it leaves recorded. Out of
    /// line, so that the common path stays small.
    @inline(never)
    private func changeFootprintWithTimedChecks(
        of reference: AppReference, by delta: Bytes, purgeable: Bool, at time: Double
    ) throws(EngineError) {
        try mutate { () throws(EngineError) in
            expireBackgroundTasks(through: time)
            runMemoryPressureChecks(through: time)
        }
        // A check may have killed the app: then the change is refused as for any app not running.
        guard isCurrent(reference) else { throw .staleReference(reference) }
        try changeFootprint(of: reference.index, by: delta.value, purgeable: purgeable)
        now = time
        if needsPressureEvaluation { try mutate { () throws(EngineError) in evaluatePressure() } }
        settleMemoryPressure()
    }

    /// Called from inside a callback: the change, deferred as an `allocate` or `free` action
    /// until the current mutation has finished, applied then if the reference is still current.
    /// Out of line, so that the common path of ``changeFootprint(of:by:purgeable:at:)`` stays small.
    @inline(never)
    private func deferFootprintChange(of reference: AppReference, by delta: Bytes, purgeable: Bool, at time: Double) {
        let id = apps[cold: reference.index].id
        let bytes = Bytes(delta.value.magnitude > UInt64(Int64.max) ? Int64.max : abs(delta.value))
        let action: Action =
            delta.value >= 0
            ? .allocate(app: id, bytes: bytes, purgeable: purgeable)
            : .free(app: id, bytes: bytes, purgeable: purgeable)
        deferredWork.append(
            DeferredWork(action: action, time: time) { engine throws(EngineError) in
                guard engine.isCurrent(reference) else { throw .staleReference(reference) }
                guard time >= engine.now else { throw .timeWentBackwards(now: engine.now, given: time) }
                engine.expireBackgroundTasks(through: time)
                engine.runMemoryPressureChecks(through: time)
                try engine.changeFootprint(of: reference.index, by: delta.value, purgeable: purgeable)
                engine.now = time
                engine.evaluatePressure()
                engine.settleMemoryPressure()
            })
    }

    /// The footprint change shared by actions and references; checks before it changes anything.
    ///
    /// The checks are comparisons on the app's record; the errors are worded out of line
    /// (``footprintChangeError(of:by:purgeable:)``), so the common path stays small.
    @inline(__always)
    func changeFootprint(of index: Int, by delta: Int64, purgeable: Bool) throws(EngineError) {
        let held = purgeable ? apps[index].purgeable : apps[index].base
        guard apps[index].state.isExecuting, delta >= -held, growthIsAllowed(from: apps[index].footprint, by: delta)
        else {
            throw footprintChangeError(of: index, by: delta, purgeable: purgeable)
        }
        if purgeable { apps[index].purgeable &+= delta } else { apps[index].base &+= delta }
        charge(index, delta)
    }

    /// The error of the first of ``changeFootprint(of:by:purgeable:)``'s checks that app `index`
    /// fails: it is not executing, it frees more than it holds, or it would pass a size limit.
    @inline(never)
    func footprintChangeError(of index: Int, by delta: Int64, purgeable: Bool) -> EngineError {
        guard apps[index].state.isExecuting else { return .notRunning(apps[cold: index].id) }
        let held = purgeable ? apps[index].purgeable : apps[index].base
        guard delta >= -held else {
            return .freesMoreThanHeld(apps[cold: index].id, requested: Bytes(-delta), held: Bytes(held))
        }
        do throws(EngineError) {
            try checkGrowth(id: apps[cold: index].id, from: apps[index].footprint, by: delta)
        } catch {
            return error
        }
        preconditionFailure("footprintChangeError(of:by:purgeable:): app \(index) passes every check")
    }
}
