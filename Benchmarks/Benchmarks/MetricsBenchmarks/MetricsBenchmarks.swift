// The cost of MemoryPressureMetrics (issue 15, item 9): the same generated traces replayed through
// a bare engine, through EngineMetrics with no backend (swift-metrics' no-op handler), and through
// EngineMetrics with swift-prometheus; and one scrape's exposition. See ../../README.md.

import Benchmark
import BenchmarkSupport
import CoreMetrics
import MemoryPressure
import MemoryPressureMetrics
import MemoryPressureSimulation
import Prometheus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the events of each action are drained.
enum Drain: String, CaseIterable {
    /// `engine.takeEvents()`: no metrics at all.
    case bare = "no metrics"
    /// `EngineMetrics.takeEvents()` with swift-metrics' no-op handler (nothing bootstrapped).
    case noBackend = "EngineMetrics, no backend"
    /// `EngineMetrics.takeEvents()` with a swift-prometheus registry.
    case prometheus = "EngineMetrics, swift-prometheus"
}

/// Replays of `Workload.phone` (24 hours, users 1 to 5: the traces `simulate --seed 1…5` replays)
/// under `Policy.ios4`, the events taken after every action, as `SimulationRun` replays them:
/// each iteration creates the engines (and their metrics) and replays the five traces.
final class MetricsReplayBenchmark {
    static let actionsPerSecond = BenchmarkMetric.custom(
        "actions per second", polarity: .prefersLarger, useScalingFactor: false)
    static let killsPerReplay = BenchmarkMetric.custom(
        "kills per iteration", polarity: .prefersSmaller, useScalingFactor: false)
    static let warningsPerReplay = BenchmarkMetric.custom(
        "warnings per iteration", polarity: .prefersSmaller, useScalingFactor: false)

    /// The users replayed per iteration.
    static let users: ClosedRange<UInt64> = 1...5

    let drain: Drain
    var traces: [Trace] = []

    init(drain: Drain) { self.drain = drain }

    func setUp() {
        traces = Self.users.map { WorkloadGenerator(workload: .phone).trace(seed: $0) }
    }

    func tearDown() { traces = [] }

    /// One iteration: for each user, a new engine (and metrics) and the whole day.
    func replay(_ benchmark: Benchmark) {
        var kills = 0
        var warnings = 0
        var actions = 0
        let registry = PrometheusCollectorRegistry()
        let start = MonotonicClock.nanoseconds()
        benchmark.startMeasurement()
        for trace in traces {
            guard let engine = try? PressureEngine(device: trace.device, policy: .ios4) else { fatalError("policy") }
            let metrics: EngineMetrics?
            switch drain {
            case .bare: metrics = nil
            case .noBackend: metrics = try? EngineMetrics(engine: engine, factory: NOOPMetricsHandler.instance)
            case .prometheus:
                metrics = try? EngineMetrics(engine: engine, factory: PrometheusMetricsFactory(registry: registry))
            }
            for entry in trace.entries {
                try? engine.apply(entry.action, at: entry.time)
                let events = metrics?.takeEvents() ?? engine.takeEvents()
                for event in events {
                    switch event.kind {
                    case .kill: kills += 1
                    case .callback(_, .didReceiveMemoryWarning, _): warnings += 1
                    default: break
                    }
                }
            }
            actions += trace.entries.count
            blackHole(engine)
            blackHole(metrics)
        }
        benchmark.stopMeasurement()
        let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
        blackHole(registry)
        benchmark.measurement(Self.actionsPerSecond, Int((Double(actions) / seconds).rounded()))
        benchmark.measurement(Self.killsPerReplay, kills)
        benchmark.measurement(Self.warningsPerReplay, warnings)
    }
}

let benchmarks: @Sendable () -> Void = {
    warnIfBuiltWithInternalChecks()

    let replayConfiguration = Benchmark.Configuration(
        metrics: [
            .wallClock, .throughput, .mallocCountTotal, MetricsReplayBenchmark.actionsPerSecond,
            MetricsReplayBenchmark.killsPerReplay,
        ],
        timeUnits: .milliseconds, warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(5),
        maxIterations: 50)
    for drain in Drain.allCases {
        let state = MetricsReplayBenchmark(drain: drain)
        Benchmark("Metrics replay: phone 24 h x5 users, \(drain.rawValue)", configuration: replayConfiguration) {
            state.replay($0)
        } setup: {
            state.setUp()
        } teardown: {
            state.tearDown()
        }
    }

    // One scrape: the registry's exposition of an engine's metrics, HELP lines added.
    Benchmark(
        "Metrics scrape: exposition with HELP",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .microseconds, scalingFactor: .one,
            maxDuration: .seconds(2), maxIterations: 10_000)
    ) { benchmark in
        let registry = PrometheusCollectorRegistry()
        guard let engine = try? PressureEngine(device: .iPhone4, policy: .ios4),
            let metrics = try? EngineMetrics(engine: engine, factory: PrometheusMetricsFactory(registry: registry))
        else { fatalError("metrics") }
        metrics.update()
        let catalog = EngineMetrics.catalog()
        benchmark.startMeasurement()
        let body = MetricDescription.addingHelp(to: registry.emitToBuffer(), from: catalog)
        benchmark.stopMeasurement()
        blackHole(body)
    }
}

/// A monotonic clock in nanoseconds (`CLOCK_MONOTONIC`).
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
