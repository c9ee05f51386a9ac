import Foundation
import MemoryPressure

/// One replay of a trace under a policy for a simulation: like ``Replay``, but actions the policy
/// made impossible (they address an app it killed) are skipped and counted, metrics are computed
/// from the event log as it is produced, and free memory is sampled for charts.
public struct SimulationRun: Sendable {
    /// The policy's name.
    public var policy: String
    /// The figures.
    public var metrics: Metrics
    /// Free memory over time: (seconds, bytes), at most ``timelinePoints`` samples, evenly spaced.
    public var freeMemory: [(time: Double, free: Int64)]

    /// How many free-memory samples a run keeps.
    public static let timelinePoints = 400

    /// Replays `trace` under `policy` with the trace semantics of ``TracePlayer``, pricing launches
    /// with `launchCost`; the metrics count from `warmUp` seconds on (the entries before are
    /// replayed, so the engine and a learning policy see them, but not counted). `scores`, when
    /// given, scores the bands ordered by `BandOrder.externalScore` (the ``Informed`` reference);
    /// otherwise a clairvoyant policy gets the ``Oracle``'s. Every event is also passed to
    /// `onEvents`, in order (for `--events-out`);
    /// `progress` is called now and then with the share of the trace done.
    ///
    /// - Throws: ``ReplayError`` if the policy cannot be used (line 0) or the trace has an action
    ///   the engine refuses for another reason than a kill (a malformed trace).
    /// - Complexity: O(size of the policy) to set up the engine and O(entries) for an oracle's scores, plus
    ///   the engine's cost of each entry (see `PressureEngine.apply(_:at:)`) and the metrics' cost of
    ///   each event it logs (see ``MetricsCollector/record(_:)``).
    public static func run(
        _ trace: Trace, policy: Policy, launchCost: LaunchCost = .phone, file: String = "<trace>", warmUp: Double = 0,
        scores: (@Sendable (AppID, Bytes, Double) -> Double)? = nil, onEvents: (([Event]) -> Void)? = nil,
        progress: ((Double) -> Void)? = nil
    ) throws(ReplayError) -> SimulationRun {
        var cursor = Trace.Cursor(trace)
        let summary = TraceSummary(
            device: trace.device, actions: trace.entries.count, lastTime: trace.entries.last?.time ?? 0,
            openTimes: Oracle.isClairvoyant(policy) ? Oracle.openTimes(of: trace) : nil)
        do {
            return try run(
                &cursor, summary: summary, policy: policy, launchCost: launchCost, file: file, warmUp: warmUp,
                scores: scores, onEvents: onEvents, progress: progress)
        } catch let error as ReplayError {
            throw error
        } catch {
            preconditionFailure("a trace in memory has no input to fail: \(error)")
        }
    }

    /// Replays the entries of `source` (a trace in memory, or a ``TraceReader`` reading a file
    /// line by line, so memory holds one line and the engine) as ``run(_:policy:launchCost:file:warmUp:scores:onEvents:progress:)``
    /// does; `summary` is what must be known before the first action (from a first pass over a file).
    /// For a source that parses its input, the engine timings (``Metrics/eventsPerSecond``,
    /// ``Metrics/nanosecondsPerDecision``) count the engine's work only, not the parsing.
    ///
    /// - Throws: ``ReplayError`` as the in-memory form; `InputError` for a malformed line (for a
    ///   ``TraceReader``, the error a whole-file read would have reported first).
    /// - Complexity: O(entries × (engine cost per action + length of a line))
    public static func run<Source: TraceEntrySource>(
        _ source: inout Source, summary: TraceSummary, policy: Policy, launchCost: LaunchCost = .phone,
        file: String = "<trace>", warmUp: Double = 0, scores: (@Sendable (AppID, Bytes, Double) -> Double)? = nil,
        onEvents: (([Event]) -> Void)? = nil, progress: ((Double) -> Void)? = nil
    ) throws -> SimulationRun {
        let engine: PressureEngine
        do throws(EngineError) {
            engine = try PressureEngine(device: summary.device, policy: policy)
        } catch {
            throw source.wholeFileError(for: ReplayError(file: file, line: 0, reason: error))
        }
        if let scores {
            engine.externalScore = scores
        } else if Oracle.isClairvoyant(policy) {
            precondition(!Informed.isInformed(policy), "the informed reference needs its user's scores")
            precondition(summary.openTimes != nil, "a clairvoyant policy needs the trace's open times")
            Oracle.equip(engine, policy: policy, openTimes: summary.openTimes ?? [:], launchCost: launchCost)
        }
        var player = TracePlayer(engine: engine)
        var collector = MetricsCollector(launchCost: launchCost)
        var timeline: [(time: Double, free: Int64)] = []
        let duration = max(summary.lastTime, 1)
        let sampleEvery = duration / Double(timelinePoints)
        var nextSample = 0.0
        let timesEachAction = Source.readsInput
        var engineNanoseconds: UInt64 = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var position = -1
        var warmingUp = warmUp > 0
        var stallAtStart = engine.pressureStallFigures
        while true {
            guard let entry = try source.nextEntry() else { break }
            position += 1
            if warmingUp && entry.time >= warmUp {
                collector.startCounting(at: warmUp)
                stallAtStart = engine.pressureStallFigures
                engine.restartPressureStallPeaks()
                warmingUp = false
            }
            let actionStart = timesEachAction ? DispatchTime.now().uptimeNanoseconds : 0
            let events: [Event]
            do throws(EngineError) {
                guard let applied = try player.apply(entry) else { continue }
                events = applied
            } catch {
                throw source.wholeFileError(
                    for: ReplayError(file: file, line: entry.line, reason: error, time: entry.time))
            }
            collector.noteAction(entry.action)
            for event in events { collector.record(event) }
            if timesEachAction { engineNanoseconds += DispatchTime.now().uptimeNanoseconds - actionStart }
            onEvents?(events)
            while entry.time >= nextSample && timeline.count < timelinePoints {
                timeline.append((entry.time, engine.free.value))
                nextSample += sampleEvery
            }
            if let progress, position % 4096 == 0 { progress(Double(position) / Double(summary.actions)) }
        }
        let elapsed = Double(timesEachAction ? engineNanoseconds : DispatchTime.now().uptimeNanoseconds - start)
        // A trace that ends within its warm-up counts nothing.
        if warmingUp { collector.startCounting(at: summary.lastTime) }
        collector.finish(at: summary.lastTime)
        let actions = position + 1
        var metrics = collector.metrics
        if warmingUp {
            stallAtStart = engine.pressureStallFigures
            engine.restartPressureStallPeaks()
        }
        if let start = stallAtStart { metrics.pressureStall = engine.pressureStallFigures?.since(start) }
        metrics.skippedActions = player.skipped
        metrics.actions = actions
        metrics.eventsPerSecond = elapsed > 0 ? Double(actions) / (elapsed / 1e9) : 0
        metrics.nanosecondsPerDecision = actions == 0 ? 0 : elapsed / Double(actions)
        return SimulationRun(policy: policy.name, metrics: metrics, freeMemory: timeline)
    }
}
