import IndexedHeapModule

// The kill queue: every killable resident app, keyed so that the heap's maximum is the next victim.
//
// A key packs three fields into one UInt64, compared as one integer:
//   bits 56...63  band rank (the policy's first band has the highest rank; apps over their
//                 memory limit rank above every band: at most 127 bands keep this in 8 bits)
//   bits 20...55  the order value inside the band (36 bits: footprint, age, entry order, badness,
//                 oom_score; in slotted bands the top 12 bits are the oom_score_adj or priority slot)
//   bits  0...19  a tie-breaker: apps that appeared earlier win ties (later under the `lastAppeared`
//                 rule); bands whose tie rule is `id`, `newestInBand` or `oldestInBand` order equal keys when the
//                 queue is read (`nextVictim()`, `killOrder(limit:)`), so the rule costs nothing
//                 unless keys are equal

extension PressureEngine {
    /// Bits of the order value.
    static var valueBits: Int64 { 36 }
    static var valueMask: UInt64 { (1 << 36) - 1 }
    static var tieMask: UInt64 { (1 << 20) - 1 }
    /// Bits of a slot (oom_score_adj + 1000, 0...2000; or 4095 − (priority + 1000), lowest
    /// priority highest) or an oom_score (score + 1000, so −1000...3095) at the top of the value.
    static var scoreBits: UInt64 { 12 }
    /// What is added to an oom_score (which earlyoom's `--avoid` can take below 0) to store it.
    static var scoreBias: Int { 1000 }
    /// The origin of least-recently-used values: times from −3.4e7 s to +3.4e7 s order correctly
    /// at millisecond resolution.
    static var recencyOrigin: Double { 3.4e7 }
    /// The origin of expected-relaunch-cost scores (log units, 1/4096 resolution): scores from
    /// about −8 million to 8 million order correctly; an app never opened scores −∞ (killed first).
    static var relaunchOrigin: Double { 8_388_608 }

    /// The kill key of app `index` in band `band`.
    ///
    /// - Complexity: O(1)
    @inline(__always)
    func killKey(of index: Int, band: UInt8) -> UInt64 {
        let spec = bandInfo[Int(band)]
        // Apps over their memory limit rank above every band, in band order among themselves
        // (XNU kills processes over their limit first, walking the bands upward).
        let bandCount = UInt64(bandInfo.count)
        let bandRank = bandCount &- UInt64(band)
        let rank = apps[index].flags.contains(.isOverLimit) ? bandCount &+ bandRank : bandRank
        var value = orderValue(of: index, order: spec.order, bits: spec.isSlotted ? 36 - Self.scoreBits : 36)
        if spec.slotsByOomScoreAdj {
            let slot = UInt64(effectiveOomScoreAdj(of: index, in: apps[index].state) &+ 1000)
            value |= slot << (36 - Self.scoreBits)
        } else if spec.slotsByPriority {
            // memorystatus_kill_top_process() walks memstat_bucket[] from the lowest priority up.
            let priority = Swift.min(Swift.max(effectivePriority(of: index, in: apps[index].state) &+ 1000, 0), 4095)
            value |= UInt64(4095 &- priority) << (36 - Self.scoreBits)
        }
        // Ties: the app that appeared first wins, except where the last one scanned wins (the
        // kernel's oom_evaluate_task replaces the chosen task on equal points).
        let tie = spec.lastAppearedWins ? UInt64(index) : Self.tieMask &- UInt64(index)
        return rank << 56 | value << 20 | tie
    }

    /// The order value of app `index` under `order`, in the low `bits` bits.
    @inline(__always)
    func orderValue(of index: Int, order: BandOrder, bits: UInt64) -> UInt64 {
        let extraShift = Int64(36 &- bits)
        let mask: UInt64 = (1 << bits) &- 1
        switch order {
        case .largestFirst:
            return clampedValue(
                bytes: apps[index].footprint &+ preferenceBytes(of: index), extraShift: extraShift, mask: mask)
        case .badness:
            // Points go negative with a negative oom_score_adj and the kernel still compares them:
            // bias by totalpages (the most an adj of -1000 can subtract) to keep their order.
            let pages = badnessPages(of: index) &+ badnessTotal / Self.pageSize
            return pages <= 0 ? 0 : Swift.min(UInt64(pages) >> UInt64(extraShift), mask)
        case .oomScore:
            let score = UInt64(Swift.min(Swift.max(oomScore(of: index) &+ Self.scoreBias, 0), 4095))
            let rss = clampedValue(
                bytes: apps[index].footprint, extraShift: extraShift &+ Int64(Self.scoreBits),
                mask: mask >> Self.scoreBits)
            return score << (bits &- Self.scoreBits) | rss
        case .swapUsage:
            return clampedValue(bytes: swapUsage(of: index), extraShift: extraShift, mask: mask)
        case .leastRecentlyUsed:
            let age = (Self.recencyOrigin - apps[cold: index].lastFrontmost) * 1000
            return age <= 0 ? 0 : Swift.min(UInt64(age) >> UInt64(extraShift), mask)
        case .firstInFirstOut:
            return mask &- Swift.min(apps[cold: index].bandEntry, mask)
        case .expectedRelaunchCost:
            // The least expected loss per byte first: the key falls as log c + log(cost/byte) rises.
            let score = apps[cold: index].useLog + policy.relaunch.logCostPerByte(footprint: apps[index].footprint)
            let scaled = (Self.relaunchOrigin - score) * 4096
            return scaled <= 0 ? 0 : Swift.min(UInt64(Swift.min(scaled, 1e18)) >> UInt64(extraShift), mask)
        case .predictedReuse:
            let score = index < reuse!.scores.count ? reuse!.scores[index] : 0
            let scaled = (Self.relaunchOrigin - score) * 4096
            return scaled <= 0 ? 0 : Swift.min(UInt64(Swift.min(scaled, 1e18)) >> UInt64(extraShift), mask)
        case .externalScore:
            let score = externalScores[index] ?? 0
            let scaled = Math.log1p(Swift.max(score, 0)) * 536_870_912
            return Swift.min(UInt64(Swift.min(scaled, 1e18)) >> UInt64(extraShift), mask)
        }
    }

    /// A byte count scaled into a value field, saturating at both ends.
    @inline(__always)
    func clampedValue(bytes: Int64, extraShift: Int64 = 0, mask: UInt64 = PressureEngine.valueMask) -> UInt64 {
        guard bytes > 0 else { return 0 }
        return Swift.min(UInt64(bytes >> (valueShift &+ extraShift)), mask)
    }

    /// The oom_score_adj of app `index` in `state`: its own, or the policy's for that state,
    /// lowered to the policy's value for a background mode the app declares while it executes in
    /// the background (OomAdjuster.computeOomAdjLSP(): a foreground service is perceptible, 200).
    @inline(__always)
    func effectiveOomScoreAdj(of index: Int, in state: AppState) -> Int {
        let own = apps[index].oomScoreAdj
        guard own == AppRecord.derived else { return Int(own) }
        var adj = policy.oomScoreAdjByState[state] ?? 0
        if state == .background && !apps[index].backgroundModes.isEmpty {
            for (position, mode) in BackgroundMode.allCases.enumerated()
            where apps[index].backgroundModes.contains(BackgroundModes(mode)) {
                if let byMode = adjByMode[position] { adj = Swift.min(adj, byMode) }
            }
        }
        return adj
    }

    /// The priority of app `index` in `state`: its own, or the policy's for that state, raised to
    /// the policy's value for a background mode the app declares while it executes in the
    /// background (XNU: audio playback at JETSAM_PRIORITY_AUDIO_AND_ACCESSORY, 120); 0 if neither.
    @inline(__always)
    func effectivePriority(of index: Int, in state: AppState) -> Int {
        if let own = apps[index].explicitPriority { return own }
        return derivedPriority(of: index, in: state) ?? 0
    }

    /// The policy's priority for app `index` in `state`, ignoring an explicit one (`nil`: none).
    func derivedPriority(of index: Int, in state: AppState) -> Int? {
        var priority = policy.priorityByState[state]
        if state == .background && !apps[index].backgroundModes.isEmpty {
            for (position, mode) in BackgroundMode.allCases.enumerated()
            where apps[index].backgroundModes.contains(BackgroundModes(mode)) {
                if let byMode = priorityByMode[position] { priority = Swift.max(priority ?? byMode, byMode) }
            }
        }
        return priority
    }

    /// The page size the Linux formulas count in.
    static var pageSize: Int64 { 4096 }

    /// Linux `oom_badness` in pages, as `mm/oom_kill.c` computes it: rss + swap entries +
    /// page-table bytes / PAGE_SIZE, plus `oom_score_adj × (totalpages / 1000)` (the division
    /// first, as the kernel does), where totalpages is memory plus swap.
    @inline(__always)
    func badnessPages(of index: Int) -> Int64 {
        return KernelOOMFormula.points(
            resident: apps[index].footprint, swap: swapBytes(of: index) &+ poolSwapEntries(of: index),
            pageTables: pageTableBytes(of: index),
            oomScoreAdj: Int64(effectiveOomScoreAdj(of: index, in: apps[index].state)),
            totalPages: badnessTotal / Self.pageSize, pageSize: Self.pageSize)
    }

    /// `/proc/<pid>/oom_score` as `fs/proc/base.c` computes it since Linux 5.9:
    /// `(1000 + badness × 1000 / totalpages) × 2 / 3`, plus the app's name preferences (earlyoom's
    /// ±300 for `--prefer`/`--avoid`) with no clamp, as `kill.c` `is_larger()` adds them: an
    /// avoided app's score may be negative, and −29 still beats −125. The kill key stores scores
    /// from −1000 to 3095.
    @inline(__always)
    func oomScore(of index: Int) -> Int {
        let score = KernelOOMFormula.oomScore(
            points: badnessPages(of: index), totalPages: badnessTotal / Self.pageSize)
        return Int(score) &+ Int(apps[index].preference)
    }

    /// App `index`'s memory in swap: its pages in the policy's zram, swap file or zswap, and the
    /// swap a live source reported (systemd-oomd reads the cgroup's `memory.swap.current`).
    @inline(__always)
    func swapUsage(of index: Int) -> Int64 {
        swapBytes(of: index) &+ poolSwapEntries(of: index)
    }

    /// The name-preference score of app `index` as bytes (score × total / 1000), like an adj.
    @inline(__always)
    func preferenceBytes(of index: Int) -> Int64 {
        guard hasPreferences else { return 0 }
        return Int64(apps[index].preference) &* badnessTotal / 1000
    }

    /// The band of app `index` in its current state, or ``BandTable/none``.
    @inline(__always)
    func currentBand(of index: Int) -> UInt8 {
        let state = apps[index].state
        return state.isResident ? apps[index].bands[state] : BandTable.none
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

    /// Puts every queueable app of `indices` into the kill queue: into an empty queue at once, by
    /// one bottom-up heap construction instead of an insertion each (a snapshot's load); into a
    /// queue that already holds apps (an app over its limit was queued while being added), one
    /// at a time. Either way the result is the queue ``syncKillQueue(_:)`` on each would make,
    /// up to the layout of equal keys, which reads resolve (``precedesInTie(_:_:)``).
    ///
    /// - Complexity: O(n) into an empty queue, else O(n log n).
    func fillKillQueue<Indices: Sequence<Int>>(_ indices: Indices) {
        guard killQueue.isEmpty else {
            for index in indices { syncKillQueue(index) }
            return
        }
        var keys: [UInt64] = []
        var owners: [Int32] = []
        keys.reserveCapacity(apps.count)
        owners.reserveCapacity(apps.count)
        for index in indices {
            let band = currentBand(of: index)
            guard band != BandTable.none else { continue }
            keys.append(killKey(of: index, band: band))
            owners.append(Int32(truncatingIfNeeded: index))
        }
        killQueue = AdaptiveIndexedQueue(keys, tournamentThreshold: killQueueTournamentThreshold)
        appByKillSlot = owners
        for (slot, owner) in owners.enumerated() {
            apps[Int(owner)].killHandle = killQueue.handle(forIndex: slot)
        }
    }

    /// Refreshes the key of app `index` after its footprint changed, when its band's order
    /// depends on the footprint.
    ///
    /// - Complexity: O(log n); O(1) when the key does not depend on the footprint.
    @inline(__always)
    func footprintChanged(_ index: Int) {
        guard let handle = apps[index].killHandle else { return }
        let band = apps[index].bands[apps[index].state]
        let info = bandInfo[Int(band)]
        if info.keyIsFootprint && !hasPreferences {
            // The key's value field is the footprint alone: replace it in the key the queue holds
            // (its rank and tie-breaker do not move with the footprint), the same key
            // ``killKey(of:band:)`` would compute.
            let value = clampedValue(bytes: apps[index].footprint) << 20
            killQueue.update(handle) { $0 & ~(Self.valueMask << 20) | value }
        } else if info.dependsOnFootprint {
            killQueue.update(handle, to: killKey(of: index, band: band))
        }
    }
}

/// What the kill queue reads of a band on every key computation, without copying the band.
struct BandInfo {
    /// The order inside the band.
    var order: BandOrder
    /// Whether the band is divided into slots (by oom_score_adj or by priority).
    var isSlotted: Bool
    /// Whether the slots are by oom_score_adj.
    var slotsByOomScoreAdj: Bool
    /// Whether the slots are by priority.
    var slotsByPriority: Bool
    /// Whether the key moves when the footprint does.
    var dependsOnFootprint: Bool
    /// Whether the key's value field is the footprint alone (largest first, no slots), so that a
    /// footprint change rewrites only that field when the policy has no name preferences.
    var keyIsFootprint: Bool
    /// Whether the tie-breaker favours the app that appeared last.
    var lastAppearedWins: Bool
    /// Whether equal keys are ordered when the queue is read (tie rules `id`, `newestInBand`, `oldestInBand`).
    var resolvesTiesOnRead: Bool
    /// The tie rule.
    var ties: TieRule

    init(_ band: Band) {
        order = band.order
        slotsByOomScoreAdj = band.slotsByOomScoreAdj
        slotsByPriority = band.slotsByPriority
        isSlotted = band.slotsByOomScoreAdj || band.slotsByPriority
        ties = band.effectiveTies
        lastAppearedWins = ties == .lastAppeared
        resolvesTiesOnRead = ties == .id || ties == .newestInBand || ties == .oldestInBand
        keyIsFootprint = band.order == .largestFirst && !isSlotted
        switch band.order {
        // A swap-usage key moves with each compression and decompression, which change the
        // footprint too (and re-key the app through it).
        case .largestFirst, .badness, .oomScore, .swapUsage, .expectedRelaunchCost: dependsOnFootprint = true
        // Scored keys change only when the band is re-scored, before a victim is chosen.
        case .leastRecentlyUsed, .firstInFirstOut, .predictedReuse, .externalScore: dependsOnFootprint = false
        }
    }
}

extension PressureEngine {
    /// The next victim in the kill queue: its maximum, or, when other apps share its key but for
    /// the tie-breaker and its band orders ties by id or by band entry, the first of them by that rule.
    ///
    /// - Complexity: O(1) without ties; O(g log g) for g apps with equal keys.
    func nextVictim() -> (index: Int, handle: IndexedHeapHandle)? {
        guard let top = killQueue.max else { return nil }
        let index = Int(appByKillSlot[top.handle.index])
        let band = Int(apps[index].bands[apps[index].state])
        guard bandInfo[band].resolvesTiesOnRead else { return (index, top.handle) }
        let group = tieGroup(of: top.priority)
        guard group.count > 1, let first = group.min(by: { precedesInTie($0.index, $1.index) }) else {
            return (index, top.handle)
        }
        return first
    }

    /// The apps whose keys equal `key` but for the tie-breaker, highest key first.
    ///
    /// - Complexity: O(g log g) for g such apps.
    func tieGroup(of key: UInt64) -> [(index: Int, handle: IndexedHeapHandle)] {
        var wanted = 2
        while true {
            var members: [(index: Int, handle: IndexedHeapHandle)] = []
            var ended = false
            killQueue.forEachTop(wanted) { handle, other in
                if other >> 20 == key >> 20 {
                    members.append((Int(appByKillSlot[handle.index]), handle))
                } else {
                    ended = true
                }
            }
            if ended || members.count < wanted { return members }
            wanted &*= 2
        }
    }

    /// Whether app `lhs` goes before app `rhs` when their keys are equal: by the tie rule of
    /// their band (`newestInBand`: the later band entry first, `oldestInBand`: the earlier, then
    /// by id; `id`: ascending id, compared byte by byte).
    func precedesInTie(_ lhs: Int, _ rhs: Int) -> Bool {
        let band = Int(apps[lhs].bands[apps[lhs].state])
        if apps[cold: lhs].bandEntry != apps[cold: rhs].bandEntry {
            switch bandInfo[band].ties {
            case .newestInBand: return apps[cold: lhs].bandEntry > apps[cold: rhs].bandEntry
            case .oldestInBand: return apps[cold: lhs].bandEntry < apps[cold: rhs].bandEntry
            case .id, .firstAppeared, .lastAppeared: break
            }
        }
        return apps[cold: lhs].id.rawValue.utf8.lexicographicallyPrecedes(apps[cold: rhs].id.rawValue.utf8)
    }
}
