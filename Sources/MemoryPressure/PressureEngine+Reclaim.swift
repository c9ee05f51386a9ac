// Long runs: the records of apps that ended are reclaimed and their slots reused, so an engine
// that sees millions of distinct app ids over its life (a `watch` on a busy machine, a server with
// churning tenant ids) holds only the records of the apps it still tracks.
//
// A slot's generation is bumped when its record is reclaimed; an ``AppReference`` carries the
// generation it was made at, so a reference to a reclaimed app is detected
// (``EngineError/staleReference(_:)``) instead of silently addressing the slot's next app.
//
// Ties in the kill queue are broken by slot (see `PressureEngine+KillQueue.swift`). Without
// reclamation slots are given in order of first appearance, which is the documented tie rule;
// once slots are reused, a new app may take a lower slot than an older one, so among apps with
// exactly equal keys the order is by slot rather than by first appearance.

extension PressureEngine {
    /// What the engine's per-app storage holds: a long-running caller can check that it stays
    /// bounded.
    public struct StorageStatistics: Sendable, Hashable {
        /// App records allocated (live plus reclaimed slots waiting for reuse).
        public var slots: Int
        /// Records of apps the engine tracks (resident or remembered).
        public var records: Int
        /// Reclaimed slots waiting for reuse.
        public var freeSlots: Int
        /// Apps with cold extras (views, notifications, tasks, swap, limits).
        public var appsWithExtras: Int
        /// Events in the log, not yet taken.
        public var pendingEvents: Int
        /// Callbacks registered: application delegates, memory-warning observers, view-controller delegates.
        public var callbacks: Int
    }

    /// The sizes of the engine's per-app storage.
    ///
    /// - Complexity: O(apps with memory-warning observers)
    public var storageStatistics: StorageStatistics {
        StorageStatistics(
            slots: apps.count, records: indexByID.count, freeSlots: freeSlots.count, appsWithExtras: extras.count,
            pendingEvents: events.count,
            callbacks: delegates.count + viewDelegates.count + observers.values.reduce(0) { $0 + $1.count })
    }

    /// Whether one more app can be registered.
    var hasRoomForApp: Bool { !freeSlots.isEmpty || apps.count < Self.maximumApps }

    /// Adds a new app record for `id`, in a reclaimed slot if there is one, and returns its index.
    func register(_ id: AppID) throws(EngineError) -> Int {
        if let slot = freeSlots.popLast() {
            let index = Int(slot)
            apps.reset(index, id: id)
            indexByID[id] = slot
            return index
        }
        guard apps.count < Self.maximumApps else { throw .tooManyApps(limit: Self.maximumApps) }
        apps.append(id: id)
        if !generations.isEmpty { generations.append(0) }
        indexByID[id] = Int32(apps.count - 1)
        return apps.count - 1
    }

    /// Notes that app `index` ended (it is not running now); its record is reclaimed when the
    /// current mutation finishes, unless ``retainsEndedApps`` is on.
    @inline(__always)
    func noteEnded(_ index: Int) {
        if !retainsEndedApps { endedApps.append(Int32(truncatingIfNeeded: index)) }
    }

    /// Reclaims the records of the apps that ended during the mutation and are still not running.
    func reclaimEndedRecords() {
        guard !endedApps.isEmpty else { return }
        for slot in endedApps where !apps[Int(slot)].state.isResident && indexByID[apps[cold: Int(slot)].id] == slot {
            releaseRecord(Int(slot))
        }
        endedApps.removeAll(keepingCapacity: true)
    }

    /// Forgets everything about app `index`, which is not running: its id, its callbacks, its
    /// history; its slot goes to the free list with a new generation.
    ///
    /// - Complexity: O(1), plus O(view-controller delegates) if any are registered.
    func releaseRecord(_ index: Int) {
        let slot = Int32(truncatingIfNeeded: index)
        indexByID.removeValue(forKey: apps[cold: index].id)
        extras[slot] = nil
        setSwapAndPageTables(index, swap: 0, pageTables: 0)
        delegates[slot] = nil
        observers[slot] = nil
        if !viewDelegates.isEmpty { viewDelegates = viewDelegates.filter { $0.key.app != slot } }
        externalScores[index] = nil
        if reuse != nil { reuse!.forget(index) }
        if !limitViolators.isEmpty { limitViolators.removeAll { $0 == index } }
        apps[index].flags = [.isReclaimed]
        if generations.isEmpty { generations = ContiguousArray(repeating: 0, count: apps.count) }
        generations[index] &+= 1
        freeSlots.append(slot)
    }

    /// The generation of slot `index` (0 until a record is first reclaimed).
    @inline(__always)
    func generation(ofSlot index: Int) -> UInt64 {
        generations.isEmpty ? 0 : generations[index]
    }

    /// Whether slot `index` holds an app's record (not a reclaimed slot).
    @inline(__always)
    func isLive(_ index: Int) -> Bool { !apps[index].flags.contains(.isReclaimed) }
}
