/// Android lmkd's default PSI triggers, to read this machine's `/proc/pressure/memory` the way
/// modern lmkd (`ro.lmk.use_psi`, on by default) is woken: system/memory/lmkd/lmkd.cpp registers a
/// "some" trigger of `psi_partial_stall_ms` (70 ms; 200 ms on low-RAM devices) and a "full"
/// trigger of `psi_complete_stall_ms` (700 ms) per 1-second window (`PSI_WINDOW_SIZE_MS`), for
/// its medium and critical pressure levels.
public struct LMKDStallThresholds: Sendable, Hashable {
    /// Stall time ("some": at least one task stalled) per window that wakes lmkd at medium pressure.
    public var partialStallMilliseconds: Int
    /// Stall time ("full": every non-idle task stalled) per window that wakes it at critical pressure.
    public var completeStallMilliseconds: Int
    /// The window of both triggers.
    public var windowMilliseconds: Int

    /// Thresholds from their parts.
    ///
    /// - Complexity: O(1)
    public init(partialStallMilliseconds: Int, completeStallMilliseconds: Int, windowMilliseconds: Int = 1000) {
        self.partialStallMilliseconds = partialStallMilliseconds
        self.completeStallMilliseconds = completeStallMilliseconds
        self.windowMilliseconds = windowMilliseconds
    }

    /// lmkd's defaults (`DEF_PARTIAL_STALL` 70, `DEF_COMPLETE_STALL` 700, `PSI_WINDOW_SIZE_MS` 1000).
    public static let defaults = LMKDStallThresholds(partialStallMilliseconds: 70, completeStallMilliseconds: 700)
    /// lmkd's defaults on a low-RAM device (`DEF_PARTIAL_STALL_LOWRAM` 200).
    public static let lowRAM = LMKDStallThresholds(partialStallMilliseconds: 200, completeStallMilliseconds: 700)

    /// The partial-stall trigger as a share of time, in percent (7 % by default).
    public var partialStallPercent: Double { Double(partialStallMilliseconds) * 100 / Double(windowMilliseconds) }
    /// The complete-stall trigger as a share of time, in percent (70 % by default).
    public var completeStallPercent: Double { Double(completeStallMilliseconds) * 100 / Double(windowMilliseconds) }

    /// The lmkd pressure level `stall` would wake at, reading the 10-second averages as the
    /// closest `/proc/pressure/memory` offers to lmkd's 1-second trigger windows (an
    /// approximation: a trigger fires on a single bad second, which a 10-second average dilutes).
    ///
    /// - Complexity: O(1)
    public func level(of stall: MemoryPressureStall) -> LMKDStallLevel {
        if let full = stall.full, full.avg10 >= completeStallPercent { return .critical }
        if stall.some.avg10 >= partialStallPercent { return .medium }
        return .none
    }
}

/// The pressure levels lmkd's PSI triggers report.
public enum LMKDStallLevel: String, Sendable, Hashable, CaseIterable {
    /// No trigger fired.
    case none
    /// The partial-stall ("some") trigger fired: VMPRESS_LEVEL_MEDIUM.
    case medium
    /// The complete-stall ("full") trigger fired: VMPRESS_LEVEL_CRITICAL.
    case critical
}
