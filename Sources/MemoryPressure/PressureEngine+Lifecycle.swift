// The app lifecycle (docs/DESIGN.md, "The app lifecycle"): every action, with its callbacks in order.
//
// Callbacks named "will…" are logged before the state change they announce, "did…" after it.

extension PressureEngine {
    /// Applies `action` at `time` (seconds, never earlier than the previous action's time), then
    /// re-evaluates memory pressure: warnings, purges and kills follow as the policy says. The
    /// resulting events are appended to the log (see ``takeEvents()``).
    ///
    /// Background tasks that end before `time` expire first, at their own times, and the checks
    /// of a ``Policy/memoryPressureLimit`` rule due by `time` run, at theirs (see
    /// ``killsMayFall(through:)``). If the action is impossible (resuming an app that is not
    /// running, launching one twice…) it throws and changes nothing beyond those expiries and checks.
    ///
    /// - Throws: an ``EngineError`` naming why the action is impossible, or
    ///   ``EngineError/deferredActionsFailed(_:)`` if the action took effect but actions its
    ///   callbacks deferred failed.
    /// - Complexity: O(log n) for lifecycle and memory changes; O(n) when a level is entered
    ///   (every running app is warned) plus O(k log n) for k kills.
    /// Called from inside a callback (``isMutating``), the action is deferred: it is applied
    /// after the current mutation has finished, and this call returns at once (see
    /// `PressureEngine+Reentrancy.swift`).
    public func apply(_ action: Action, at time: Double) throws(EngineError) {
        if mutationDepth > 0 {
            deferAction(action, at: time)
            return
        }
        try mutate { () throws(EngineError) in try applyNow(action, at: time) }
    }

    /// Applies `action` now: the body of ``apply(_:at:)`` inside a mutation.
    func applyNow(_ action: Action, at time: Double) throws(EngineError) {
        guard time >= now else { throw .timeWentBackwards(now: now, given: time) }
        expireBackgroundTasks(through: time)
        runMemoryPressureChecks(through: time)
        let afterExpiries = now
        now = time
        do {
            try perform(action)
        } catch {
            now = afterExpiries
            throw error
        }
        // A fired lmkd trigger whose window ended before this action falls back (the event log's crossings).
        if hasPressureStall { closePressureStallCrossings() }
        evaluatePressure()
        if prewarms, action.opensApp {
            prewarmLikeliestNext()
            evaluatePressure()
        }
        settleMemoryPressure()
    }

    private func perform(_ action: Action) throws(EngineError) {
        switch action {
        case .launch(let launch):
            // An app the engine prewarmed was never launched by the user: launching it opens it.
            if let index = indexByID[launch.id], apps[Int(index)].state.isResident,
                !apps[Int(index)].flags.contains(.prewarmed)
            {
                throw .alreadyRunning(launch.id, state: apps[Int(index)].state)
            }
            try open(launch)
        case .open(let launch):
            try open(launch)
        case .home:
            guard !isLocked else { throw .deviceLocked(action: "press Home") }
            if let current = foreground { leaveForeground(current) }
        case .interrupt:
            isInterrupted = true
            if let current = foreground, apps[current].state == .active { resignActive(current) }
        case .interruptEnd(let answered):
            guard isInterrupted else { throw .noInterruption }
            isInterrupted = false
            guard let current = foreground else { return }
            if answered {
                leaveForeground(current)
            } else if !isLocked {
                becomeActive(current)
            }
        case .lock:
            isLocked = true
            if let current = foreground, apps[current].state == .active { resignActive(current) }
        case .unlock:
            isLocked = false
            if let current = foreground, !isInterrupted { becomeActive(current) }
        case .allocate(let app, let bytes, let purgeable):
            guard bytes.value >= 0 else { throw .negativeSize("allocate bytes") }
            try changeFootprint(of: try index(of: app), by: bytes.value, purgeable: purgeable)
        case .free(let app, let bytes, let purgeable):
            guard bytes.value >= 0 else { throw .negativeSize("free bytes") }
            try changeFootprint(of: try index(of: app), by: -bytes.value, purgeable: purgeable)
        case .showView(let app, let view, let bytes):
            try showView(view, of: try executingApp(app), bytes: bytes)
        case .hideView(let app, let view):
            let index = try executingApp(app)
            guard let position = extras(index).views.firstIndex(where: { $0.name == view }) else {
                throw .unknownView(app, view: view)
            }
            let record = extras(index).views[position]
            if record.isLoaded && record.isOnscreen {
                withExtras(index) { $0.views[position].isOnscreen = false }
                apps[index].onscreenView -= record.bytes
                apps[index].viewCaches += record.bytes
            }
        case .beginBackgroundTask(let app, let seconds):
            let index = try executingApp(app)
            guard seconds >= 0 else { throw .negativeSize("background task seconds") }
            let current = extras(index).taskHandle.map { -taskQueue.priority(of: $0) } ?? -.infinity
            scheduleTask(index, expiry: Swift.max(current, now + seconds))
        case .useBackgroundModes(let app, let modes):
            let index = try executingApp(app)
            guard apps[index].declaredModes.isSuperset(of: modes) else {
                throw .undeclaredBackgroundMode(app, used: modes, declared: apps[index].declaredModes)
            }
            useBackgroundModes(modes, index)
        case .userKill(let app):
            let index = try self.index(of: app)
            switch apps[index].state {
            case .notRunning: throw .notRunning(app)
            case .active, .inactive: throw .cannotKillForeground(app)
            case .background:
                callback(index, .willTerminate)
                terminate(index)
            case .suspended:
                terminate(index)
            }
        case .notify(let name):
            for index in apps.indices {
                switch apps[index].state {
                case .notRunning: continue
                case .suspended: enqueueNotification(name, for: index)
                case .active, .inactive, .background:
                    log(.notification(app: apps[cold: index].id, name: name, count: 1))
                }
            }
        case .tick:
            break
        }
    }

    /// The index of `app`, which must be executing (active, inactive or background).
    private func executingApp(_ app: AppID) throws(EngineError) -> Int {
        let index = try index(of: app)
        guard apps[index].state.isExecuting else { throw .notRunning(app) }
        return index
    }

    /// Brings `launch.id` to the foreground: cold launch if not running, warm resume otherwise.
    private func open(_ launch: AppLaunch) throws(EngineError) {
        guard !isLocked else { throw .deviceLocked(action: "open \(launch.id)") }
        let existing = indexByID[launch.id].map(Int.init)
        if let existing, existing == foreground { throw .alreadyForeground(launch.id) }
        let isCold = existing.map { !apps[$0].state.isResident } ?? true
        if isCold { try validate(launch) }
        if existing == nil && !hasRoomForApp { throw .tooManyApps(limit: Self.maximumApps) }
        isInterrupted = false
        if let current = foreground { leaveForeground(current) }
        let index: Int
        if let existing { index = existing } else { index = try register(launch.id) }
        if isCold {
            coldLaunch(index, launch)
        } else {
            warmResume(index)
        }
    }

    private func validate(_ launch: AppLaunch) throws(EngineError) {
        guard launch.footprint.value >= 0, launch.purgeable.value >= 0,
            launch.views.allSatisfy({ $0.bytes.value >= 0 })
        else { throw .negativeSize("footprint of \(launch.id)") }
        let parts = try checkedParts(
            of: launch.id, footprint: launch.footprint, purgeable: launch.purgeable, views: launch.views)
        try checkGrowth(id: launch.id, from: 0, by: launch.footprint.value)
        guard parts <= launch.footprint.value else {
            throw .footprintTooSmall(launch.id, footprint: launch.footprint, viewsAndCaches: Bytes(parts))
        }
    }

    /// Sets the static attributes of app `index` from its launch and classifies it for the policy:
    /// its band in every state, and its memory limits.
    func configure(_ index: Int, backgroundModes: BackgroundModes, oomScoreAdj: Int?, priority: Int?) {
        apps[index].backgroundModes = backgroundModes
        apps[index].declaredModes = backgroundModes
        apps[index].oomScoreAdj =
            oomScoreAdj.map { Int16(clamping: Swift.min(Swift.max($0, -1000), 1000)) } ?? AppRecord.derived
        apps[index].priority = priority.map { Int32(clamping: $0) } ?? AppRecord.noPriority
        apps[index].preference =
            hasPreferences ? Int16(clamping: matcher.preferenceScore(for: apps[cold: index].id)) : 0
        let classified = classification(of: index)
        apps[index].bands = classified.bands
        if classified.hasLimit || apps[index].flags.contains(.hasLimit) {
            withExtras(index) { extras in
                extras.limitActive = classified.limitActive
                extras.limitInactive = classified.limitInactive
                extras.limitIsFatal = classified.limitIsFatal
            }
        }
        apps[index].flags.remove(.isOverLimit)
        if classified.hasLimit { apps[index].flags.insert(.hasLimit) } else { apps[index].flags.remove(.hasLimit) }
        if hasCompression { setCompressibleStates(index, classified.compressibleStates) }
    }

    private func coldLaunch(_ index: Int, _ launch: AppLaunch) {
        noteUse(index)
        if reuse != nil { reuse!.noteLaunch(index, launch) }
        load(launch, into: index, firstViewOnscreen: true)
        apps[cold: index].lastFrontmost = now
        foreground = index
        foregroundIgnored = 0
        setState(index, .inactive)
        charge(index, apps[index].footprint)
        callback(index, .didFinishLaunching)
        if !isInterrupted && !isLocked { becomeActive(index) }
    }

    /// Gives app `index` what `launch` declares — its classification, its flags, its views (all
    /// loaded; the first one onscreen if `firstViewOnscreen`) and the parts of its footprint — for
    /// a cold launch or a prewarm. Its state and the books are the caller's to change.
    func load(_ launch: AppLaunch, into index: Int, firstViewOnscreen: Bool) {
        configure(
            index, backgroundModes: launch.backgroundModes, oomScoreAdj: launch.oomScoreAdj, priority: launch.priority)
        if launch.exitsOnSuspend {
            apps[index].flags.insert(.exitsOnSuspend)
        } else {
            apps[index].flags.remove(.exitsOnSuspend)
        }
        if launch.ignoresWarnings {
            apps[index].flags.insert(.ignoresWarnings)
        } else {
            apps[index].flags.remove(.ignoresWarnings)
        }
        withExtras(index) {
            $0.views = launch.views.enumerated().map { position, view in
                ViewRecord(
                    name: view.name, bytes: view.bytes.value, isLoaded: true,
                    isOnscreen: firstViewOnscreen && position == 0)
            }
        }
        let onscreen = firstViewOnscreen ? launch.views.first?.bytes.value ?? 0 : 0
        let views = launch.views.reduce(0) { $0 + $1.bytes.value }
        apps[index].onscreenView = onscreen
        apps[index].viewCaches = views - onscreen
        apps[index].purgeable = launch.purgeable.value
        apps[index].base = launch.footprint.value - views - launch.purgeable.value
    }

    /// Counts an open of app `index` for the expected-relaunch-cost order: its decayed count of
    /// opens, kept as a logarithm referred to time 0, gains e^(λ·now) (and the prior on its first
    /// launch). Its key moves when its state changes next.
    private func noteUse(_ index: Int) {
        notePredictedOpen(index)
        guard learnsUse else { return }
        let model = policy.relaunch
        let weight = model.decayRate * now
        var log = apps[cold: index].useLog
        if log == -.infinity && model.prior > 0 { log = Math.log(model.prior) + weight }
        apps[cold: index].useLog = Math.logAdd(log, weight)
    }

    private func warmResume(_ index: Int) {
        noteUse(index)
        endPrewarm(index)
        callback(index, .willEnterForeground)
        foreground = index
        foregroundIgnored = 0
        apps[cold: index].lastFrontmost = now
        setState(index, .inactive)
        for pending in extras(index).pendingNotifications {
            log(.notification(app: apps[cold: index].id, name: pending.name, count: pending.count))
        }
        withExtras(index) { $0.pendingNotifications = [] }
        becomeActive(index)
    }

    private func becomeActive(_ index: Int) {
        guard apps[index].state == .inactive else { return }
        setState(index, .active)
        callback(index, .didBecomeActive)
    }

    private func resignActive(_ index: Int) {
        callback(index, .willResignActive)
        setState(index, .inactive)
    }

    /// Home, another app opened, or an answered interruption: the foreground app goes to the
    /// background (or terminates, if it opted out of multitasking).
    private func leaveForeground(_ index: Int) {
        if apps[index].state == .active { resignActive(index) }
        foreground = nil
        foregroundIgnored = 0
        apps[cold: index].lastFrontmost = now
        if apps[index].flags.contains(.exitsOnSuspend) {
            callback(index, .willTerminate)
            terminate(index)
            return
        }
        setState(index, .background)
        let queued = deferredWork.count
        callback(index, .didEnterBackground)
        if deferredWork.count > queued { applyBackgroundRequests(of: index, queuedAfter: queued) }
        suspendIfIdle(index)
    }

    /// Applies at once what app `index`'s `didEnterBackground` handler asked for itself —
    /// `beginBackgroundTask` and `useBackgroundModes` — instead of deferring it to the end of the
    /// mutation: on iOS a handler asks for more background time there, before the system suspends
    /// the app ("Extending your app's background execution time", Apple developer documentation:
    /// call `beginBackgroundTask(withName:expirationHandler:)` from `applicationDidEnterBackground(_:)`).
    /// Other deferred work stays queued. A request that fails joins the deferred failures.
    private func applyBackgroundRequests(of index: Int, queuedAfter start: Int) {
        let id = apps[cold: index].id
        var kept: [DeferredWork] = []
        for work in deferredWork[start...] {
            guard let action = work.action, Self.isBackgroundRequest(action, of: id) else {
                kept.append(work)
                continue
            }
            do throws(EngineError) {
                try perform(action)
            } catch {
                kept.append(DeferredWork(action: action, time: work.time) { _ throws(EngineError) in throw error })
            }
        }
        deferredWork.replaceSubrange(start..., with: kept)
    }

    /// Whether `action` is app `id` asking for background execution time for itself.
    private static func isBackgroundRequest(_ action: Action, of id: AppID) -> Bool {
        switch action {
        case .beginBackgroundTask(let app, _), .useBackgroundModes(let app, _): app == id
        default: false
        }
    }

    /// Sets the background modes app `index` uses now: its band and limits follow (a policy may band
    /// by the mode in use), and a background app left with nothing to do is suspended.
    private func useBackgroundModes(_ modes: BackgroundModes, _ index: Int) {
        if modes != apps[index].backgroundModes {
            let declared = apps[index].declaredModes
            let state = apps[index].state
            let oldBand = apps[index].bands[state]
            let adj = apps[index].oomScoreAdj == AppRecord.derived ? nil : Int(apps[index].oomScoreAdj)
            configure(index, backgroundModes: modes, oomScoreAdj: adj, priority: apps[index].explicitPriority)
            apps[index].declaredModes = declared
            if apps[index].bands[state] != oldBand {
                bandSequence &+= 1
                apps[cold: index].bandEntry = bandSequence
            }
            checkLimit(index)
            syncKillQueue(index)
        }
        suspendIfIdle(index)
    }

    /// Suspends a background app that has no background mode and no running task.
    private func suspendIfIdle(_ index: Int) {
        guard apps[index].state == .background, apps[index].backgroundModes.isEmpty,
            extras(index).taskHandle == nil
        else { return }
        setState(index, .suspended)
    }

    /// Changes the state of app `index`, logs it, and moves it in the kill queue.
    func setState(_ index: Int, _ state: AppState) {
        let old = apps[index].state
        guard old != state else { return }
        let oldBand = old.isResident ? apps[index].bands[old] : BandTable.none
        if !state.isResident { endPrewarm(index) }
        apps[index].state = state
        log(.state(app: apps[cold: index].id, from: old, to: state))
        let newBand = state.isResident ? apps[index].bands[state] : BandTable.none
        if newBand != oldBand {
            bandSequence &+= 1
            apps[cold: index].bandEntry = bandSequence
        }
        checkLimit(index)
        syncKillQueue(index)
        if hasCompression { compressionFollowsState(index, from: old) }
    }

    /// Delivers an app-delegate callback and logs it.
    func callback(_ index: Int, _ name: Event.Callback) {
        log(.callback(app: apps[cold: index].id, name: name, level: nil))
        guard let delegate = delegates[Int32(index)] else { return }
        let id = apps[cold: index].id
        switch name {
        case .didFinishLaunching: delegate.applicationDidFinishLaunching(id)
        case .didBecomeActive: delegate.applicationDidBecomeActive(id)
        case .willResignActive: delegate.applicationWillResignActive(id)
        case .didEnterBackground: delegate.applicationDidEnterBackground(id)
        case .willEnterForeground: delegate.applicationWillEnterForeground(id)
        case .willTerminate: delegate.applicationWillTerminate(id)
        case .didReceiveMemoryWarning: break
        }
    }

    /// Takes app `index` out of memory: its footprint returns to the device, its views and tasks end.
    func terminate(_ index: Int) {
        accountant.charge(-apps[index].footprint)
        if hasCompression { dropFromPool(index, killed: true) }
        apps[index].base = 0
        apps[index].viewCaches = 0
        apps[index].onscreenView = 0
        apps[index].purgeable = 0
        if let handle = extras(index).taskHandle { taskQueue.remove(handle) }
        withExtras(index) { extras in
            extras.views = []
            extras.pendingNotifications = []
            extras.taskHandle = nil
        }
        // Its swap entries are freed with it.
        setSwapAndPageTables(index, swap: 0, pageTables: pageTableBytes(of: index))
        apps[index].flags.remove(.isOverLimit)
        if foreground == index {
            foreground = nil
            foregroundIgnored = 0
        }
        setState(index, .notRunning)
        noteEnded(index)
    }

    /// Charges `delta` bytes to app `index` (whose parts were already changed by the caller).
    @inline(__always)
    func charge(_ index: Int, _ delta: Int64) {
        accountant.charge(delta)
        if apps[index].flags.contains(.hasLimit) { checkLimit(index) }
        footprintChanged(index)
    }

    /// Compares app `index` with the memory limit of its state: over a limit it moves to the
    /// front of the kill order, and over a fatal one it is also queued to be killed at once.
    func checkLimit(_ index: Int) {
        let limit = currentLimit(of: index)
        let isOver = apps[index].state.isResident && limit != 0 && apps[index].footprint > limit
        if isOver && extras(index).limitIsFatal && !limitViolators.contains(index) {
            limitViolators.append(index)
            mayHaveLimitViolators = true
        }
        if isOver != apps[index].flags.contains(.isOverLimit) {
            if isOver { apps[index].flags.insert(.isOverLimit) } else { apps[index].flags.remove(.isOverLimit) }
            syncKillQueue(index)
        }
    }

    private func showView(_ view: String, of index: Int, bytes: Bytes?) throws(EngineError) {
        var views = extras(index).views
        var position = views.firstIndex(where: { $0.name == view })
        if position == nil {
            guard let bytes, bytes.value >= 0 else { throw .unknownView(apps[cold: index].id, view: view) }
            views.append(ViewRecord(name: view, bytes: bytes.value, isLoaded: false, isOnscreen: false))
            position = views.count - 1
        }
        let target = position!
        if !views[target].isLoaded { try checkGrowth(of: index, by: views[target].bytes) }
        if let current = views.firstIndex(where: { $0.isOnscreen }), current != target {
            views[current].isOnscreen = false
            if views[current].isLoaded {
                apps[index].onscreenView -= views[current].bytes
                apps[index].viewCaches += views[current].bytes
            }
        }
        let record = views[target]
        views[target].isLoaded = true
        views[target].isOnscreen = true
        withExtras(index) { $0.views = views }
        if record.isLoaded {
            if !record.isOnscreen {
                apps[index].viewCaches -= record.bytes
                apps[index].onscreenView += record.bytes
            }
        } else {
            apps[index].onscreenView += record.bytes
            charge(index, record.bytes)
            log(.viewCallback(app: apps[cold: index].id, view: view, name: .viewDidLoad))
            viewDelegates[ViewKey(app: Int32(index), view: view)]?.viewDidLoad(view, of: apps[cold: index].id)
        }
    }

    private func enqueueNotification(_ name: String, for index: Int) {
        withExtras(index) { extras in
            if let position = extras.pendingNotifications.firstIndex(where: { $0.name == name }) {
                extras.pendingNotifications[position].count += 1
            } else {
                extras.pendingNotifications.append((name, 1))
            }
        }
    }

    /// Starts or extends the background task of app `index`.
    private func scheduleTask(_ index: Int, expiry: Double) {
        if let handle = extras(index).taskHandle {
            taskQueue.update(handle, to: -expiry)
        } else {
            let handle = taskQueue.insert(-expiry)
            if handle.index >= appByTaskSlot.count {
                appByTaskSlot.append(contentsOf: repeatElement(-1, count: handle.index + 1 - appByTaskSlot.count))
            }
            appByTaskSlot[handle.index] = Int32(index)
            withExtras(index) { $0.taskHandle = handle }
        }
    }

    /// Ends every background task that expires at or before `time`, in expiry order, suspending
    /// apps that have nothing else keeping them in the background.
    func expireBackgroundTasks(through time: Double) {
        while let next = taskQueue.max, -next.priority <= time {
            taskQueue.remove(next.handle)
            let index = Int(appByTaskSlot[next.handle.index])
            withExtras(index) { $0.taskHandle = nil }
            now = Swift.max(now, -next.priority)
            suspendIfIdle(index)
        }
    }
}

extension PressureEngine {
    /// What classifies an app when the policy does not match on names.
    struct ClassificationKey: Hashable {
        var backgroundModes: UInt8
        var oomScoreAdj: Int16
        var priority: Int32

        /// The key in 56 bits (never `UInt64.max`, the empty slot's key).
        var packed: UInt64 {
            UInt64(backgroundModes) << 48 | UInt64(UInt16(bitPattern: oomScoreAdj)) << 32
                | UInt64(UInt32(bitPattern: priority))
        }
    }

    /// An app's bands in every state and the memory limit that applies to it, in plain values:
    /// copying one retains nothing (a tuple holding the policy's ``AppLimit``, with its array of
    /// matches, cost a retain, a release and runtime type metadata per app of a snapshot's load).
    struct Classification {
        var bands = BandTable()
        /// Whether a limit applies; then its active and inactive bytes (0: none) and whether it is fatal.
        var hasLimit = false
        var limitActive: Int64 = 0
        var limitInactive: Int64 = 0
        var limitIsFatal = false
        /// The states in which the app's memory may be compressed (``PolicyMatcher/compressibleStates(for:)``).
        var compressibleStates: UInt8 = 0

        /// - Parameter device: the device the limit's amounts are resolved on.
        init(bands: BandTable, limit: AppLimit?, device: Device, compressibleStates: UInt8 = 0) {
            self.bands = bands
            self.compressibleStates = compressibleStates
            hasLimit = limit != nil
            limitActive = limit?.active?.resolved(on: device).value ?? 0
            limitInactive = limit?.inactive?.resolved(on: device).value ?? 0
            limitIsFatal = limit?.fatal ?? false
        }

        init() {}
    }

    /// One slot of ``classificationSlots``.
    struct ClassificationSlot {
        var key = UInt64.max
        var value = Classification()
    }

    /// The bands of app `index` in every state and the limit that applies to it. Apps that only
    /// differ by id share one classification when the policy never matches names, so a snapshot
    /// of thousands of apps is classified in a handful of policy walks.
    func classification(of index: Int) -> Classification {
        let classify = {
            Classification(
                bands: self.matcher.bandTable { self.subject(of: index, in: $0) },
                limit: self.matcher.limit(for: self.subject(of: index, in: .active)), device: self.device,
                compressibleStates: self.matcher.compressibleStates { self.subject(of: index, in: $0) })
        }
        guard !matcher.matchesNames else { return classify() }
        let key = ClassificationKey(
            backgroundModes: apps[index].backgroundModes.rawValue, oomScoreAdj: apps[index].oomScoreAdj,
            priority: apps[index].priority)
        let packed = key.packed
        let slot = Int(truncatingIfNeeded: (packed &* 0x9E37_79B9_7F4A_7C15) >> 58)
        if classificationSlots[slot].key == packed { return classificationSlots[slot].value }
        let computed: Classification
        if let known = classifications[key] {
            computed = known
        } else {
            computed = classify()
            // Swapped out, changed and swapped back, as the per-slot swap tables are (see
            // setSwapAndPageTables): so no access to the caches is a dynamic exclusivity check.
            var known: [ClassificationKey: Classification] = [:]
            Swift.swap(&known, &classifications)
            known[key] = computed
            Swift.swap(&known, &classifications)
        }
        var slots: [ClassificationSlot] = []
        Swift.swap(&slots, &classificationSlots)
        slots[slot] = ClassificationSlot(key: packed, value: computed)
        Swift.swap(&slots, &classificationSlots)
        return computed
    }

    /// Reserves room for `count` apps, so adding that many does not reallocate.
    ///
    /// - Complexity: O(count)
    public func reserveCapacity(apps count: Int) {
        apps.reserveCapacity(count)
        if !generations.isEmpty { generations.reserveCapacity(count) }
        indexByID.reserveCapacity(count)
        killQueue.reserveCapacity(count)
        appByKillSlot.reserveCapacity(count)
    }
}
