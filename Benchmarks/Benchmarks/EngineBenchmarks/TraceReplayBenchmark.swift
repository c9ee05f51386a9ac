import Benchmark
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Engine throughput: a generated server trace (`Workload.server` with `residentApps` tenants, all
/// of them opened at the start, then one hour of requests) replayed through a fresh
/// `PressureEngine` under `Policy.ios4`, the way `Replay`/`SimulationRun` drive it: every action
/// applied with `apply(_:at:)`, an action the engine refuses is skipped, and the events are taken
/// after every action (`takeEvents()`), so the log never accumulates.
///
/// Two forms: the whole trace (engine creation and the preload included), and the hour after the
/// preload only, measured on an engine that was created and preloaded outside the measurement.
final class TraceReplayBenchmark {
    /// The custom metrics every replay reports, per iteration.
    static let actionsPerSecond = BenchmarkMetric.custom(
        "actions per second", polarity: .prefersLarger, useScalingFactor: false)
    static let eventsPerSecond = BenchmarkMetric.custom(
        "events per second", polarity: .prefersLarger, useScalingFactor: false)
    static let actionsPerReplay = BenchmarkMetric.custom(
        "actions per replay", polarity: .prefersLarger, useScalingFactor: false)
    static let eventsPerReplay = BenchmarkMetric.custom(
        "events per replay", polarity: .prefersLarger, useScalingFactor: false)
    static let skippedPerReplay = BenchmarkMetric.custom(
        "skipped actions per replay", polarity: .prefersSmaller, useScalingFactor: false)

    let residentApps: Int
    var trace = Trace()
    var policy: Policy?
    /// The index of the first entry after the preload (the opens and the Home that follows them).
    var afterPreload = 0
    /// A preloaded engine for the next "after preload" iteration.
    var prepared: PressureEngine?

    init(residentApps: Int) { self.residentApps = residentApps }

    /// The workload of this benchmark: the server profile with `residentApps` tenants, one hour.
    static func workload(residentApps: Int) -> Workload {
        var workload = Workload.server
        workload.apps = residentApps
        workload.preload = residentApps
        workload.hours = 1
        return workload
    }

    func setUp() {
        let workload = Self.workload(residentApps: residentApps)
        trace = WorkloadGenerator(workload: workload).trace(seed: 1)
        policy = Policy.ios4
        // The generator emits `preload` opens, then one Home, then the hour of requests.
        afterPreload = workload.preload + 1
        precondition(trace.entries.count > afterPreload, "the trace has no entries after its preload")
        if case .home = trace.entries[afterPreload - 1].action {
        } else {
            fatalError("replay benchmark: expected the preload to end with a Home at entry \(afterPreload - 1)")
        }
    }

    func tearDown() {
        trace = Trace()
        prepared = nil
    }

    /// An engine for the trace's device that has applied entries `0..<end`.
    func preloadedEngine(replaying end: Int) -> PressureEngine {
        guard let engine = try? PressureEngine(device: trace.device, policy: policy!) else {
            fatalError("replay benchmark: the policy does not compile")
        }
        for entry in trace.entries[0..<end] {
            try? engine.apply(entry.action, at: entry.time)
            _ = engine.takeEvents()
        }
        return engine
    }

    /// One iteration: the whole trace, engine creation included.
    func replayWhole(_ benchmark: Benchmark) {
        let entries = trace.entries
        let policy = self.policy!
        let device = trace.device
        var events = 0
        var skipped = 0
        let start = MonotonicClock.nanoseconds()
        benchmark.startMeasurement()
        guard let engine = try? PressureEngine(device: device, policy: policy) else { fatalError("policy") }
        for entry in entries {
            do {
                try engine.apply(entry.action, at: entry.time)
            } catch {
                skipped += 1
            }
            events += engine.takeEvents().count
        }
        benchmark.stopMeasurement()
        let elapsed = MonotonicClock.nanoseconds() - start
        blackHole(engine)
        report(benchmark, actions: entries.count, events: events, skipped: skipped, nanoseconds: elapsed)
    }

    /// One iteration: the hour after the preload, on an engine preloaded outside the measurement.
    func replayAfterPreload(_ benchmark: Benchmark) {
        let engine = prepared ?? preloadedEngine(replaying: afterPreload)
        prepared = nil
        var events = 0
        var skipped = 0
        trace.entries.withUnsafeBufferPointer { all in
            let entries = UnsafeBufferPointer(rebasing: all[afterPreload...])
            let start = MonotonicClock.nanoseconds()
            benchmark.startMeasurement()
            for entry in entries {
                do {
                    try engine.apply(entry.action, at: entry.time)
                } catch {
                    skipped += 1
                }
                events += engine.takeEvents().count
            }
            benchmark.stopMeasurement()
            let elapsed = MonotonicClock.nanoseconds() - start
            report(benchmark, actions: entries.count, events: events, skipped: skipped, nanoseconds: elapsed)
        }
        blackHole(engine)
        // Prepare the next iteration's engine now, outside the measurement.
        prepared = preloadedEngine(replaying: afterPreload)
    }

    private func report(_ benchmark: Benchmark, actions: Int, events: Int, skipped: Int, nanoseconds: UInt64) {
        let seconds = Double(nanoseconds) / 1e9
        benchmark.measurement(Self.actionsPerSecond, Int((Double(actions) / seconds).rounded()))
        benchmark.measurement(Self.eventsPerSecond, Int((Double(events) / seconds).rounded()))
        benchmark.measurement(Self.actionsPerReplay, actions)
        benchmark.measurement(Self.eventsPerReplay, events)
        benchmark.measurement(Self.skippedPerReplay, skipped)
    }
}

/// A monotonic clock in nanoseconds (`CLOCK_MONOTONIC`), read around the measured region to turn
/// counts into rates.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
