import MemoryPressure

// How each action and event of the engine becomes allocations, frees, purges and resets in the
// apps' arenas. Actions change memory before the engine evaluates pressure, so an action's own
// effect is mirrored first, then its events in log order.

extension RealMemoryHost {
    /// Mirrors the direct memory effect of `action` (the engine has accepted it): allocations,
    /// frees, and which view is onscreen.
    func mirror(_ action: Action) throws(RealMemoryError) {
        switch action {
        case .allocate(let app, let bytes, let purgeable):
            let mirror = try existingMirror(of: app, step: "allocate")
            let part = try allocate(
                bytes.value, kind: purgeable ? .purgeableCache : .base, label: nil, in: mirror, app: app)
            if purgeable { mirror.purgeable.append(part) } else { mirror.base.append(part) }
        case .free(let app, let bytes, let purgeable):
            let mirror = try existingMirror(of: app, step: "free")
            try checkHolds(
                bytes.value, purgeable: purgeable, in: mirror, app: app, step: "free of \(bytes.value) bytes")
            do {
                _ = try free(bytes.value, fromPurgeable: purgeable, of: mirror)
                if configuration.pageReturn.purgesExplicitly { try mirror.memory.purge() }
            } catch {
                throw .jemalloc(error, app: app)
            }
        case .showView(let app, let view, let bytes):
            let mirror = try existingMirror(of: app, step: "showView")
            if mirror.viewBytes[view] == nil, let bytes { mirror.viewBytes[view] = bytes.value }
            mirror.onscreenView = view
        case .hideView(let app, let view):
            let mirror = try existingMirror(of: app, step: "hideView")
            if mirror.onscreenView == view { mirror.onscreenView = nil }
        case .launch, .open, .home, .interrupt, .interruptEnd, .lock, .unlock, .beginBackgroundTask,
            .useBackgroundModes, .userKill, .notify, .tick:
            break
        }
    }

    /// Mirrors one event caused by `action` at `time`.
    func mirror(_ event: Event, of action: Action, at time: Double) throws(RealMemoryError) {
        switch event.kind {
        case .callback(let app, .didFinishLaunching, _):
            try coldLaunch(app, of: action)
        case .viewCallback(let app, let view, .viewDidLoad):
            try loadView(view, of: app)
        case .viewCallback(let app, let view, .viewDidUnload):
            try unloadView(view, of: app)
        case .purge(let app, let what, let freed):
            try purge(what, of: app, freed: freed, at: time)
        case .kill(let app, _, _, _, let freed):
            try kill(app, freed: freed, at: time)
        case .state(let app, _, .notRunning):
            try terminate(app)
        case .callback, .viewCallback, .state, .level, .notification, .compress, .decompress, .freeze, .thaw, .prewarm,
            .writeback, .pressure:
            // A policy with compression or prewarming is refused by RealMemoryHost: nothing to mirror.
            break
        }
    }

    /// A cold launch of `app`: allocates its base memory, its views (all loaded, the first one
    /// onscreen) and its purgeable caches, as the launch in `action` declares them.
    private func coldLaunch(_ app: AppID, of action: Action) throws(RealMemoryError) {
        let launch: AppLaunch
        switch action {
        case .launch(let given) where given.id == app, .open(let given) where given.id == app:
            launch = given
        default:
            let footprint = Bytes(engine.status(of: app)?.footprint.value ?? 0)
            throw .outOfSync(app: app, step: "didFinishLaunching without a launch", engine: footprint, mirrored: .zero)
        }
        let mirror = try mirrorCreatingArena(for: app)
        guard mirror.memory.allocationCount == 0 else {
            throw .outOfSync(
                app: app, step: "cold launch", engine: .zero, mirrored: Bytes(mirror.engineFootprint))
        }
        let views = launch.views.reduce(0) { $0 + $1.bytes.value }
        let base = launch.footprint.value - views - launch.purgeable.value
        mirror.base.append(try allocate(base, kind: .base, label: nil, in: mirror, app: app))
        for view in launch.views {
            mirror.viewBytes[view.name] = view.bytes.value
            mirror.loadedViews[view.name] = try allocate(
                view.bytes.value, kind: .viewCache, label: AppMemoryMirror.label(ofView: view.name), in: mirror,
                app: app)
        }
        mirror.onscreenView = launch.views.first?.name
        mirror.purgeable.append(
            try allocate(launch.purgeable.value, kind: .purgeableCache, label: nil, in: mirror, app: app))
    }

    /// `viewDidLoad`: allocates the view again.
    private func loadView(_ view: String, of app: AppID) throws(RealMemoryError) {
        let mirror = try existingMirror(of: app, step: "viewDidLoad")
        guard
            let bytes = mirror.viewBytes[view]
                ?? engine.status(of: app)?.views.first(where: { $0.name == view })?.bytes.value
        else {
            throw .outOfSync(app: app, step: "viewDidLoad of unknown view \(view)", engine: .zero, mirrored: .zero)
        }
        guard mirror.loadedViews[view] == nil else {
            throw .outOfSync(
                app: app, step: "viewDidLoad of view \(view), already loaded", engine: .zero, mirrored: .zero)
        }
        mirror.viewBytes[view] = bytes
        mirror.loadedViews[view] = try allocate(
            bytes, kind: .viewCache, label: AppMemoryMirror.label(ofView: view), in: mirror, app: app)
    }

    /// `viewDidUnload`: the view's allocation waits for the purge event that follows, which frees
    /// the views it counts together.
    private func unloadView(_ view: String, of app: AppID) throws(RealMemoryError) {
        let mirror = try existingMirror(of: app, step: "viewDidUnload")
        guard let part = mirror.loadedViews.removeValue(forKey: view) else {
            throw .outOfSync(
                app: app, step: "viewDidUnload of view \(view), not loaded", engine: .zero, mirrored: .zero)
        }
        mirror.unloadedViews.append(part)
    }

    /// A purge: frees exactly what the engine released (the views it unloaded, the suspended
    /// app's offscreen views, its purgeable caches, or base bytes its handlers gave back),
    /// returns the pages, and records expected against measured bytes.
    private func purge(_ what: Event.PurgeKind, of app: AppID, freed: Bytes, at time: Double) throws(RealMemoryError) {
        let mirror = try existingMirror(of: app, step: "purge \(what.rawValue)")
        let step = "purge \(what.rawValue) of \(freed.value) bytes"
        var parts: [AppMemoryMirror.Part] = []
        switch what {
        case .offscreenViews:
            parts = mirror.unloadedViews
            mirror.unloadedViews = []
        case .suspendedOffscreenViews:
            // No callbacks name them: the system drops every loaded view but the onscreen one.
            for name in mirror.loadedViews.keys.sorted() where name != mirror.onscreenView {
                parts.append(mirror.loadedViews.removeValue(forKey: name)!)
            }
        case .purgeableCaches:
            parts = mirror.purgeable
            mirror.purgeable = []
        case .handlerReleased:
            break
        }
        let mirrored = parts.reduce(0) { $0 + $1.engineBytes }
        if what != .handlerReleased && mirrored != freed.value {
            throw .outOfSync(app: app, step: step, engine: freed, mirrored: Bytes(mirrored))
        }
        if what == .handlerReleased {
            try checkHolds(freed.value, purgeable: false, in: mirror, app: app, step: step)
        }
        var allowance = parts.reduce(Bytes.zero) { $0 + pageAllowance(for: $1.allocation.size) }
        let release: MemoryRelease
        do {
            release = try mirror.memory.measuringRelease(purging: configuration.pageReturn.purgesExplicitly) {
                () throws(JemallocError) -> Bytes in
                var real = Bytes.zero
                for part in parts { real += try mirror.memory.free(part.allocation) }
                if what == .handlerReleased {
                    let released = try free(freed.value, fromPurgeable: false, of: mirror)
                    allowance += released.allowance
                    real += released.real
                }
                return real
            }
        } catch {
            throw .jemalloc(error, app: app)
        }
        record(
            time: time, app: app, cause: .purge(what), engineFreed: freed, measured: release.measured,
            allowance: allowance)
    }

    /// A kill: resets the app's arena and records expected against measured bytes.
    private func kill(_ app: AppID, freed: Bytes, at time: Double) throws(RealMemoryError) {
        let mirror = try existingMirror(of: app, step: "kill")
        let mirrored = mirror.engineFootprint
        guard mirrored == freed.value else {
            throw .outOfSync(
                app: app, step: "kill freeing \(freed.value) bytes", engine: freed, mirrored: Bytes(mirrored))
        }
        let allowance = mirror.memory.allocations.reduce(Bytes.zero) { $0 + pageAllowance(for: $1.size) }
        let release: MemoryRelease
        do {
            release = try mirror.memory.reset()
        } catch {
            throw .jemalloc(error, app: app)
        }
        mirror.clear()
        record(time: time, app: app, cause: .kill, engineFreed: freed, measured: release.measured, allowance: allowance)
    }

    /// The app left memory (a kill already handled, a user kill, an exit on suspend): resets its
    /// arena if anything is left in it.
    private func terminate(_ app: AppID) throws(RealMemoryError) {
        guard let mirror = mirrors[app], mirror.memory.allocationCount > 0 || !mirror.viewBytes.isEmpty else { return }
        do {
            try mirror.memory.reset()
        } catch {
            throw .jemalloc(error, app: app)
        }
        mirror.clear()
    }

    /// Records one kill or purge.
    private func record(
        time: Double, app: AppID, cause: MeasuredRelease.Cause, engineFreed: Bytes, measured: Bytes, allowance: Bytes
    ) {
        report.releases.append(
            MeasuredRelease(
                time: time, app: app, cause: cause, engineFreed: engineFreed,
                expected: configuration.scaled(engineFreed.value), measured: measured, pageAllowance: allowance))
    }

    /// Checks that the host's allocations for each of `apps` stand for exactly the engine's
    /// footprint, and, if the configuration says so, notes their arenas' measured footprints
    /// against it (one statistics refresh for all of them).
    func compareFootprints(of apps: [AppID], after action: Action) throws(RealMemoryError) {
        var compared: [(app: AppID, mirror: AppMemoryMirror, engine: Bytes)] = []
        for app in apps {
            guard let mirror = mirrors[app] else { continue }
            let engineFootprint = engine.status(of: app)?.footprint ?? .zero
            guard mirror.engineFootprint == engineFootprint.value else {
                throw .outOfSync(
                    app: app, step: "\(action)", engine: engineFootprint, mirrored: Bytes(mirror.engineFootprint))
            }
            compared.append((app, mirror, engineFootprint))
        }
        guard configuration.readsFootprints, !compared.isEmpty else { return }
        do throws(MallctlError) {
            try JemallocCalls.refreshStatistics()
        } catch {
            throw .jemalloc(.control(error), app: nil)
        }
        for (app, mirror, engineFootprint) in compared {
            let measured: Bytes
            do throws(MallctlError) {
                measured = try ArenaStatistics.readWithoutRefresh(arena: mirror.memory.arena.index).resident
            } catch {
                throw .jemalloc(.control(error), app: app)
            }
            report.noteFootprint(measured: measured, expected: configuration.scaled(engineFootprint.value))
        }
    }

    /// The app an event concerns, if any.
    static func app(of event: Event) -> AppID? {
        switch event.kind {
        case .callback(let app, _, _), .viewCallback(let app, _, _), .state(let app, _, _), .purge(let app, _, _),
            .kill(let app, _, _, _, _), .notification(let app, _, _), .compress(let app, _, _, _, _),
            .decompress(let app, _, _, _, _), .freeze(let app, _, _), .thaw(let app, _, _), .prewarm(let app, _),
            .writeback(let app, _, _):
            return app
        case .level, .pressure: return nil
        }
    }
}
