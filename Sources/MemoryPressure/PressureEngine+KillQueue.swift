import IndexedHeapModule

// The kill queue: every killable resident app, keyed so that the heap's maximum is the next victim.
//
// A key packs three fields into one UInt64, compared as one integer:
//   bits 56...63  band rank (the policy's first band has the highest rank)
//   bits 20...55  the order value inside the band (36 bits: footprint, age, entry order, badness)
//   bits  0...19  a tie-breaker: apps that appeared earlier win ties

extension PressureEngine {
    /// Bits of the order value.
    static var valueBits: Int64 { 36 }
    static var valueMask: UInt64 { (1 << 36) - 1 }
    static var tieMask: UInt64 { (1 << 20) - 1 }
    /// The origin of least-recently-used values: times from −3.4e7 s to +3.4e7 s order correctly
    /// at millisecond resolution.
    static var recencyOrigin: Double { 3.4e7 }

    /// The kill key of app `index` in band `band`.
    ///
    /// - Complexity: O(1)
    @inline(__always)
    func killKey(of index: Int, band: UInt8) -> UInt64 {
        let app = apps[index]
        let rank = UInt64(policy.bands.count &- Int(band))
        let value: UInt64
        switch policy.bands[Int(band)].order {
        case .largestFirst:
            value = clampedValue(bytes: app.footprint)
        case .badness:
            let adjusted = Int64(app.oomScoreAdj) &* accountant.device.usable.value / 1000
            value = clampedValue(bytes: app.footprint &+ app.swap &+ app.pageTables &+ adjusted)
        case .leastRecentlyUsed:
            let age = (Self.recencyOrigin - app.lastFrontmost) * 1000
            value = age <= 0 ? 0 : Swift.min(UInt64(age), Self.valueMask)
        case .firstInFirstOut:
            value = Self.valueMask &- Swift.min(app.bandEntry, Self.valueMask)
        }
        return rank << 56 | value << 20 | (Self.tieMask &- UInt64(index))
    }

    /// A byte count scaled into the value field, saturating at both ends.
    @inline(__always)
    func clampedValue(bytes: Int64) -> UInt64 {
        guard bytes > 0 else { return 0 }
        return Swift.min(UInt64(bytes >> valueShift), Self.valueMask)
    }

    /// The band of app `index` in its current state, or ``BandTable/none``.
    @inline(__always)
    func currentBand(of index: Int) -> UInt8 {
        let app = apps[index]
        return app.state.isResident ? app.bands[app.state] : BandTable.none
    }

    /// Puts app `index` into the kill queue under its current key, moves it, or takes it out,
    /// as its state and footprint now require.
    ///
    /// - Complexity: O(log n)
    func syncKillQueue(_ index: Int) {
        let band = currentBand(of: index)
        guard band != BandTable.none else {
            if let handle = apps[index].killHandle {
                killQueue.remove(handle)
                apps[index].killHandle = nil
            }
            return
        }
        let key = killKey(of: index, band: band)
        if let handle = apps[index].killHandle {
            killQueue.update(handle, to: key)
        } else {
            let handle = killQueue.insert(key)
            if handle.index >= appByKillSlot.count {
                appByKillSlot.append(contentsOf: repeatElement(-1, count: handle.index + 1 - appByKillSlot.count))
            }
            appByKillSlot[handle.index] = Int32(index)
            apps[index].killHandle = handle
        }
    }

    /// Refreshes the key of app `index` after its footprint changed, when its band orders by size.
    ///
    /// - Complexity: O(log n); O(1) when the key does not depend on the footprint.
    @inline(__always)
    func footprintChanged(_ index: Int) {
        guard let handle = apps[index].killHandle else { return }
        let band = apps[index].bands[apps[index].state]
        switch policy.bands[Int(band)].order {
        case .largestFirst, .badness:
            killQueue.update(handle, to: killKey(of: index, band: band))
        case .leastRecentlyUsed, .firstInFirstOut:
            break
        }
    }
}

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
    /// Why it is at this rank.
    public var reason: String
    /// The packed key that ordered it (band rank, order value, tie-breaker).
    public var key: UInt64
}

extension PressureEngine {
    /// The next `limit` victims, in order, read from the kill queue without changing it.
    ///
    /// - Complexity: O(limit × log limit), independent of the number of apps.
    public func killOrder(limit: Int) -> [KillCandidate] {
        var rows: [KillCandidate] = []
        rows.reserveCapacity(Swift.min(limit, killQueue.count))
        killQueue.forEachTop(limit) { handle, key in
            let index = Int(appByKillSlot[handle.index])
            let app = apps[index]
            let band = policy.bands[Int(app.bands[app.state])]
            rows.append(
                KillCandidate(
                    rank: rows.count + 1, app: app.id, state: app.state, band: band.name,
                    footprint: Bytes(app.footprint), notice: notice(forKilling: app.state), reason: band.reason,
                    key: key))
        }
        return rows
    }

    /// Resident apps the policy never kills, with the reason, in the order they appeared.
    ///
    /// - Complexity: O(n)
    public func protectedApps() -> [(app: AppID, reason: String)] {
        apps.indices.compactMap { index in
            let app = apps[index]
            guard app.state.isResident, app.bands[app.state] == BandTable.none else { return nil }
            let reason = matcher.protection(for: subject(of: index), state: app.state)?.reason
                ?? "matches no kill band of policy \(policy.name)"
            return (app.id, reason)
        }
    }

    /// What an app in `state` is told when it is killed.
    func notice(forKilling state: AppState) -> Event.KillNotice {
        state == .background ? .willTerminate : .none
    }

    /// The attributes of app `index` that policies match on.
    func subject(of index: Int) -> PolicyMatcher.Subject {
        let app = apps[index]
        return PolicyMatcher.Subject(
            id: app.id, backgroundModes: app.backgroundModes, oomScoreAdj: Int(app.oomScoreAdj),
            priority: app.priority.map(Int.init))
    }
}
