// systemd-oomd's memory-pressure rule (Policy.memoryPressureLimit): the simulated PSI "full"
// stall, its running averages as kernel/sched/psi.c computes them (PressureStallClock), and oomd's check every
// interval (docs/compression.md, "systemd-oomd's memory-pressure rule", says where the stall
// approximates the kernel's).

/// The engine's books for systemd-oomd's memory-pressure rule: the full stall and its running
/// averages, whether memory is short and reclaimed now, and oomd's state between two checks.
struct MemoryPressureLimitBooks {
    let rule: MemoryPressureLimit
    /// The limit in hundredths of a percent, as oomd reads `ManagedOOMMemoryPressureLimit=`.
    let limitHundredths: Int
    /// The zone watermarks, in bytes of free memory.
    let minWatermark: Int64
    let lowWatermark: Int64
    /// The "full" stall and its averages (the model counts no "some" stall of its own).
    var clock = PressureStallClock(modelsSome: false)
    /// Whether allocations block (free memory below the min watermark) since the last action.
    var isBlocked = false
    /// Whether kswapd or an allocating task reclaims (free memory below the low watermark) since
    /// the last action.
    var isReclaiming = false
    /// When memory was last reclaimed (oomd's `last_had_mem_reclaim`).
    var lastReclaim = -Double.infinity
    /// When oomd next looks.
    var nextCheck: Double
    /// Since when the average has been above the limit (`mem_pressure_limit_hit_start`).
    var limitHitStart: Double? = nil
    /// When oomd last acted (`mem_pressure_post_action_delay_start`).
    var lastAction: Double? = nil
    /// Since which check oomd has found the average above the limit, for the event log (`nil`:
    /// it is not); the seconds above in stretches already closed; the up-crossings.
    var aboveSince: Double? = nil
    var secondsAbove = 0.0
    var crossings = 0

    init(rule: MemoryPressureLimit, device: Device) {
        self.rule = rule
        limitHundredths = Int((rule.limitPercent * 100).rounded())
        minWatermark = ZoneWatermark.min.resolved(on: device).value
        lowWatermark = ZoneWatermark.low.resolved(on: device).value
        nextCheck = rule.intervalSeconds
    }

    /// Seconds of "full" stall since the engine started (the kernel's `total[PSI_AVGS]`).
    var fullTotal: Double {
        get { clock.full.total }
        set { clock.full.total = newValue }
    }

    /// `avg10` as `/proc/pressure/memory` prints it and oomd reads it, in hundredths of a percent:
    /// `LOAD_INT(avg)` and `LOAD_FRAC(avg)` (include/linux/sched/loadavg.h), two decimals, floored.
    var average10Hundredths: Int { PressureStallAverager.hundredths(of: clock.full.averages.avg10) }

    /// Whether the average is above oomd's limit (`oomd_pressure_above()`: `avg10 > limit`).
    var isAboveLimit: Bool { average10Hundredths > limitHundredths }

    /// Whether the average may be above the limit at a check before the next action: allocations
    /// block, it is above already, or stall not yet averaged (direct reclaim past a period's
    /// length) may lift it. Otherwise it only falls until the next action.
    var mayExceedLimit: Bool {
        isBlocked || isAboveLimit || clock.hasUnaveraged
    }

    /// Brings the stall and its averages up to `time` (`PressureStallClock.advance(to:stalled:)`),
    /// stalled throughout while allocations block, and the last reclaim to `time` while reclaim runs,
    /// in the state the last action left.
    ///
    /// - Complexity: O(1): at most about 1,300 updates for a stretch of alike periods.
    mutating func advance(to time: Double) {
        let from = clock.accountedThrough
        clock.advance(to: time, stalled: isBlocked)
        if isReclaiming && time > from { lastReclaim = time }
    }
}

extension PressureEngine {
    /// systemd-oomd's view of the simulated device under a policy with ``Policy/memoryPressureLimit``.
    public struct MemoryPressureLimitStatus: Sendable, Hashable {
        /// The running 10-second average of the "full" stall, in percent with two decimals, as
        /// `/proc/pressure/memory` prints PSI's `full avg10`.
        public var fullAverage10: Double
        /// Seconds of "full" stall since the engine started (PSI's `full total`, in seconds).
        public var fullTotalSeconds: Double
        /// Since when the average has stayed above the limit (`nil`: it is not above it).
        public var limitExceededSince: Double?
        /// When memory was last reclaimed (`nil`: never).
        public var lastReclaim: Double?
    }

    /// The rule's signals at the engine's time (``now``), or `nil` when the policy has no
    /// ``Policy/memoryPressureLimit``. They move at the rule's checks and the engine's actions.
    ///
    /// - Complexity: O(1)
    public var memoryPressureLimitStatus: MemoryPressureLimitStatus? {
        guard let books = memoryPressureLimit else { return nil }
        return MemoryPressureLimitStatus(
            fullAverage10: Double(books.average10Hundredths) / 100, fullTotalSeconds: books.fullTotal,
            limitExceededSince: books.limitHitStart,
            lastReclaim: books.lastReclaim.isFinite ? books.lastReclaim : nil)
    }

    /// The app systemd-oomd's memory-pressure rule (``Policy/memoryPressureLimit``) would kill
    /// were its conditions met now: the one with the most resident memory, in front or not (see
    /// the rule's victim in docs/compression.md); `nil` without the rule or without a resident app.
    ///
    /// - Complexity: O(n)
    public var memoryPressureLimitVictim: AppID? {
        guard hasMemoryPressureLimit, let index = memoryPressureVictim() else { return nil }
        return apps[cold: index].id
    }

    /// Whether letting time pass to `time` may kill: a check of systemd-oomd's memory-pressure
    /// rule (``Policy/memoryPressureLimit``) falls due by then while allocations block or the
    /// stall's average is above the limit. Such a kill happens at its check's time, inside the
    /// next ``apply(_:at:)``, before the action; a driver that must know of it first (the trace
    /// player, which skips actions aimed at killed apps) applies ``Action/tick`` at `time` before
    /// the action. Always `false` under a policy without the rule.
    ///
    /// - Complexity: O(1)
    public func killsMayFall(through time: Double) -> Bool {
        guard hasMemoryPressureLimit, let books = memoryPressureLimit, books.nextCheck <= time else { return false }
        return books.mayExceedLimit
    }

    /// oomd's checks from the last one up to `time`, each in the state the last action left:
    /// `oomd_pressure_above()`, then a kill by `oomd_kill_by_pgscan_rate()` when the average has
    /// been above the limit for the duration, memory was reclaimed within `reclaimWithinSeconds`
    /// and the last action is `postKillDelaySeconds` old. A kill is logged at its check's time
    /// (or at ``now``, if an expiry already moved the clock past it). Checks that cannot act —
    /// nothing blocks, nothing is left to average and the average is at or below the limit — are
    /// skipped together.
    ///
    /// - Complexity: O(checks while the average is above the limit and something can be killed) +
    ///   O(n) per kill.
    func runMemoryPressureChecks(through time: Double) {
        guard hasMemoryPressureLimit else { return }
        let rule = memoryPressureLimit!.rule
        while memoryPressureLimit!.nextCheck <= time {
            let check = memoryPressureLimit!.nextCheck
            memoryPressureLimit!.advance(to: check)
            noteMemoryPressureCrossing(at: check)
            let books = memoryPressureLimit!
            guard books.mayExceedLimit else {
                // Quiet until the next action: the average can only fall.
                memoryPressureLimit!.limitHitStart = nil
                let skipped = ((time - check) / rule.intervalSeconds).rounded(.down) + 1
                memoryPressureLimit!.nextCheck = check + skipped * rule.intervalSeconds
                break
            }
            memoryPressureLimit!.nextCheck = check + rule.intervalSeconds
            guard books.isAboveLimit else {
                memoryPressureLimit!.limitHitStart = nil
                continue
            }
            let hitStart = books.limitHitStart ?? check
            memoryPressureLimit!.limitHitStart = hitStart
            let inDelay = books.lastAction.map { $0 + rule.postKillDelaySeconds > check } ?? false
            guard check - hitStart >= rule.durationSeconds, !inDelay,
                check - books.lastReclaim <= rule.reclaimWithinSeconds
            else { continue }
            memoryPressureLimit!.lastAction = check
            guard let victim = memoryPressureVictim() else {
                // Nothing to kill, and nothing changes before the next action: oomd would try, and
                // find nothing, at every check up to `time`.
                let skipped = ((time - check) / rule.intervalSeconds).rounded(.down)
                memoryPressureLimit!.nextCheck = check + (skipped + 1) * rule.intervalSeconds
                memoryPressureLimit!.lastAction = check + skipped * rule.intervalSeconds
                memoryPressureLimit!.advance(to: time)
                break
            }
            now = Swift.max(now, check)
            // oomd's log line: "Killed … due to memory pressure for … being 63.21% > 50.00% for > 20s
            // with reclaim activity"; the average in parentheses, so reasons group by the rule.
            let reason =
                "\(MemoryPressureLimit.killReasonPrefix)\(Self.percent(rule.limitPercent)) for > \(Self.seconds(rule.durationSeconds)) "
                + "with reclaim activity (full avg10 \(Self.percent(Double(books.average10Hundredths) / 100))): "
                + "highest pgscan rate: "
                + "\(Bytes(apps[victim].footprint)) resident"
            kill(victim, reason: reason)
            evaluatePressure()
            settleMemoryPressure()
        }
    }

    /// A percentage as oomd logs it: two decimals (`LOADAVG_INT_SIDE`, `LOADAVG_DECIMAL_SIDE`).
    static func percent(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let decimals = hundredths % 100
        return "\(hundredths / 100).\(decimals < 10 ? "0" : "")\(decimals)%"
    }

    /// Seconds as `FORMAT_TIMESPAN` writes whole ones: `20s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && value < 1e9 ? "\(Int(value))s" : "\(value)s"
    }

    /// The app `oomd_kill_by_pgscan_rate()` picks: the highest pgscan rate, then the most memory
    /// in use (`compare_pgscan_rate_and_memory_usage()`), skipping apps with neither. The kernel's
    /// reclaim scans every cgroup's LRU lists in proportion to their size (`get_scan_count()`,
    /// mm/vmscan.c: `lruvec_size >> sc->priority`), so in an interval with reclaim the app with
    /// the most resident memory has the highest rate, and in one without, every rate is 0 and
    /// memory decides: both are the app with the largest resident footprint, whatever its state
    /// (oomd knows no foreground app). Equal footprints: the smallest id (qsort() states no order).
    ///
    /// - Complexity: O(n)
    func memoryPressureVictim() -> Int? {
        var best: Int? = nil
        for index in apps.indices where apps[index].state.isResident && apps[index].footprint > 0 {
            guard let current = best else {
                best = index
                continue
            }
            let footprint = apps[index].footprint
            if footprint > apps[current].footprint
                || (footprint == apps[current].footprint && apps[cold: index].id < apps[cold: current].id)
            {
                best = index
            }
        }
        return best
    }

    /// Counts the direct reclaim an action just did as "full" stall (every allocating task
    /// waited for it), and the reclaim itself, when free memory was below the min (direct) or
    /// low (kswapd) watermark before it.
    func noteMemoryPressureReclaim(freeBeforeReclaim: Int64) {
        guard hasMemoryPressureLimit else { return }
        memoryPressureLimit!.advance(to: now)
        if freeBeforeReclaim < memoryPressureLimit!.minWatermark {
            memoryPressureLimit!.fullTotal += lastReclaimSeconds
        }
        if freeBeforeReclaim < memoryPressureLimit!.lowWatermark { memoryPressureLimit!.lastReclaim = now }
    }

    /// Records the state an action left: allocations block below the min watermark (a "full"
    /// stall until the next action), reclaim runs below the low one.
    func settleMemoryPressure() {
        guard hasMemoryPressureLimit else { return }
        memoryPressureLimit!.advance(to: now)
        let free = accountant.free.value
        memoryPressureLimit!.isBlocked = free < memoryPressureLimit!.minWatermark
        memoryPressureLimit!.isReclaiming = free < memoryPressureLimit!.lowWatermark
        if memoryPressureLimit!.isReclaiming { memoryPressureLimit!.lastReclaim = now }
    }
}
