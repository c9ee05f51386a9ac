import MemoryPressure

/// An action of a trace that the engine refused: the file and line, and why.
public struct ReplayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The trace file's name.
    public var file: String
    /// The 1-based line of the refused action; 0 for a trace not read from a file (a generated
    /// sample) or for a policy refused before any action.
    public var line: Int
    /// Why the engine refused it.
    public var reason: EngineError
    /// The refused action's time, in seconds of the trace, where there is one.
    public var time: Double?

    /// An error; see each property.
    ///
    /// - Complexity: O(1)
    public init(file: String, line: Int, reason: EngineError, time: Double? = nil) {
        self.file = file
        self.line = line
        self.reason = reason
        self.time = time
    }

    /// `trace.jsonl:12: cannot launch com.a: it is already running (suspended)`; without a line,
    /// `2956: the action at t = 122888.45 s: music1363 is not running` (the action's time) or
    /// `2956: …` (a policy refused).
    public var description: String {
        if line > 0 { return "\(file):\(line): \(reason)" }
        guard let time else { return "\(file): \(reason)" }
        return "\(file): the action at t = \(Event.number((time * 100).rounded() / 100)) s: \(reason)"
    }
}

/// Runs a trace through a fresh engine and hands every event to a sink, in order, with the trace
/// semantics of ``TracePlayer``: actions aimed at an app the policy killed are skipped and counted.
public enum Replay {
    /// What a replay ended with.
    public struct Outcome {
        /// The engine after the last action.
        public var engine: PressureEngine
        /// Actions skipped because they addressed an app the policy had killed.
        public var skipped: Int
    }

    /// Replays `trace` under `policy`, calling `sink` with each batch of events as it is produced
    /// (so the whole log need not be held in memory).
    ///
    /// - Throws: ``ReplayError`` for the first action the engine refuses for another reason than
    ///   a kill (events before it have been delivered to `sink`), or the policy's `EngineError`
    ///   wrapped at line 0.
    /// - Complexity: O(entries × engine cost per action)
    @discardableResult
    public static func run(
        _ trace: Trace,
        policy: Policy,
        file: String = "<trace>",
        sink: ([Event]) throws -> Void
    ) throws -> Outcome {
        var cursor = Trace.Cursor(trace)
        let openTimes = Oracle.isClairvoyant(policy) ? Oracle.openTimes(of: trace) : nil
        return try run(&cursor, policy: policy, openTimes: openTimes, file: file, sink: sink)
    }

    /// Replays the entries of `source` (a trace in memory, or a ``TraceReader`` reading a file
    /// line by line) under `policy`, one at a time, calling `sink` with each batch of events: a
    /// streamed source is replayed with the memory of one line and the engine, whatever its length.
    ///
    /// - Parameters:
    ///   - source: the entries to replay, in time order.
    ///   - policy: the policy the engine follows.
    ///   - file: the name errors give the trace.
    ///   - openTimes: for a clairvoyant policy (``Oracle/isClairvoyant(_:)``), the trace's open
    ///     times (``Oracle/openTimes(of:)``, or ``TraceSummary/openTimes``); ignored otherwise.
    ///   - sink: called with the events of each entry, in order.
    /// - Throws: `InputError` for a malformed line of a streamed source, ``ReplayError`` as
    ///   ``run(_:policy:file:sink:)``; for a ``TraceReader``, the error a whole-file read would
    ///   have reported first (``TraceReader/wholeFileError(for:)``). Errors of `sink` pass through.
    /// - Complexity: O(entries × (engine cost per action + length of a line))
    @discardableResult
    public static func run<Source: TraceEntrySource>(
        _ source: inout Source,
        policy: Policy,
        openTimes: [AppID: [Double]]?,
        file: String = "<trace>",
        sink: ([Event]) throws -> Void
    ) throws -> Outcome {
        let engine: PressureEngine
        do {
            engine = try PressureEngine(device: source.device, policy: policy)
        } catch {
            throw source.wholeFileError(for: ReplayError(file: file, line: 0, reason: error))
        }
        if Oracle.isClairvoyant(policy) {
            precondition(openTimes != nil, "a clairvoyant policy needs the trace's open times")
            Oracle.equip(engine, policy: policy, openTimes: openTimes ?? [:], launchCost: .phone)
        }
        var player = TracePlayer(engine: engine)
        while true {
            guard let entry = try source.nextEntry() else { break }
            let events: [Event]?
            do throws(EngineError) {
                events = try player.apply(entry)
            } catch {
                throw source.wholeFileError(
                    for: ReplayError(file: file, line: entry.line, reason: error, time: entry.time))
            }
            if let events { try sink(events) }
        }
        return Outcome(engine: engine, skipped: player.skipped)
    }

    /// Replays `trace` and returns the whole event log.
    ///
    /// - Throws: ``ReplayError`` for the first action the engine refuses for another reason than a kill.
    /// - Complexity: the engine's cost per entry (see `PressureEngine.apply(_:at:)`), plus O(events)
    ///   for the log.
    public static func events(_ trace: Trace, policy: Policy, file: String = "<trace>") throws -> [Event] {
        var log: [Event] = []
        try run(trace, policy: policy, file: file) { log += $0 }
        return log
    }
}
