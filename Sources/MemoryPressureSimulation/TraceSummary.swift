import MemoryPressure

/// What a replay must know of a trace before its first action, found by one streamed pass over
/// the file: the length and the end time (``SimulationRun`` spaces its free-memory samples over
/// the trace's duration) and, for the clairvoyant oracle, every open. `compare --trace` reads a
/// trace file once for its summary and then once per policy, so no trace is ever held whole.
public struct TraceSummary: Sendable {
    /// The device of the trace.
    public var device: Device
    /// The number of entries (actions).
    public var actions = 0
    /// The time of the last entry (0 for an empty trace).
    public var lastTime = 0.0
    /// The time of every `open` and `launch` of every app, when asked for: all that the
    /// clairvoyant oracle reads of a trace (``Oracle/openTimes(of:)``), so it knows the future
    /// with 8 bytes an open instead of the whole trace in memory.
    public var openTimes: [AppID: [Double]]?

    /// A summary from its parts (for a trace in memory).
    ///
    /// - Complexity: O(1)
    public init(device: Device, actions: Int, lastTime: Double, openTimes: [AppID: [Double]]?) {
        self.device = device
        self.actions = actions
        self.lastTime = lastTime
        self.openTimes = openTimes
    }

    /// Reads `reader` to its end.
    ///
    /// - Parameters:
    ///   - reader: the trace file's reader, from its first line.
    ///   - keepingOpens: whether to keep ``openTimes`` (for a clairvoyant policy).
    /// - Throws: `InputError` for the first malformed line.
    /// - Complexity: O(length of the trace); memory O(opens) with `keepingOpens`, else O(1)
    ///   beyond the reader's.
    public init(reading reader: inout TraceReader, keepingOpens: Bool) throws(InputError) {
        device = reader.device
        var opens: [AppID: [Double]] = [:]
        while let entry = try reader.next() {
            actions += 1
            lastTime = entry.time
            if keepingOpens { Oracle.noteOpen(entry, in: &opens) }
        }
        device = reader.device
        openTimes = keepingOpens ? opens : nil
    }
}
