import MemoryPressure

/// Where a replay takes its entries from, one at a time: a trace in memory (``Trace/Cursor``) or
/// a file read as it goes (``TraceReader``). ``Replay`` and ``SimulationRun`` replay either with
/// the same loop.
public protocol TraceEntrySource {
    /// The device the trace runs on.
    var device: Device { get }
    /// Whether reading an entry costs input work (parsing) that engine timings must leave out.
    static var readsInput: Bool { get }
    /// The next entry, or `nil` at the end.
    ///
    /// - Throws: `InputError` for a malformed entry (never, for a trace in memory).
    mutating func next() throws(InputError) -> Trace.Entry?
    /// The error to report when `error` stopped a replay of this source (see
    /// ``TraceReader/wholeFileError(for:)``); a trace in memory reports `error` itself.
    mutating func wholeFileError(for error: any Error) -> any Error
}

extension Trace {
    /// The entries of a trace in memory, one at a time.
    public struct Cursor: TraceEntrySource {
        /// The trace read.
        public let trace: Trace
        private var index = 0

        /// A cursor at the first entry of `trace`.
        ///
        /// - Complexity: O(1)
        public init(_ trace: Trace) { self.trace = trace }

        /// The trace's device.
        public var device: Device { trace.device }

        /// `false`: the entries are already in memory.
        public static var readsInput: Bool { false }

        /// The next entry, or `nil` at the end.
        ///
        /// - Complexity: O(1)
        public mutating func next() throws(InputError) -> Trace.Entry? {
            guard index < trace.entries.count else { return nil }
            defer { index += 1 }
            return trace.entries[index]
        }

        /// `error` itself: a trace in memory has nothing left to check.
        ///
        /// - Complexity: O(1)
        public mutating func wholeFileError(for error: any Error) -> any Error { error }
    }
}

extension TraceReader: TraceEntrySource {
    /// `true`: every entry is parsed from a line.
    public static var readsInput: Bool { true }
}

extension TraceEntrySource {
    /// The next entry, `nil` at the end; for a malformed line, the error a whole-file read would
    /// have reported (``wholeFileError(for:)``).
    mutating func nextEntry() throws -> Trace.Entry? {
        do throws(InputError) {
            return try next()
        } catch {
            throw wholeFileError(for: error)
        }
    }
}
