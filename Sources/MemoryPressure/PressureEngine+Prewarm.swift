// Prewarming (Policy.prediction.prewarm, Prewarm): after each open, the engine launches the app
// the prediction finds likeliest to be opened next into the background, if it is not in memory,
// its chance is high enough and free memory stays above the rule's floor.

extension Action {
    /// Whether the action brings an app to the foreground (`launch` or `open`).
    var opensApp: Bool {
        switch self {
        case .launch, .open: true
        default: false
        }
    }
}

extension PressureEngine {
    /// Prewarms the app likeliest to be the user's next open, if the rule allows: among the apps
    /// not in memory that the engine has seen launched (an app that exits on suspend cannot wait
    /// suspended, so it is left out), the one with the highest chance of being the next open —
    /// q(a | f) of the prediction, or ``prewarmChance`` where no band reads the prediction — the
    /// lower slot on a tie.
    ///
    /// - Complexity: O(apps seen launched), for the chance of each.
    func prewarmLikeliestNext() {
        guard let rule = policy.prediction.prewarm, let books = reuse, prewarmedUnopened < rule.unopened else { return }
        let predicts = policy.bands.contains { $0.order == .predictedReuse }
        let round = books.round(at: now)
        // Two variables, not an optional tuple (Swift 6.3's release optimizer has crashed on one).
        var best = -1
        var bestChance = 0.0
        for (slot, launch) in books.launches where !launch.exitsOnSuspend {
            let index = Int(slot)
            guard !apps[index].state.isResident, isLive(index) else { continue }
            let chance =
                predicts ? books.prediction(of: index, in: round).next : prewarmChance?(apps[cold: index].id, now) ?? 0
            if chance > bestChance || (chance == bestChance && index < best) {
                best = index
                bestChance = chance
            }
        }
        guard best >= 0, bestChance >= rule.chance, let launch = books.launches[Int32(truncatingIfNeeded: best)] else {
            return
        }
        let floor = rule.freeAbove.resolved(against: accountant.device.usable).value
        guard accountant.free.value - launch.footprint.value >= floor,
            (try? checkGrowth(id: apps[cold: best].id, from: 0, by: launch.footprint.value)) != nil
        else { return }
        prewarm(best, launch)
    }

    /// Launches app `index` as `launch` did, into the background, and suspends it: its views are
    /// loaded offscreen, no callback is delivered, no open is counted, and it has not been
    /// frontmost since it last was.
    private func prewarm(_ index: Int, _ launch: AppLaunch) {
        // Apps that exit on suspend are never chosen, so the launch's flags hold as they are.
        load(launch, into: index, firstViewOnscreen: false)
        log(.prewarm(app: apps[cold: index].id, bytes: launch.footprint))
        setState(index, .suspended)
        apps[index].flags.insert(.prewarmed)
        prewarmedUnopened += 1
        charge(index, apps[index].footprint)
    }

    /// App `index` is no longer a prewarmed app waiting unopened: the user opened it, or it left
    /// memory.
    @inline(__always)
    func endPrewarm(_ index: Int) {
        guard apps[index].flags.contains(.prewarmed) else { return }
        apps[index].flags.remove(.prewarmed)
        prewarmedUnopened -= 1
    }

    /// What is wrong with the prewarm count, if anything (for ``_invariantViolation()``).
    ///
    /// - Complexity: O(apps)
    func prewarmInvariantViolation() -> String? {
        let counted = apps.indices.filter { apps[$0].flags.contains(.prewarmed) }
        if counted.count != prewarmedUnopened {
            return "prewarm: \(counted.count) apps flagged, \(prewarmedUnopened) counted"
        }
        if let index = counted.first(where: { apps[$0].state != .suspended && apps[$0].state != .background }) {
            return "prewarm: \(apps[cold: index].id) is flagged but \(apps[index].state)"
        }
        return nil
    }
}
