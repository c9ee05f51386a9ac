import MemoryPressure

/// A workload as a sequence of timed actions: what `replay` and `simulate` feed the engine, and
/// what the JSON Lines trace format (docs/DESIGN.md, "Trace") holds.
public struct Trace: Sendable, Hashable {
    /// One timed action, with the line it came from (0 when built in code).
    public struct Entry: Sendable, Hashable {
        /// Seconds since the start of the trace.
        public var time: Double
        /// What happens.
        public var action: Action
        /// The 1-based line of the trace file, or 0.
        public var line: Int

        /// An entry at `time`.
        ///
        /// - Complexity: O(1)
        public init(time: Double, action: Action, line: Int = 0) {
            self.time = time
            self.action = action
            self.line = line
        }
    }

    /// The device the trace runs on (the optional first `device` line; `Device.iPhone4` if absent).
    public var device: Device
    /// The actions, in time order.
    public var entries: [Entry]

    /// A trace on `device`.
    ///
    /// - Complexity: O(1)
    public init(device: Device = .iPhone4, entries: [Entry] = []) {
        self.device = device
        self.entries = entries
    }
}
