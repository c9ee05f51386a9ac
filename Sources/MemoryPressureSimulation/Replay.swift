import MemoryPressure

/// An action of a trace that the engine refused: the file and line, and why.
public struct ReplayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The trace file's name.
    public var file: String
    /// The 1-based line of the refused action.
    public var line: Int
    /// Why the engine refused it.
    public var reason: EngineError

    /// `trace.jsonl:12: cannot launch com.a: it is already running (suspended)`.
    public var description: String { "\(file):\(line): \(reason)" }
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
    ///   a kill (events before it have been delivered to `sink`), or the policy's ``EngineError``
    ///   wrapped at line 0.
    /// - Complexity: O(entries × engine cost per action)
    @discardableResult
    public static func run(
        _ trace: Trace,
        policy: Policy,
        file: String = "<trace>",
        sink: ([Event]) throws -> Void
    ) throws -> Outcome {
        let engine: PressureEngine
        do {
            engine = try PressureEngine(device: trace.device, policy: policy)
        } catch {
            throw ReplayError(file: file, line: 0, reason: error)
        }
        if Oracle.isClairvoyant(policy) { engine.externalScore = Oracle.score(for: trace, launchCost: .phone) }
        var player = TracePlayer(engine: engine)
        for entry in trace.entries {
            let events: [Event]?
            do throws(EngineError) {
                events = try player.apply(entry)
            } catch {
                throw ReplayError(file: file, line: entry.line, reason: error)
            }
            if let events { try sink(events) }
        }
        return Outcome(engine: engine, skipped: player.skipped)
    }

    /// Replays `trace` and returns the whole event log.
    ///
    /// - Throws: ``ReplayError`` for the first action the engine refuses for another reason than a kill.
    public static func events(_ trace: Trace, policy: Policy, file: String = "<trace>") throws -> [Event] {
        var log: [Event] = []
        try run(trace, policy: policy, file: file) { log += $0 }
        return log
    }
}
