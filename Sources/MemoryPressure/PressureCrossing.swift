/// A simulated pressure-stall figure crossing a threshold of the policy's: lmkd's PSI triggers
/// (``Policy/psi``: `psi_partial_stall_ms` on the "some" stall and `psi_complete_stall_ms` on the
/// "full" stall of a window, `PSI_WINDOW_SIZE_MS`) or systemd-oomd's limit on the "full" stall's
/// 10-second average (``Policy/memoryPressureLimit``). Only crossings are logged, not every
/// reading, so a log stays small. Figures read as `/proc/pressure/memory` and `mempressure watch`
/// print them: `some` or `full`, a share of the window in percent.
public struct PressureCrossing: Sendable, Hashable {
    /// Which stall: PSI's `some` (at least one task waiting for memory) or `full` (every
    /// non-idle task waiting at once).
    public enum Stall: String, Sendable, Hashable, CaseIterable {
        /// At least one task stalled on memory.
        case some
        /// Every non-idle task stalled on memory at once.
        case full
    }

    /// Which way the figure crossed its threshold.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// It reached or passed the threshold (lmkd's trigger fires; oomd's average is above its limit).
        case up
        /// It fell back below the threshold (lmkd's window ended; oomd's average is at or below its limit).
        case down
    }

    /// The resource under pressure; the simulator models memory only (`memory`).
    public var resource: String
    /// The stall whose figure crossed.
    public var stall: Stall
    /// The window the figure is taken over, as PSI names it: `avg10` (the kernel's running
    /// 10-second average, which oomd reads) or the length of lmkd's trigger window (`1s`).
    public var window: String
    /// The figure after the crossing: the stall's share of the window, in percent (0–100).
    public var percent: Double
    /// The policy's threshold, in percent of the same window (lmkd's 70 ms in 1 s: 7).
    public var threshold: Double
    /// Which way it crossed.
    public var direction: Direction
    /// Seconds of this stall since the engine started (PSI's `total`, in seconds).
    public var total: Double
    /// The running averages of the "some" stall at the crossing, as `/proc/pressure/memory`'s
    /// `some` line prints them; `nil` where the policy's model has no "some" stall (systemd-oomd's).
    public var someAverages: PressureStallAverages?
    /// The running averages of the "full" stall at the crossing (`/proc/pressure/memory`'s `full` line).
    public var fullAverages: PressureStallAverages?

    /// A crossing from its parts.
    ///
    /// - Complexity: O(1)
    public init(
        resource: String = "memory", stall: Stall, window: String, percent: Double, threshold: Double,
        direction: Direction, total: Double, someAverages: PressureStallAverages? = nil,
        fullAverages: PressureStallAverages? = nil
    ) {
        self.resource = resource
        self.stall = stall
        self.window = window
        self.percent = percent
        self.threshold = threshold
        self.direction = direction
        self.total = total
        self.someAverages = someAverages
        self.fullAverages = fullAverages
    }
}
