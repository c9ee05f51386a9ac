// The kill-order report: who would die next, in order, and why — read without changing anything.

/// One row of a kill order: who would die at this rank, and why.
public struct KillCandidate: Sendable, Hashable {
    /// 1 for the next victim.
    public var rank: Int
    /// The app.
    public var app: AppID
    /// Its state.
    public var state: AppState
    /// The policy band it is in.
    public var band: String
    /// Its footprint.
    public var footprint: Bytes
    /// What it would be told.
    public var notice: Event.KillNotice
    /// Why it is at this rank, in words a person understands.
    public var reason: String
    /// The packed key that ordered it (band rank, order value, tie-breaker).
    public var key: UInt64
}

extension PressureEngine {
    /// The next `limit` victims, in order, read from the kill queue's non-mutating top-k walk
    /// (no sorting, no copy of the queue). Apps with equal keys are ordered by their band's tie
    /// rule (``TieRule``), exactly as kills would take them.
    ///
    /// - Complexity: O(limit × log limit), independent of the number of apps (plus O(g log g) for
    ///   g apps whose keys tie with the last row shown).
    public func killOrder(limit: Int) -> [KillCandidate] {
        let wanted = Swift.max(limit, 0)
        // Keys that depend on the clock are brought up to date, unless a callback asks in the middle
        // of a mutation (it then sees the keys of the last victim choice).
        if reuse != nil && mutationDepth == 0 { rescoreDynamicBands() }
        // One row more than wanted, so that a tie with the first row left out is still seen; more
        // while the last row fetched still ties with the one before it.
        var fetched = wanted < Int.max ? wanted + 1 : wanted
        var entries: [(index: Int, key: UInt64)] = []
        while true {
            entries = []
            entries.reserveCapacity(Swift.min(fetched, killQueue.count))
            killQueue.forEachTop(fetched) { handle, key in entries.append((Int(appByKillSlot[handle.index]), key)) }
            guard entries.count == fetched, fetched < Int.max / 2, entries.count >= 2,
                entries[entries.count - 1].key >> 20 == entries[entries.count - 2].key >> 20
            else { break }
            let last = entries[entries.count - 1].index
            guard bandInfo[Int(apps[last].bands[apps[last].state])].resolvesTiesOnRead else { break }
            fetched *= 2
        }
        // Runs of equal keys (but for the tie-breaker) in bands that order ties on read.
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count && entries[end].key >> 20 == entries[start].key >> 20 { end += 1 }
            let index = entries[start].index
            if end - start > 1 && bandInfo[Int(apps[index].bands[apps[index].state])].resolvesTiesOnRead {
                entries[start..<end].sort { precedesInTie($0.index, $1.index) }
            }
            start = end
        }
        var rows: [KillCandidate] = []
        var scores: [Int?] = []
        rows.reserveCapacity(entries.count)
        for (index, key) in entries {
            let app = apps[index]
            let band = policy.bands[Int(app.bands[app.state])]
            scores.append(band.order == .oomScore ? oomScore(of: index) : nil)
            rows.append(
                KillCandidate(
                    rank: rows.count + 1, app: apps[cold: index].id, state: app.state, band: band.name,
                    footprint: Bytes(app.footprint), notice: notice(forKilling: app.state),
                    reason: reason(forKilling: index), key: key))
        }
        // earlyoom breaks ties on oom_score by the larger RSS: say so where it happened.
        for position in rows.indices {
            guard let score = scores[position] else { continue }
            let tiedBefore = position > 0 && scores[position - 1] == score
            let tiedAfter = position + 1 < rows.count && scores[position + 1] == score
            if tiedBefore || tiedAfter { rows[position].reason += ", largest RSS among ties" }
        }
        if rows.count > wanted { rows.removeLast(rows.count - wanted) }
        return rows
    }

    /// Resident apps the policy never kills, with the reason, in the order they appeared.
    ///
    /// - Complexity: O(n)
    public func protectedApps() -> [(app: AppID, reason: String)] {
        apps.indices.compactMap { index in
            let app = apps[index]
            guard app.state.isResident, app.bands[app.state] == BandTable.none else { return nil }
            let reason =
                matcher.protection(for: subject(of: index, in: app.state), state: app.state)?.reason
                ?? "matches no kill band of policy \(policy.name)"
            return (apps[cold: index].id, reason)
        }
    }

    /// What an app in `state` is told when it is killed at `current` (by default the current
    /// level, or the level free memory alone is at if higher).
    func notice(forKilling state: AppState, at current: PressureLevel? = nil) -> Event.KillNotice {
        if !policy.kills.notices.isEmpty {
            // The notice of the level, or, when no kill would happen at this level, the notice a
            // kill would carry at the level kills start.
            let current = current ?? Swift.max(level, levelForFreeMemory)
            return policy.kills.notices[current] ?? policy.kills.notices[policy.kills.startLevel] ?? .none
        }
        return state == .background ? .willTerminate : .none
    }

    /// Why app `index` is in the kill order where it is: its band's reason, with the figure that
    /// ordered it when the band is not ordered by size alone.
    func reason(forKilling index: Int) -> String {
        let app = apps[index]
        let band = policy.bands[Int(app.bands[app.state])]
        if app.flags.contains(.isOverLimit) {
            let which = app.state.isExecuting ? "active" : "inactive"
            let kind = extras(index).limitIsFatal ? "fatal" : "soft"
            return "over its \(which) memory limit of \(Bytes(currentLimit(of: index)).formatted) (\(kind))"
        }
        var reason = band.reason
        switch band.order {
        case .largestFirst, .firstInFirstOut:
            break
        case .leastRecentlyUsed:
            reason += " (frontmost \(Event.number(((now - apps[cold: index].lastFrontmost) * 10).rounded() / 10))s ago)"
        case .badness:
            reason += ": \(badnessPages(of: index)) pages"
        case .oomScore:
            reason = "oom_score \(oomScore(of: index))"
        case .swapUsage:
            reason += ": \(Bytes(swapUsage(of: index)).formatted) in swap"
        case .expectedRelaunchCost:
            let model = policy.relaunch
            let uses = Math.exp(apps[cold: index].useLog - model.decayRate * now)
            let cost = model.relaunchSeconds(footprint: app.footprint)
            reason += " (recent opens \(Event.number((uses * 100).rounded() / 100)), relaunch costs "
            reason += "\(Event.number((cost * 100).rounded() / 100)) s)"
        case .predictedReuse:
            reason += predictionReason(of: index)
        case .externalScore:
            reason += " (score \(Event.number(((externalScores[index] ?? 0) * 100).rounded() / 100)))"
        }
        if band.slotsByOomScoreAdj {
            reason += " (oom_score_adj \(effectiveOomScoreAdj(of: index, in: app.state)))"
        } else if band.slotsByPriority {
            reason += " (priority \(effectivePriority(of: index, in: app.state)))"
        }
        // Only a band stricter than the kill rule says so (a killableFrom equal to the start level,
        // as `policy show` writes it out, is no restriction of its own).
        if let from = band.killableFrom, from > policy.kills.startLevel, Swift.max(level, levelForFreeMemory) < from {
            reason += "; killable only at \(from.name) pressure"
        }
        // A band with a swap floor says so for an app at or under it (systemd-oomd skips it).
        let floor = bandSwapFloor[Int(app.bands[app.state])]
        if floor >= 0 && swapUsage(of: index) <= floor {
            reason += "; not killed: at most \(Bytes(floor).formatted) in swap"
        }
        // A band with its own start point says where it is, when free memory is not there yet.
        let start = bandKillBelow[Int(app.bands[app.state])]
        if start != .min && accountant.free.value >= start {
            let atOrBelow = policy.comparison == .atOrBelow
            let figure = Bytes(atOrBelow ? start - 1 : start).formatted
            reason += "; killable \(atOrBelow ? "at or below" : "below") \(figure) free"
        }
        return reason
    }

    /// The attributes of app `index` in `state` that policies match on.
    func subject(of index: Int, in state: AppState) -> PolicyMatcher.Subject {
        let app = apps[index]
        let priority = app.explicitPriority ?? derivedPriority(of: index, in: state)
        return PolicyMatcher.Subject(
            id: apps[cold: index].id, backgroundModes: app.backgroundModes,
            oomScoreAdj: effectiveOomScoreAdj(of: index, in: state), priority: priority)
    }
}
