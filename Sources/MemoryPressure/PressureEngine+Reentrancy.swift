// Re-entrancy: what happens when app code called by the engine (an application delegate, a
// memory-warning observer, a view-controller delegate, ``PressureEngine/externalScore``) calls
// back into the engine.
//
// The engine delivers callbacks in the middle of a mutation: a kill loop holds app indices, a
// warning walks the app table, a view purge walks one app's views. Applying another action at
// that point would change what those loops read. So a mutation requested from inside a callback
// is *deferred*: it is queued, and applied after the current mutation — including its pressure
// evaluation, warnings and kills — has finished, in the order it was requested. This is how a
// delegate answers `applicationDidEnterBackground` with `beginBackgroundTask`, or an observer
// frees memory with `apply(.free…)`: both take effect right after the callback's mutation.
//
// A deferred action that fails changes nothing (as any failed action); the outermost call then
// throws ``EngineError/deferredActionsFailed(_:)`` after its own action took effect, listing each
// failed deferred action with its error. If the outermost action itself fails, the actions its
// callbacks deferred are dropped with it.

/// A mutation requested from inside a callback that failed when it was applied.
public struct DeferredActionFailure: Sendable, Hashable, CustomStringConvertible {
    /// The deferred action (footprint changes through an ``AppReference`` appear as `allocate`
    /// or `free`; ``PressureEngine/forget(_:)`` as `nil`).
    public var action: Action?
    /// The time it was to be applied at.
    public var time: Double
    /// Why it failed.
    public var error: EngineError

    /// The action, its time and the error.
    public var description: String {
        let what = action.map { "\($0)" } ?? "forget"
        return "deferred \(what) at \(time): \(error.description)"
    }
}

extension PressureEngine {
    /// Whether the engine is in the middle of a mutation (callbacks may be running): a mutation
    /// requested now — ``apply(_:at:)``, ``changeFootprint(of:by:purgeable:at:)``, ``forget(_:)``,
    /// ``add(_:)``, ``update(_:)``, ``setSwapFree(_:)``, ``setUnattributedMemory(_:)`` — is deferred
    /// until the current one has finished. (Registering delegates and observers is not a mutation
    /// of the books and takes effect at once.)
    ///
    /// - Complexity: O(1)
    public var isMutating: Bool { mutationDepth > 0 }

    /// Runs `body` as the outermost mutation, then applies every mutation deferred by callbacks
    /// (and any those defer in turn) in order, then reclaims the records of apps that ended if
    /// ``retainsEndedApps`` is off.
    ///
    /// - Throws: `body`'s error (deferred work is then dropped), or
    ///   ``EngineError/deferredActionsFailed(_:)`` if deferred actions failed.
    @inline(__always)
    func mutate(_ body: () throws(EngineError) -> Void) throws(EngineError) {
        mutationDepth &+= 1
        do {
            try body()
        } catch {
            mutationDepth &-= 1
            if _slowPath(!deferredWork.isEmpty) { deferredWork.removeAll() }
            if _slowPath(!endedApps.isEmpty) { reclaimEndedRecords() }
            throw error
        }
        // The common case: no callback asked for anything, no record to reclaim.
        let failures = _slowPath(!deferredWork.isEmpty) ? applyDeferredWork() : []
        mutationDepth &-= 1
        if _slowPath(!endedApps.isEmpty) { reclaimEndedRecords() }
        if _slowPath(!failures.isEmpty) { throw .deferredActionsFailed(failures) }
    }

    /// Applies the deferred work in order (and any it defers in turn), still inside the
    /// mutation, and returns the failures.
    @inline(never)
    func applyDeferredWork() -> [DeferredActionFailure] {
        var failures: [DeferredActionFailure] = []
        var next = 0
        while next < deferredWork.count {
            let work = deferredWork[next]
            next += 1
            do {
                try work.run(self)
            } catch {
                failures.append(DeferredActionFailure(action: work.action, time: work.time, error: error))
            }
        }
        deferredWork.removeAll(keepingCapacity: true)
        return failures
    }

    /// Queues `action` at `time` to be applied when the current mutation has finished.
    func deferAction(_ action: Action, at time: Double) {
        deferredWork.append(
            DeferredWork(action: action, time: time) { engine throws(EngineError) in
                try engine.applyNow(action, at: time)
            })
    }
}

/// A mutation queued by a callback.
struct DeferredWork {
    /// The action, for the failure report (`nil` for ``PressureEngine/forget(_:)``).
    var action: Action?
    var time: Double
    /// Applies it to the engine; runs inside the outermost mutation.
    var run: (PressureEngine) throws(EngineError) -> Void
}
