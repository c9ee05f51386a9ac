// Pressure levels, memory warnings and purges (docs/DESIGN.md, "Memory, warnings and purging").

extension PressureEngine {
    /// The level free memory gives when the current level is `current` (hysteresis: a level is
    /// kept until free memory rises above its clear threshold).
    ///
    /// - Complexity: O(1)
    func targetLevel(free: Int64, current: PressureLevel) -> PressureLevel {
        for level in [PressureLevel.critical, .urgent, .warning] where swapAllows(level) {
            if free < enterBelow[level.rawValue] { return level }
            if level <= current && free <= clearAbove[level.rawValue] { return level }
        }
        return .normal
    }

    /// Whether free swap allows `level` (earlyoom's `lowmem_sig()` needs free swap at or below
    /// its limit too; a level without a swap condition, or a device without swap, always allows).
    ///
    /// - Complexity: O(1)
    @inline(__always)
    func swapAllows(_ level: PressureLevel) -> Bool {
        !hasSwapConditions || swapFreeBytes < swapBelow[level.rawValue]
    }

    /// Free swap in bytes: all the swap (``swapTotal``) minus the apps' swap entries, what zram (or
    /// the policy's swap file) holds, and the swap used outside them, never negative.
    var swapFreeBytes: Int64 {
        Swift.max(swapTotal &- appSwap &- unattributedSwap &- poolSwapHeld, 0)
    }

    /// Free swap: all the swap — the device's, plus the size of the policy's zram or swap file —
    /// minus the resident apps' swap entries, what that pool holds, and the swap used outside them
    /// (see ``setSwapFree(_:)``).
    ///
    /// - Complexity: O(1)
    public var swapFree: Bytes { Bytes(swapFreeBytes) }

    /// Records a reading of free swap (a live source's `SwapFree`): the swap not held by the
    /// resident apps' own entries is taken as used outside them. Pressure is not evaluated
    /// (call ``refreshPressure(at:)``).
    ///
    /// - Complexity: O(1)
    public func setSwapFree(_ bytes: Bytes) {
        if mutationDepth > 0 {
            deferredWork.append(
                DeferredWork(action: nil, time: now) { engine throws(EngineError) in engine.setSwapFreeNow(bytes) })
            return
        }
        setSwapFreeNow(bytes)
    }

    /// ``setSwapFree(_:)``'s work, at once.
    func setSwapFreeNow(_ bytes: Bytes) {
        unattributedSwap = Swift.max(swapTotal &- bytes.value &- appSwap &- poolSwapHeld, 0)
        updateLevelBounds()
    }

    /// Raises the level one used level at a time (warning and purging at each), kills if the policy's
    /// kill level is reached and free memory is below its target, then lowers the level as far
    /// as free memory allows.
    func evaluatePressure() {
        // The common case, on every footprint change: nothing to do at this level.
        guard needsPressureEvaluation else { return }
        defer { updateLevelBounds() }
        killLimitViolators()
        let freeBeforeReclaim = accountant.free.value
        if hasCompression {
            lastReclaimSeconds = 0
            reclaimByCompression()
            killForCompressorSpace()
            killForCompressorThrashing()
        }
        noteMemoryPressureReclaim(freeBeforeReclaim: freeBeforeReclaim)
        while true {
            let target = targetLevel(free: accountant.free.value, current: level)
            guard target > level else { break }
            // The next level up that the policy uses (levels without a threshold are skipped).
            var next = PressureLevel(rawValue: level.rawValue + 1)!
            while next < target && policy.thresholds[next] == nil { next = PressureLevel(rawValue: next.rawValue + 1)! }
            log(.level(from: level, to: next, free: accountant.free))
            level = next
            warnAndPurge(at: next)
        }
        if hasPressureStall {
            // lmkd's PSI mode: its own rules decide the kills, not the levels.
            pressureStallKills(freeBeforeReclaim: freeBeforeReclaim)
        } else if (level >= policy.kills.startLevel && accountant.free.value < killTarget)
            || accountant.free.value < bandKillTrigger
        {
            killUntilTarget()
        }
        let lowered = targetLevel(free: accountant.free.value, current: level)
        if lowered < level {
            log(.level(from: level, to: lowered, free: accountant.free))
            level = lowered
            if lowered == .normal { foregroundIgnored = 0 }
        }
    }

    /// Whether free memory left the bounds of the current level, a kill is due, or an app crossed
    /// a fatal limit: two comparisons in the common case.
    @inline(__always)
    var needsPressureEvaluation: Bool {
        let free = accountant.free.value
        return mayHaveLimitViolators || free < evaluateBelow || free > fallAbove
            || (hasCompression && (compressionIsDue || compressorIsShort || compressorIsThrashing))
            || pressureStallNeedsEvaluation
    }

    /// Recomputes the free-memory bounds of the current level: below ``evaluateBelow`` a higher
    /// level may be entered (or a kill is due), above ``fallAbove`` the level is left.
    /// A level whose free-swap condition fails cannot be entered, and the current level is left
    /// at the next check if its condition fails.
    func updateLevelBounds() {
        var rise = Int64.min
        for candidate in PressureLevel.allCases where candidate > level && swapAllows(candidate) {
            rise = Swift.max(rise, enterBelow[candidate.rawValue])
        }
        fallAbove = level == .normal ? .max : (swapAllows(level) ? clearAbove[level.rawValue] : .min)
        evaluateBelow = Swift.max(rise, bandKillTrigger, level >= policy.kills.startLevel ? killTarget : .min)
    }

    /// Delivers the warning of `level` to the policy's audience, in a fixed order (the foreground
    /// app first, then the others as they first appeared), applies the level's purges, and lets
    /// the system drop suspended apps' offscreen views if the policy says so.
    private func warnAndPurge(at level: PressureLevel) {
        let actions = policy.purges[level] ?? []
        if let warningLevel = level.warningLevel, let audience = policy.warnings[level], audience != .none {
            if let front = foreground, audience.includes(apps[front].state) {
                warn(front, level: warningLevel, actions: actions)
            }
            for index in apps.indices where index != foreground && audience.includes(apps[index].state) {
                warn(index, level: warningLevel, actions: actions)
            }
        }
        if actions.contains(.suspendedOffscreenViews) {
            for index in apps.indices where apps[index].state == .suspended && apps[index].viewCaches > 0 {
                let freed = releaseOffscreenViews(index, callbacks: false, level: 0)
                log(.purge(app: apps[cold: index].id, what: .suspendedOffscreenViews, freed: Bytes(freed)))
            }
        }
    }

    /// Warns app `index`: its delegate, its observers, then each view controller; then releases
    /// what the app's answers and the policy allow, logging one purge event per kind of memory.
    private func warn(_ index: Int, level: Int, actions: PurgeActions) {
        let id = apps[cold: index].id
        log(.callback(app: id, name: .didReceiveMemoryWarning, level: level))
        var extra: Int64 = 0
        var complies = !apps[index].flags.contains(.ignoresWarnings)
        if let delegate = delegates[Int32(index)] {
            switch delegate.applicationDidReceiveMemoryWarning(id, level: level) {
            case .comply: complies = true
            case .releaseMore(let bytes): complies = true; extra += Swift.max(bytes.value, 0)
            case .ignore: complies = false
            }
        }
        for observer in observers[Int32(index)] ?? [] {
            if case .releaseMore(let bytes) = observer.handler(level) { extra += Swift.max(bytes.value, 0) }
        }
        if index == foreground && !complies { foregroundIgnored |= level == 1 ? 0b01 : 0b10 }

        var viewsFreed: Int64 = 0
        if complies && actions.contains(.offscreenViews) {
            viewsFreed = releaseOffscreenViews(index, callbacks: true, level: level)
        } else {
            for view in extras(index).views {
                log(.viewCallback(app: id, view: view.name, name: .didReceiveMemoryWarning))
            }
        }
        if viewsFreed > 0 { log(.purge(app: id, what: .offscreenViews, freed: Bytes(viewsFreed))) }
        if complies && actions.contains(.purgeableCaches) && apps[index].purgeable > 0 {
            let freed = apps[index].purgeable
            apps[index].purgeable = 0
            charge(index, -freed)
            log(.purge(app: id, what: .purgeableCaches, freed: Bytes(freed)))
        }
        if complies && extra > 0 {
            let freed = Swift.min(extra, apps[index].base)
            apps[index].base -= freed
            charge(index, -freed)
            if freed > 0 { log(.purge(app: id, what: .handlerReleased, freed: Bytes(freed))) }
        }
    }

    /// Releases the loaded offscreen views of app `index` and returns the bytes freed. With
    /// `callbacks`, each view controller first gets `didReceiveMemoryWarning` and may keep its view;
    /// released ones get `viewDidUnload`. Without, the system drops them silently.
    private func releaseOffscreenViews(_ index: Int, callbacks: Bool, level: Int) -> Int64 {
        let id = apps[cold: index].id
        var freed: Int64 = 0
        var views = extras(index).views
        defer { withExtras(index) { $0.views = views } }
        for position in views.indices {
            let view = views[position]
            var release = view.isLoaded && !view.isOnscreen
            if callbacks {
                log(.viewCallback(app: id, view: view.name, name: .didReceiveMemoryWarning))
                if let delegate = viewDelegates[ViewKey(app: Int32(index), view: view.name)],
                    case .ignore = delegate.didReceiveMemoryWarning(view.name, of: id, level: level)
                {
                    release = false
                }
            }
            guard release else { continue }
            views[position].isLoaded = false
            apps[index].viewCaches -= view.bytes
            freed += view.bytes
            if callbacks {
                log(.viewCallback(app: id, view: view.name, name: .viewDidUnload))
                viewDelegates[ViewKey(app: Int32(index), view: view.name)]?.viewDidUnload(view.name, of: id)
            }
        }
        if freed > 0 { charge(index, -freed) }
        return freed
    }

    /// Kills victims in kill-queue order while some band may still kill, or until no killable app
    /// is left. A band with its own start point (``Band/killBelow``) kills while free memory is
    /// below it, and, once it has killed, until free memory reaches its stop point; the other
    /// bands kill while the level is at or above the kill rule's start level (with its free-swap
    /// condition, if any) and free memory is below the rule's target. Passed over, and left
    /// alive: a foreground app that has not ignored both warnings (when the policy says so), apps
    /// whose band is killable only at a higher level than the current one, apps whose band
    /// may not kill at this free memory, and apps at or under their band's swap floor
    /// (`Band.minimumSwapPercent`).
    private func killUntilTarget() {
        var passedOver: [Int] = []
        var started = [Bool](repeating: false, count: policy.bands.count)
        while var victim = nextVictim() {
            let free = accountant.free.value
            let ruleKills =
                level >= policy.kills.startLevel && free < killTarget
                && (!hasSwapConditions || targetLevel(free: free, current: level) >= policy.kills.startLevel)
            var index = victim.index
            var bandIndex = Int(apps[index].bands[apps[index].state])
            // Stop as soon as no band that still holds apps may kill at this free memory: the
            // queue holds bands in order, so below an app that is not over its limit only its own
            // band and later ones are left.
            var anyBand = false
            let firstBand = apps[index].flags.contains(.isOverLimit) ? 0 : bandIndex
            for band in firstBand..<bandKillBelow.count {
                if bandKillBelow[band] == .min ? ruleKills : bandMayKill(band, free: free, started: started[band]) {
                    anyBand = true
                    break
                }
            }
            guard anyBand else { break }
            // Bands ordered by the clock are re-scored only when a victim is about to be chosen.
            if hasDynamicBands {
                rescoreDynamicBands()
                guard let rescored = nextVictim() else { break }
                victim = rescored
                index = victim.index
                bandIndex = Int(apps[index].bands[apps[index].state])
            }
            let band = policy.bands[bandIndex]
            let bandKills =
                bandKillBelow[bandIndex] == .min
                ? ruleKills && !(band.killableFrom.map { level < $0 } ?? false)
                : bandMayKill(bandIndex, free: free, started: started[bandIndex])
            let spared =
                !bandKills || swapUsage(of: index) <= bandSwapFloor[bandIndex]
                || (apps[index].state.isForeground && policy.kills.foregroundNeedsIgnoredWarnings
                    && foregroundIgnored != 0b11)
            if spared {
                killQueue.remove(victim.handle)
                apps[index].killHandle = nil
                passedOver.append(index)
                continue
            }
            started[bandIndex] = true
            kill(index)
        }
        for index in passedOver { syncKillQueue(index) }
    }

    /// Whether band `band`, which has its own start point, may kill at `free`: below its start
    /// point, or below its stop point once it has `started` killing.
    @inline(__always)
    private func bandMayKill(_ band: Int, free: Int64, started: Bool) -> Bool {
        free < bandKillBelow[band] || (started && free < bandKillUntil[band])
    }

    /// Kills every app that crossed a fatal memory limit during the action and is still over it.
    private func killLimitViolators() {
        guard mayHaveLimitViolators else { return }
        mayHaveLimitViolators = false
        guard !limitViolators.isEmpty else { return }
        let violators = limitViolators
        limitViolators = []
        for index in violators where apps[index].flags.contains(.isOverLimit) && apps[index].killHandle != nil {
            kill(index)
        }
    }

    /// Kills while the compressed pool is past its shortage line (XNU's
    /// `memorystatus_kill_on_VM_compressor_space_shortage()`), in kill-queue order, whatever free
    /// memory is; the foreground app is left alive. Each reason starts with
    /// ``MemoryCompression/shortageReason``.
    private func killForCompressorSpace() {
        guard compressorIsShort else { return }
        killReasonPrefix = MemoryCompression.shortageReason
        defer { killReasonPrefix = nil }
        while compressorIsShort, let victim = chooseVictim(), !apps[victim.index].state.isForeground {
            kill(victim.index)
        }
    }

    /// Kills once for compressor thrashing (XNU's `memorystatus_kill_on_VM_compressor_thrashing()`,
    /// then `vm_thrashing_jetsam_done()`): the first app in kill-queue order unless it is the
    /// foreground app. The reason starts with ``MemoryCompression/thrashingReason``.
    private func killForCompressorThrashing() {
        guard compressorIsThrashing else { return }
        compression!.thrashingDetected = false
        guard let victim = chooseVictim(), !apps[victim.index].state.isForeground else { return }
        killReasonPrefix = MemoryCompression.thrashingReason
        defer { killReasonPrefix = nil }
        kill(victim.index)
    }

    /// Kills app `index`, logging the reason and the bytes freed; an executing app gets `willTerminate`.
    /// The notice is the one of the level memory is at for this kill, read again after the kills
    /// before it (earlyoom's `poll_loop()` asks `lowmem_sig()` before every kill: a SIGKILL that
    /// brings available memory back above the SIGKILL line, but not above the SIGTERM line, makes
    /// the next victim's signal SIGTERM); a policy with hysteresis keeps its level until it clears.
    func kill(_ index: Int, reason: String? = nil) {
        let app = apps[index]
        let notice = notice(forKilling: app.state, at: targetLevel(free: accountant.free.value, current: level))
        log(
            .kill(
                app: apps[cold: index].id, state: app.state,
                reason: reason ?? killReasonPrefix.map { "\($0): \(self.reason(forKilling: index))" }
                    ?? self.reason(forKilling: index),
                notice: notice,
                freed: Bytes(app.footprint &+ storedBytes(of: index))))
        if notice == .willTerminate && app.state.isExecuting { callback(index, .willTerminate) }
        terminate(index)
    }
}
