/// Pressure stall information for memory (`/proc/pressure/memory`, Linux 4.20+ with PSI enabled):
/// the share of time tasks were stalled waiting for memory.
public struct MemoryPressureStall: Hashable, Sendable {
    /// One line of a PSI file.
    public struct Line: Hashable, Sendable {
        /// Percentage of the last 10 seconds stalled.
        public var avg10: Double
        /// Percentage of the last 60 seconds stalled.
        public var avg60: Double
        /// Percentage of the last 300 seconds stalled.
        public var avg300: Double
        /// Total stall time since boot, in microseconds.
        public var totalMicroseconds: UInt64

        /// A line from its parts.
        ///
        /// - Complexity: O(1)
        public init(avg10: Double, avg60: Double, avg300: Double, totalMicroseconds: UInt64) {
            self.avg10 = avg10
            self.avg60 = avg60
            self.avg300 = avg300
            self.totalMicroseconds = totalMicroseconds
        }
    }

    /// Time at least one task was stalled on memory (`some`).
    public var some: Line
    /// Time all non-idle tasks were stalled on memory at once (`full`); `nil` if not reported.
    public var full: Line?

    /// Stall information from its parts.
    ///
    /// - Complexity: O(1)
    public init(some: Line, full: Line?) {
        self.some = some
        self.full = full
    }
}
