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

    /// Replays `trace` under `policy`. Every event is also passed to `onEvents`, in order (for
    /// `--events-out`); `progress` is called now and then with the share of the trace done.
    ///
    /// - Throws: ``EngineError`` only if the policy cannot be used (its patterns do not compile);
    ///   refused actions are skipped, never thrown.
    public static func run(
        _ trace: Trace, policy: Policy, onEvents: (([Event]) -> Void)? = nil, progress: ((Double) -> Void)? = nil
    ) throws(EngineError) -> SimulationRun {
        let engine = try PressureEngine(device: trace.device, policy: policy)
        var collector = MetricsCollector()
        var timeline: [(time: Double, free: Int64)] = []
        let duration = max(trace.entries.last?.time ?? 0, 1)
        let sampleEvery = duration / Double(timelinePoints)
        var nextSample = 0.0
        var skipped = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for (position, entry) in trace.entries.enumerated() {
            do {
                try engine.apply(entry.action, at: entry.time)
            } catch {
                skipped += 1
                continue
            }
            let events = engine.takeEvents()
            if case .open(let launch) = entry.action, events.contains(where: Self.isLaunch) {
                collector.noteLaunchViews(launch)
            } else if case .launch(let launch) = entry.action {
                collector.noteLaunchViews(launch)
            }
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
        metrics.skippedActions = skipped
        metrics.actions = trace.entries.count
        metrics.eventsPerSecond = elapsed > 0 ? Double(trace.entries.count) / (elapsed / 1e9) : 0
        metrics.nanosecondsPerDecision = trace.entries.isEmpty ? 0 : elapsed / Double(trace.entries.count)
        return SimulationRun(policy: policy.name, metrics: metrics, freeMemory: timeline)
    }

    private static func isLaunch(_ event: Event) -> Bool {
        if case .callback(_, .didFinishLaunching, _) = event.kind { return true }
        return false
    }
}
