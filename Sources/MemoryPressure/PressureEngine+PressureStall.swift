// lmkd's PSI mode (Policy.psi): the simulator's pressure signals — stall, thrashing, free swap,
// zone watermarks — and mp_event_psi()'s kill decisions from them (docs/compression.md,
// "Pressure signals", says where the signals approximate the kernel's).

/// The engine's pressure-stall books: the watermarks on this device, the current window's stall
/// and refaults, and lmkd's state between two wake-ups.
struct PressureStallBooks {
    let rule: PressureStallKills
    /// The zone watermarks, in bytes of free memory.
    let minWatermark: Int64
    let lowWatermark: Int64
    let highWatermark: Int64
    /// When the current window started (engine seconds).
    var windowStart = -Double.infinity
    /// Seconds of "some" and "full" stall in the window.
    var some = 0.0
    var full = 0.0
    /// File bytes refaulted in the window, and since lmkd last looked.
    var refaulted: Int64 = 0
    var refaultedSinceCheck: Int64 = 0
    /// The file cache at the window's start (lmkd's `base_file_lru`).
    var fileCacheAtStart: Int64 = 0
    /// The last window's thrashing, in percent (lmkd's `prev_thrash_growth`).
    var previousThrashing = 0
    /// The thrashing limit in force (lmkd's `thrashing_limit`, lowered by kills for thrashing).
    var thrashingLimit: Int
    /// Whether lmkd killed on its last wake-up (its `cycle_after_kill`).
    var killedLastCycle = false
    /// Seconds of "some" and "full" stall since the engine started (PSI's `total`) and their
    /// running averages; lmkd's model adds its stall at the actions, so the clock runs unstalled
    /// between them.
    var clock = PressureStallClock(modelsSome: true)
    var someTotal: Double { clock.some!.total }
    var fullTotal: Double { clock.full.total }
    /// Since when each trigger has fired in the current window (`nil`: it has not).
    var someAboveSince: Double? = nil
    var fullAboveSince: Double? = nil
    /// Seconds each trigger spent fired, in windows already closed, and its up-crossings.
    var someSecondsAbove = 0.0
    var fullSecondsAbove = 0.0
    var someCrossings = 0
    var fullCrossings = 0
    /// The highest "some" and "full" stall of a window seen at lmkd's wake-ups, in percent.
    var somePeak = 0.0
    var fullPeak = 0.0

    init(rule: PressureStallKills, device: Device) {
        self.rule = rule
        minWatermark = ZoneWatermark.min.resolved(on: device).value
        lowWatermark = ZoneWatermark.low.resolved(on: device).value
        highWatermark = ZoneWatermark.high.resolved(on: device).value
        thrashingLimit = rule.thrashingLimit
    }
}

extension PressureEngine {
    /// The pressure signals of the simulated device under a policy with ``Policy/psi``, as lmkd
    /// reads them on a real one.
    public struct PressureStallStatus: Sendable, Hashable {
        /// Milliseconds of "some" memory stall (at least one app waiting) in the current window.
        public var someMilliseconds: Double
        /// Milliseconds of "full" memory stall (every allocation waiting) in the current window.
        public var fullMilliseconds: Double
        /// File cache refaulted in the window as a share of the file cache at its start, plus the
        /// last window's, in percent (lmkd's `thrashing`).
        public var thrashing: Int
        /// The thrashing limit in force.
        public var thrashingLimit: Int
        /// Swap: zram's size (the compressed pool's capacity, uncompressed).
        public var swapTotal: Bytes
        /// What is free of it.
        public var swapFree: Bytes
        /// The min zone watermark: below it an allocating task reclaims itself.
        public var minWatermark: Bytes
        /// The low watermark: below it kswapd reclaims.
        public var lowWatermark: Bytes
        /// The high watermark: where kswapd stops.
        public var highWatermark: Bytes
    }

    /// The pressure signals at the engine's time (``now``), or `nil` when the policy has no
    /// ``Policy/psi``. Once the window of the last stall is over, its stall reads 0, the
    /// thrashing is the last window's and the limit is back to its setting.
    ///
    /// - Complexity: O(1)
    public var pressureStallStatus: PressureStallStatus? {
        guard let books = pressureStall else { return nil }
        let swap = swapSpace
        let isOver = now >= books.windowStart + books.rule.windowSeconds
        return PressureStallStatus(
            someMilliseconds: isOver ? 0 : books.some * 1000, fullMilliseconds: isOver ? 0 : books.full * 1000,
            thrashing: isOver ? thrashing(includingPrevious: false) : thrashing(),
            thrashingLimit: isOver ? books.rule.thrashingLimit : books.thrashingLimit, swapTotal: Bytes(swap.total),
            swapFree: Bytes(swap.free), minWatermark: Bytes(books.minWatermark),
            lowWatermark: Bytes(books.lowWatermark), highWatermark: Bytes(books.highWatermark))
    }

    /// Swap as lmkd reads it (`SwapTotal`, `SwapFree`): the device's and zram's.
    var swapSpace: (total: Int64, free: Int64) { (swapTotal, swapFreeBytes) }

    /// The file cache: the file-backed share of every resident app's memory.
    var fileCache: Int64 {
        guard let model = compression?.model else { return 0 }
        return Int64(Double(accountant.totalFootprint.value) * model.fileBacked)
    }

    /// Starts a new window when the current one is over: stall and refaults start from zero,
    /// the thrashing limit is back to its setting (lmkd resets it every
    /// `THRASHING_RESET_INTERVAL_MS`).
    func rollPressureWindow() {
        guard let books = pressureStall, now >= books.windowStart + books.rule.windowSeconds else { return }
        closePressureStallCrossings()
        let last = thrashing(includingPrevious: false)
        pressureStall!.windowStart = now
        pressureStall!.some = 0
        pressureStall!.full = 0
        pressureStall!.refaulted = 0
        pressureStall!.previousThrashing = books.windowStart.isFinite ? last : 0
        pressureStall!.fileCacheAtStart = fileCache
        pressureStall!.thrashingLimit = books.rule.thrashingLimit
    }

    /// Records that an app waited `waited` seconds for its memory and read `bytes` of file pages
    /// again. The wait is a "some" stall only if `stalls` (``refaultIsRecent(_:)``); every
    /// refaulted byte counts toward thrashing (lmkd reads `workingset_refault_file`, which counts
    /// every refault whose shadow entry the kernel finds).
    func noteRefault(bytes: Int64, waited: Double, stalls: Bool) {
        guard hasPressureStall else { return }
        rollPressureWindow()
        if stalls {
            pressureStall!.clock.advance(to: now, stalled: false)
            pressureStall!.some += waited
            pressureStall!.clock.some!.total += waited
        }
        pressureStall!.refaulted &+= bytes
        pressureStall!.refaultedSinceCheck &+= bytes
    }

    /// Whether reading app `index`'s reclaimed memory back is a memory stall, by the kernel's
    /// rule: `workingset_refault()` (mm/workingset.c) marks a refaulted page working set only if
    /// its refault distance — the pages evicted since it was — is at most the working set's size
    /// (the file LRUs and the active anonymous LRU, when there is swap), and only a working-set
    /// page's read is counted as stall (`psi_memstall_enter()` in `swap_readpage()`, mm/page_io.c,
    /// and in `folio_wait_bit_common()`, mm/filemap.c). Here the distance is the bytes reclaimed
    /// since the app's memory was, and the working set the file cache plus the anonymous memory of
    /// the executing apps (the engine has no active and inactive lists: a suspended app's memory
    /// counts as inactive). The kernel also asks that the page was active before its eviction (the
    /// shadow entry's workingset bit, which `shrink_active_list()` in mm/vmscan.c sets on every page
    /// it deactivates); an app's memory is taken to have been. A resume long after its reclaim
    /// waits without a stall; one soon after — thrashing — stalls. Measured on a real kernel:
    /// `scripts/measure-zram-swap.py` (docs/compression.md, "Pressure signals").
    ///
    /// - Complexity: O(n) over the apps, on the resume of a reclaimed app only.
    func refaultIsRecent(_ index: Int) -> Bool {
        guard hasPressureStall, hasCompression else { return false }
        let distance = compression!.evictionClock &- compression!.evictedAt[index]
        var executing: Int64 = 0
        for other in apps.indices where other != index && apps[other].state.isExecuting {
            executing &+= apps[other].footprint
        }
        let anonymous = Int64(Double(executing) * (1 - compression!.model.fileBacked))
        return distance <= fileCache &+ anonymous
    }

    /// lmkd's `thrashing`: the file cache refaulted in the window, in percent of the cache at its
    /// start, plus (by default) the last window's.
    func thrashing(includingPrevious: Bool = true) -> Int {
        guard let books = pressureStall else { return 0 }
        let current = Int(books.refaulted &* 100 / (books.fileCacheAtStart &+ 1))
        return current + (includingPrevious ? books.previousThrashing : 0)
    }

    /// Whether lmkd would look now: memory below the low watermark, new refaults, or a kill on
    /// its last wake-up.
    @inline(__always)
    var pressureStallNeedsEvaluation: Bool {
        guard hasPressureStall, let books = pressureStall else { return false }
        return accountant.free.value < books.lowWatermark || books.refaultedSinceCheck > 0 || books.killedLastCycle
    }

    /// One wake-up of lmkd in PSI mode after an action, then its polls while it keeps killing:
    /// the stall of this window (with the direct reclaim this action did, when free memory was
    /// below the min watermark before it: `freeBeforeReclaim`), and `mp_event_psi()`'s rules.
    ///
    /// - Complexity: O(log n) per kill.
    func pressureStallKills(freeBeforeReclaim: Int64) {
        guard hasPressureStall else { return }
        rollPressureWindow()
        let books = pressureStall!
        let direct = freeBeforeReclaim < books.minWatermark
        let reclaiming = direct || freeBeforeReclaim < books.lowWatermark
        let blocked = accountant.free.value < books.minWatermark
        // The averages come up to now before this action's stall is added (only then: with no
        // stall added, bringing them up later gives the same).
        if direct || blocked { pressureStall!.clock.advance(to: now, stalled: false) }
        if direct {
            // The allocating task reclaimed itself: everyone allocating waited for it.
            pressureStall!.some += lastReclaimSeconds
            pressureStall!.full += lastReclaimSeconds
            pressureStall!.clock.some!.total += lastReclaimSeconds
            pressureStall!.clock.full.total += lastReclaimSeconds
        }
        if blocked {
            // Reclaim could not bring memory back to the min watermark: allocations block.
            let window = books.rule.windowSeconds
            pressureStall!.clock.some!.total += Swift.max(0, window - pressureStall!.some)
            pressureStall!.clock.full.total += Swift.max(0, window - pressureStall!.full)
            pressureStall!.some = window
            pressureStall!.full = window
        }
        notePressureStallCrossings()
        let refaulting = pressureStall!.refaultedSinceCheck > 0
        pressureStall!.refaultedSinceCheck = 0
        let someMs = pressureStall!.some * 1000
        let fullMs = pressureStall!.full * 1000
        let critical = fullMs >= books.rule.completeStallMs
        let event = critical || someMs >= books.rule.partialStallMs
        var afterKill = books.killedLastCycle
        pressureStall!.killedLastCycle = false
        // lmkd wakes on a PSI event, or polls after a kill; it bails out while nothing reclaims
        // or refaults.
        guard event || afterKill, reclaiming || refaulting else { return }
        var isEvent = event
        while let decision = pressureStallDecision(
            critical: critical && isEvent, afterKill: afterKill, direct: direct && isEvent),
            let victim = chooseVictim(),
            effectiveOomScoreAdj(of: victim.index, in: apps[victim.index].state) >= decision.minScoreAdj
        {
            killReasonPrefix = decision.reason
            kill(victim.index)
            killReasonPrefix = nil
            if decision.cutsThrashingLimit {
                let limit = pressureStall!.thrashingLimit
                pressureStall!.thrashingLimit = limit * (100 - books.rule.thrashingLimitDecay) / 100
            }
            pressureStall!.killedLastCycle = true
            afterKill = true
            isEvent = false
        }
    }

    /// `mp_event_psi()`'s kill reason and the lowest oom_score_adj it may kill, for the signals
    /// now, in lmkd's order; `nil` when no reason holds.
    func pressureStallDecision(critical: Bool, afterKill: Bool, direct: Bool)
        -> (reason: String, minScoreAdj: Int, cutsThrashingLimit: Bool)?
    {
        let books = pressureStall!
        let rule = books.rule
        let free = accountant.free.value
        let belowMin = free < books.minWatermark
        let belowLow = free < books.lowWatermark
        let thrashing = thrashing()
        let swap = swapSpace
        let swapLowThreshold = swap.total * Int64(rule.swapFreeLowPercentage) / 100
        let swapIsLow = swap.free < swapLowThreshold
        let perceptible = rule.perceptibleAdj + 1
        let kib = { (bytes: Int64) in "\(bytes / 1024)kB" }
        if afterKill && belowMin {
            return ("min watermark is breached even after kill", 0, false)
        }
        if critical {
            return ("device is not responding", 0, false)
        }
        if swapIsLow && thrashing > books.thrashingLimit {
            let adj = !belowMin && thrashing < rule.thrashingLimitCritical ? perceptible : 0
            return (
                "device is low on swap (\(kib(swap.free)) < \(kib(swapLowThreshold))) and thrashing (\(thrashing)%)",
                adj,
                false
            )
        }
        if swapIsLow && belowLow {
            return (
                "\(belowMin ? "min" : "low") watermark is breached and swap is low (\(kib(swap.free)) < \(kib(swapLowThreshold)))",
                belowMin ? 0 : perceptible, false
            )
        }
        if belowLow && thrashing > books.thrashingLimit {
            return (
                "\(belowMin ? "min" : "low") watermark is breached and thrashing (\(thrashing)%)",
                thrashing < rule.thrashingLimitCritical ? perceptible : 0, true
            )
        }
        if direct && thrashing > books.thrashingLimit {
            // This action's allocation reclaimed directly (free memory was below the min watermark).
            return (
                "device is in direct reclaim and thrashing (\(thrashing)%)",
                thrashing < rule.thrashingLimitCritical ? perceptible : 0, true
            )
        }
        return nil
    }
}
