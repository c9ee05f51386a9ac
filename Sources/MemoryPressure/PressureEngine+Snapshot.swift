import IndexedHeapModule

/// A moment of a device: its memory and the apps in it (docs/DESIGN.md, "Snapshot"), the input of
/// `mempressure kill-order`.
public struct Snapshot: Sendable, Hashable {
    /// The device.
    public var device: Device
    /// The apps, in file order.
    public var apps: [ResidentApp]
    /// Memory in use outside the apps (see ``ResourceAccountant/unattributed``); set by live
    /// sources, 0 in snapshot files.
    public var unattributed: Bytes

    /// A snapshot.
    ///
    /// - Complexity: O(1)
    public init(device: Device, apps: [ResidentApp], unattributed: Bytes = .zero) {
        self.device = device
        self.apps = apps
        self.unattributed = unattributed
    }
}

extension PressureEngine {
    /// An engine holding every app of `snapshot` in its state, ready for ``killOrder(limit:)``.
    ///
    /// - Throws: ``EngineError`` if the policy's patterns do not compile or the snapshot has two
    ///   foreground apps.
    /// - Complexity: O(n log n)
    public convenience init(snapshot: Snapshot, policy: Policy) throws(EngineError) {
        try self.init(snapshot: snapshot, policy: policy, bulkLoad: true)
    }

    /// ``init(snapshot:policy:)``; with `bulkLoad` false every app enters the kill queue by its
    /// own insertion, in age order, and the apps are always ordered by age — the load before the
    /// bulk one, kept so tests can hold the two to the same result. A bulk load of at least
    /// `tournamentThreshold` apps builds the kill queue as a tournament (tests lower it to hold
    /// the tournament to the heap's result without a million apps).
    package convenience init(
        snapshot: Snapshot, policy: Policy, bulkLoad: Bool,
        tournamentThreshold: Int = AdaptiveIndexedQueue.tournamentThreshold
    ) throws(EngineError) {
        try self.init(
            loadingSnapshotOf: snapshot.device, policy: policy, unattributed: snapshot.unattributed,
            expectedApps: snapshot.apps.count)
        killQueueTournamentThreshold = tournamentThreshold
        // Apps with view caches keep them in `extras`: room for them all at once, rather than a
        // dictionary that doubles (and rehashes) its way up. Swap and page tables are per-slot
        // arrays, made once for every app when any has them.
        let withExtras = snapshot.apps.reduce(0) { $0 + ($1.viewCaches.value != 0 ? 1 : 0) }
        extras.reserveCapacity(withExtras)
        if snapshot.apps.contains(where: { $0.swap.value != 0 || $0.pageTables.value != 0 }) {
            swapBytesBySlot = Array(repeating: 0, count: snapshot.apps.count)
            pageTableBytesBySlot = Array(repeating: 0, count: snapshot.apps.count)
        }
        for app in snapshot.apps {
            try addSnapshotApp(app)
        }
        finishSnapshotLoad(bulkLoad: bulkLoad)
    }

    /// An engine that takes a snapshot's apps one at a time, as a decoder reads them
    /// (``addSnapshotApp(_:)``), then is made ready by ``finishSnapshotLoad(bulkLoad:)``: the
    /// engine ``init(snapshot:policy:)`` makes, with no ``Snapshot`` held in between.
    ///
    /// - Parameter expectedApps: room to reserve (a guess is fine).
    /// - Throws: ``EngineError`` if the policy's patterns do not compile.
    /// - Complexity: O(`expectedApps`)
    package convenience init(
        loadingSnapshotOf device: Device, policy: Policy, unattributed: Bytes = .zero, expectedApps: Int
    ) throws(EngineError) {
        try self.init(device: device, policy: policy)
        reserveCapacity(apps: expectedApps)
        accountant.setUnattributed(unattributed)
    }

    /// Adds the next app of a snapshot being loaded; it enters the kill queue in
    /// ``finishSnapshotLoad(bulkLoad:)``.
    ///
    /// - Throws: what ``add(_:)`` throws; the engine is then not to be used.
    /// - Complexity: O(1) amortized
    package func addSnapshotApp(_ app: ResidentApp) throws(EngineError) {
        try add(app, queueing: false)
    }

    /// Ends a snapshot's load: gives every app its band entry and fills the kill queue.
    ///
    /// - Complexity: O(n) for policies that never read band entries, else O(n) plus the sort of
    ///   each run of apps last frontmost at the same moment.
    package func finishSnapshotLoad(bulkLoad: Bool = true) {
        // A snapshot has no history: an app is taken to have entered its band when it was last
        // frontmost, so first-in-first-out bands start with the app left longest ago; apps left
        // at the same moment entered in the order of their ids. (Sorted by time alone first, then
        // each run of equal times by id: the same order as one sort by both, since ids are
        // unique, without comparing ids outside ties.)
        // Band entries are read only by first-in-first-out bands and by the tie rules
        // newestInBand and oldestInBand: a policy with neither (ios4, linux-oom, lru) takes the
        // apps in file order, unsorted.
        let readsEntries = bandInfo.contains {
            $0.order == .firstInFirstOut || $0.ties == .newestInBand || $0.ties == .oldestInBand
        }
        defer {
            bandSequence = UInt64(apps.count)
            // The device's free swap counts the apps' own swap entries: what they do not hold is
            // used outside them.
            if let swapFree = device.swapFree { setSwapFree(swapFree) }
        }
        guard readsEntries || !bulkLoad else {
            for index in apps.indices { apps[cold: index].bandEntry = UInt64(index + 1) }
            fillKillQueue(apps.indices)
            return
        }
        // A radix sort on the times' order-preserving keys: a snapshot of a million apps spent
        // most of its load here with a comparison sort.
        let keys = apps.indices.map { RadixSort.key(apps[cold: $0].lastFrontmost) }
        var byAge: [(time: UInt64, index: Int32)] = RadixSort.order(of: keys).map { (keys[Int($0)], $0) }
        var runStart = 0
        while runStart < byAge.count {
            var runEnd = runStart + 1
            while runEnd < byAge.count, byAge[runEnd].time == byAge[runStart].time { runEnd += 1 }
            if runEnd - runStart > 1 {
                byAge[runStart..<runEnd].sort {
                    apps[cold: Int($0.index)].id.rawValue.utf8.lexicographicallyPrecedes(
                        apps[cold: Int($1.index)].id.rawValue.utf8)
                }
            }
            runStart = runEnd
        }
        for (sequence, entry) in byAge.enumerated() { apps[cold: Int(entry.index)].bandEntry = UInt64(sequence + 1) }
        if bulkLoad {
            fillKillQueue(byAge.lazy.map { Int($0.index) })
        } else {
            for entry in byAge { syncKillQueue(Int(entry.index)) }
        }
    }
}

/// An app as a snapshot describes it (docs/DESIGN.md, "Snapshot"): already in some state, with no history.
public struct ResidentApp: Sendable, Hashable {
    /// The app.
    public var id: AppID
    /// Its state.
    public var state: AppState
    /// Total resident bytes, including ``viewCaches`` and ``purgeable``.
    public var footprint: Bytes
    /// Bytes of loaded offscreen views.
    public var viewCaches: Bytes
    /// Bytes of registered purgeable caches.
    public var purgeable: Bytes
    /// Seconds since it was last frontmost (smaller is more recent).
    public var lastActive: Double
    /// Declared background modes.
    public var backgroundModes: BackgroundModes
    /// Its `oom_score_adj`, −1000…1000 (`nil`: derived from its state by the policy).
    public var oomScoreAdj: Int?
    /// Swapped-out bytes.
    public var swap: Bytes
    /// Page-table bytes.
    public var pageTables: Bytes
    /// An explicit priority, for policies that band by it.
    public var priority: Int?

    /// An app in a snapshot; only `id`, `state` and `footprint` are required.
    ///
    /// - Complexity: O(1)
    public init(
        id: AppID, state: AppState, footprint: Bytes, viewCaches: Bytes = .zero, purgeable: Bytes = .zero,
        lastActive: Double = 0, backgroundModes: BackgroundModes = [], oomScoreAdj: Int? = nil,
        swap: Bytes = .zero, pageTables: Bytes = .zero, priority: Int? = nil
    ) {
        self.id = id
        self.state = state
        self.footprint = footprint
        self.viewCaches = viewCaches
        self.purgeable = purgeable
        self.lastActive = lastActive
        self.backgroundModes = backgroundModes
        self.oomScoreAdj = oomScoreAdj
        self.swap = swap
        self.pageTables = pageTables
        self.priority = priority
    }
}

extension PressureEngine {
    /// Adds an app that is already in `app.state`, as a snapshot or a live source reports it: no
    /// callbacks are delivered and pressure is not evaluated (apply `.tick` to do that). Its
    /// view caches become one offscreen view named `offscreenViews`.
    ///
    /// - Throws: ``EngineError/duplicateApp(_:)`` if the engine already knows the app,
    ///   ``EngineError/alreadyForeground(_:)`` for a second foreground app, and size errors.
    /// - Complexity: O(log n)
    public func add(_ app: ResidentApp) throws(EngineError) {
        if mutationDepth > 0 {
            deferredWork.append(
                DeferredWork(action: nil, time: now) { engine throws(EngineError) in try engine.add(app, queueing: true)
                })
            return
        }
        try add(app, queueing: true)
    }

    /// ``add(_:)``; with `queueing` false the app is not placed in the kill queue, which the
    /// caller must then do (``syncKillQueue(_:)``) before the engine is used.
    func add(_ app: ResidentApp, queueing: Bool) throws(EngineError) {
        guard indexByID[app.id] == nil else { throw .duplicateApp(app.id) }
        guard app.viewCaches.value >= 0, app.purgeable.value >= 0, app.swap.value >= 0, app.pageTables.value >= 0
        else { throw .negativeSize("sizes of \(app.id)") }
        try checkSizes(of: app)
        guard app.viewCaches.value + app.purgeable.value <= app.footprint.value else {
            throw .footprintTooSmall(app.id, footprint: app.footprint, viewsAndCaches: app.viewCaches + app.purgeable)
        }
        if app.state.isForeground, let current = foreground { throw .alreadyForeground(apps[cold: current].id) }
        if app.state.isResident { try checkGrowth(id: app.id, from: 0, by: app.footprint.value) }
        let index = try register(app.id)
        configure(index, backgroundModes: app.backgroundModes, oomScoreAdj: app.oomScoreAdj, priority: app.priority)
        // A snapshot's or a live source's figures are measured: the engine compresses none of them.
        if hasCompression { setCompressibleStates(index, 0) }
        guard app.state.isResident else { return }
        apps[index].base = app.footprint.value - app.viewCaches.value - app.purgeable.value
        apps[index].viewCaches = app.viewCaches.value
        apps[index].purgeable = app.purgeable.value
        apps[cold: index].lastFrontmost = now - app.lastActive
        // A snapshot tells when the app was last frontmost, not how often: one open, at that time.
        if learnsUse { apps[cold: index].useLog = policy.relaunch.decayRate * apps[cold: index].lastFrontmost }
        setSnapshotExtras(index, app)
        if app.state.isForeground { foreground = index }
        accountant.charge(apps[index].footprint)
        apps[index].state = app.state
        if hasCompression && app.state == .suspended { compression!.suspendedCount += 1 }
        bandSequence &+= 1
        apps[cold: index].bandEntry = bandSequence
        checkLimit(index)
        if queueing { syncKillQueue(index) }
    }
}

extension PressureEngine {
    /// Throws unless every size of `app` is from 0 to ``maximumFootprint``.
    func checkSizes(of app: ResidentApp) throws(EngineError) {
        let limit = Self.maximumFootprint.value
        for size in [app.footprint, app.viewCaches, app.purgeable, app.swap, app.pageTables] where size.value > limit {
            throw .sizeLimit(app.id, "a size passes the limit of \(limit) bytes (2^50) for one app")
        }
    }

    /// Brings an app up to date with a new reading from a live source — footprint, caches, swap,
    /// page tables, state, oom_score_adj, priority — adding it if the engine does not know it.
    /// No callbacks are delivered and pressure is not evaluated (call ``refreshPressure(at:)``
    /// after a batch of updates).
    ///
    /// - Throws: size errors as ``add(_:)`` does; nothing changes then.
    /// - Complexity: O(log n); O(size of the policy) when the app's oom_score_adj or priority changed.
    public func update(_ app: ResidentApp) throws(EngineError) {
        if mutationDepth > 0 {
            deferredWork.append(
                DeferredWork(action: nil, time: now) { engine throws(EngineError) in try engine.updateNow(app) })
            return
        }
        try updateNow(app)
    }

    /// ``update(_:)``'s work, at once.
    func updateNow(_ app: ResidentApp) throws(EngineError) {
        guard let found = indexByID[app.id] else { return try add(app, queueing: true) }
        let index = Int(found)
        try checkSizes(of: app)
        if app.state.isResident {
            try checkGrowth(id: app.id, from: 0, by: app.footprint.value &- apps[index].footprint)
        }
        guard app.viewCaches.value >= 0, app.purgeable.value >= 0, app.swap.value >= 0, app.pageTables.value >= 0,
            app.viewCaches.value + app.purgeable.value <= app.footprint.value
        else {
            throw .footprintTooSmall(app.id, footprint: app.footprint, viewsAndCaches: app.viewCaches + app.purgeable)
        }
        if app.state.isForeground, let current = foreground, current != index {
            throw .alreadyForeground(apps[cold: current].id)
        }
        let adj = app.oomScoreAdj.map { Int16(clamping: Swift.min(Swift.max($0, -1000), 1000)) } ?? AppRecord.derived
        if adj != apps[index].oomScoreAdj || app.priority != apps[index].explicitPriority
            || app.backgroundModes != apps[index].backgroundModes
        {
            configure(index, backgroundModes: app.backgroundModes, oomScoreAdj: app.oomScoreAdj, priority: app.priority)
        }
        if hasCompression {
            // The reading replaces the engine's books for the app, compressed memory included.
            dropFromPool(index, killed: true)
            setCompressibleStates(index, 0)
        }
        let old = apps[index].footprint
        apps[index].base = app.footprint.value - app.viewCaches.value - app.purgeable.value
        apps[index].viewCaches = app.viewCaches.value
        apps[index].onscreenView = 0
        apps[index].purgeable = app.purgeable.value
        apps[cold: index].lastFrontmost = now - app.lastActive
        // A snapshot tells when the app was last frontmost, not how often: one open, at that time.
        if learnsUse { apps[cold: index].useLog = policy.relaunch.decayRate * apps[cold: index].lastFrontmost }
        setSnapshotExtras(index, app)
        if app.state.isForeground { foreground = index } else if foreground == index { foreground = nil }
        accountant.charge(apps[index].footprint - old)
        if apps[index].state != app.state { setState(index, app.state) }
        checkLimit(index)
        syncKillQueue(index)
    }

    /// Takes an app out of memory with no callback and no kill event, as when a process a live
    /// source tracked has exited on its own, and reclaims its record: the engine forgets its id,
    /// callbacks and history, its slot is reused, and references to it go stale. Unknown apps
    /// are ignored. Called from inside a callback, it is deferred until the current mutation ends.
    ///
    /// - Complexity: O(log n)
    public func forget(_ app: AppID) {
        if mutationDepth > 0 {
            deferredWork.append(
                DeferredWork(action: nil, time: now) { engine throws(EngineError) in engine.forgetNow(app) })
            return
        }
        forgetNow(app)
    }

    /// ``forget(_:)``'s work, at once (also when deferred work runs it inside a mutation): takes
    /// the app out of memory if it holds anything, then reclaims its record.
    func forgetNow(_ app: AppID) {
        guard let index = indexByID[app].map(Int.init) else { return }
        if apps[index].state.isResident || apps[index].footprint != 0 || extras(index).taskHandle != nil {
            terminate(index)
        }
        syncKillQueue(index)
        releaseRecord(index)
        let slot = Int32(truncatingIfNeeded: index)
        if !endedApps.isEmpty { endedApps.removeAll { $0 == slot } }
    }

    /// Records the memory in use outside the apps (a live source's reading).
    ///
    /// - Complexity: O(1)
    public func setUnattributedMemory(_ bytes: Bytes) {
        if mutationDepth > 0 {
            deferredWork.append(
                DeferredWork(action: nil, time: now) { engine throws(EngineError) in
                    engine.accountant.setUnattributed(bytes)
                })
            return
        }
        accountant.setUnattributed(bytes)
    }

    /// Re-evaluates pressure at `time` after updates from a live source: levels, warnings,
    /// purges and kills as the policy says (a dry run just reads the events and discards them).
    ///
    /// - Throws: ``EngineError/timeWentBackwards(now:given:)``.
    ///
    /// - Complexity: as `apply(.tick, at:)`: O(1) unless a level changes (see `PressureEngine/apply(_:at:)`)
    public func refreshPressure(at time: Double) throws(EngineError) {
        try apply(.tick, at: time)
    }
}

extension PressureEngine {
    /// Stores what a snapshot says of app `index` beyond its hot record: swap, page tables, and
    /// its view caches as one offscreen view named `offscreenViews`.
    fileprivate func setSnapshotExtras(_ index: Int, _ app: ResidentApp) {
        setSwapAndPageTables(index, swap: app.swap.value, pageTables: app.pageTables.value)
        let views =
            app.viewCaches.value > 0
            ? [ViewRecord(name: "offscreenViews", bytes: app.viewCaches.value, isLoaded: true, isOnscreen: false)]
            : []
        // No lookup at all while no app has extras (the usual snapshot: a hash per app saved).
        guard !views.isEmpty || (!extras.isEmpty && extras[Int32(truncatingIfNeeded: index)] != nil) else { return }
        withExtras(index) { $0.views = views }
    }
}
