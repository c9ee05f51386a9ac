/// lmkd's PSI mode (`ro.lmk.use_psi`, the default since Android 10): kills are decided from
/// memory pressure stall, thrashing, free swap and the zone watermarks by `mp_event_psi()` in
/// system/memory/lmkd/lmkd.cpp, not by free memory against minfree levels. A policy with this
/// section kills only by these rules (its bands order the victims, from oom_score_adj 1000 down);
/// its levels still drive warnings and purges. The zone watermarks are ``ZoneWatermark``'s. The signals are the simulator's own
/// (docs/compression.md, "Pressure signals"), and need ``Policy/compression`` for swap and refaults.
public struct PressureStallKills: Sendable, Hashable {
    /// `ro.lmk.psi_partial_stall_ms`: "some" stall in a window that wakes lmkd (70 ms; 200 on
    /// low-RAM devices).
    public var partialStallMs: Double
    /// `ro.lmk.psi_complete_stall_ms`: "full" stall in a window that makes the device "not
    /// responding" (700 ms).
    public var completeStallMs: Double
    /// `ro.lmk.thrashing_limit`: the share of the file cache refaulted in a window, in percent, above
    /// which lmkd calls it thrashing (100; 30 on low-RAM devices).
    public var thrashingLimit: Int
    /// `ro.lmk.thrashing_limit_decay`: how much, in percent, each kill for thrashing lowers the
    /// limit until the window resets (10; 50 on low-RAM devices).
    public var thrashingLimitDecay: Int
    /// `ro.lmk.thrashing_limit_critical`: thrashing, in percent, at which perceptible apps may go
    /// too (twice ``thrashingLimit`` by default).
    public var thrashingLimitCritical: Int
    /// `ro.lmk.swap_free_low_percentage`: swap is low below this share of its size, in percent (10).
    public var swapFreeLowPercentage: Int
    /// `PERCEPTIBLE_APP_ADJ` (200): the milder reasons kill only above it (`min_score_adj` 201).
    public var perceptibleAdj: Int
    /// `PSI_WINDOW_SIZE_MS` and `THRASHING_RESET_INTERVAL_MS`, in seconds (1).
    public var windowSeconds: Double

    /// The rules with lmkd's defaults for a device that is not low-RAM (lmkd.cpp:
    /// `DEF_PARTIAL_STALL` 70, `DEF_COMPLETE_STALL` 700, `DEF_THRASHING` 100,
    /// `DEF_THRASHING_DECAY` 10, `DEF_LOW_SWAP` 10), changed where given.
    ///
    /// - Complexity: O(1)
    public init(
        partialStallMs: Double = 70, completeStallMs: Double = 700, thrashingLimit: Int = 100,
        thrashingLimitDecay: Int = 10, thrashingLimitCritical: Int? = nil, swapFreeLowPercentage: Int = 10,
        perceptibleAdj: Int = 200, windowSeconds: Double = 1
    ) {
        self.partialStallMs = partialStallMs
        self.completeStallMs = completeStallMs
        self.thrashingLimit = thrashingLimit
        self.thrashingLimitDecay = thrashingLimitDecay
        self.thrashingLimitCritical = thrashingLimitCritical ?? thrashingLimit * 2
        self.swapFreeLowPercentage = swapFreeLowPercentage
        self.perceptibleAdj = perceptibleAdj
        self.windowSeconds = windowSeconds
    }

    /// Every problem of the rules, located under `psi`.
    package var problems: [(path: String, message: String)] {
        var problems: [(String, String)] = []
        for (key, value, range) in [
            ("partialStallMs", partialStallMs, 1.0...1000), ("completeStallMs", completeStallMs, 1...1000),
            ("windowSeconds", windowSeconds, 0.1...60),
        ] where !range.contains(value) {
            problems.append(("psi.\(key)", "expected \(range.lowerBound)...\(range.upperBound), found \(value)"))
        }
        for (key, value, range) in [
            ("thrashingLimit", thrashingLimit, 0...10_000), ("thrashingLimitDecay", thrashingLimitDecay, 0...100),
            ("thrashingLimitCritical", thrashingLimitCritical, 0...20_000),
            ("swapFreeLowPercentage", swapFreeLowPercentage, 0...100), ("perceptibleAdj", perceptibleAdj, -1000...1000),
        ] where !range.contains(value) {
            problems.append(
                ("psi.\(key)", "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(value)"))
        }
        return problems
    }
}
