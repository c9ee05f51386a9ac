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
    /// with `launchCost`. Every event is also passed to `onEvents`, in order (for `--events-out`);
    /// `progress` is called now and then with the share of the trace done.
    ///
    /// - Throws: ``ReplayError`` if the policy cannot be used (line 0) or the trace has an action
    ///   the engine refuses for another reason than a kill (a malformed trace).
    /// - Complexity: O(size of the policy) to set up the engine and O(entries) for an oracle's scores, plus
    ///   the engine's cost of each entry (see ``PressureEngine/apply(_:at:)``) and the metrics' cost of
    ///   each event it logs (see ``MetricsCollector/record(_:)``).
    public static func run(
        _ trace: Trace, policy: Policy, launchCost: LaunchCost = .phone, file: String = "<trace>",
        onEvents: (([Event]) -> Void)? = nil, progress: ((Double) -> Void)? = nil
    ) throws(ReplayError) -> SimulationRun {
        let engine: PressureEngine
        do throws(EngineError) {
            engine = try PressureEngine(device: trace.device, policy: policy)
        } catch {
            throw ReplayError(file: file, line: 0, reason: error)
        }
        if Oracle.isClairvoyant(policy) { engine.externalScore = Oracle.score(for: trace, launchCost: launchCost) }
        var player = TracePlayer(engine: engine)
        var collector = MetricsCollector(launchCost: launchCost)
        var timeline: [(time: Double, free: Int64)] = []
        let duration = max(trace.entries.last?.time ?? 0, 1)
        let sampleEvery = duration / Double(timelinePoints)
        var nextSample = 0.0
        let start = DispatchTime.now().uptimeNanoseconds
        for (position, entry) in trace.entries.enumerated() {
            let events: [Event]
            do throws(EngineError) {
                guard let applied = try player.apply(entry) else { continue }
                events = applied
            } catch {
                throw ReplayError(file: file, line: entry.line, reason: error)
            }
            collector.noteAction(entry.action)
            for event in events { collector.record(event) }
            onEvents?(events)
            while entry.time >= nextSample && timeline.count < timelinePoints {
                timeline.append((entry.time, engine.free.value))
                nextSample += sampleEvery
            }
            if let progress, position % 4096 == 0 { progress(Double(position) / Double(trace.entries.count)) }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        collector.finish(at: trace.entries.last?.time ?? 0)
        var metrics = collector.metrics
        metrics.skippedActions = player.skipped
        metrics.actions = trace.entries.count
        metrics.eventsPerSecond = elapsed > 0 ? Double(trace.entries.count) / (elapsed / 1e9) : 0
        metrics.nanosecondsPerDecision = trace.entries.isEmpty ? 0 : elapsed / Double(trace.entries.count)
        return SimulationRun(policy: policy.name, metrics: metrics, freeMemory: timeline)
    }
}
