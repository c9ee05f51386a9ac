import MemoryPressure

/// A workload as a sequence of timed actions: what `replay` and `simulate` feed the engine, and
/// what the JSON Lines trace format (DESIGN.md, "Trace") holds.
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
        public init(time: Double, action: Action, line: Int = 0) {
            self.time = time
            self.action = action
            self.line = line
        }
    }

    /// The device the trace runs on (the optional first `device` line; ``Device/iPhone4`` if absent).
    public var device: Device
    /// The actions, in time order.
    public var entries: [Entry]

    /// A trace on `device`.
    public init(device: Device = .iPhone4, entries: [Entry] = []) {
        self.device = device
        self.entries = entries
    }
}

/// A malformed trace: the file, the line (and column for syntax errors), and what was expected.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given, or `<trace>`.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, when known.
    public var column: Int?
    /// What was wrong and what was expected.
    public var message: String

    /// A trace error.
    public init(file: String, line: Int, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `trace.jsonl:7:12: expected ',' or '}' …` (column omitted when unknown).
    public var description: String {
        "\(file):\(line)" + (column.map { ":\($0)" } ?? "") + ": " + message
    }
}
