// The cost of MemoryPressureMetrics (issue 15, item 9): the same generated trace replayed through
// a bare engine, through EngineMetrics with no backend (swift-metrics' no-op handler), and through
// EngineMetrics with swift-prometheus; and one scrape's exposition. See ../../README.md.

import Benchmark
import BenchmarkSupport
import CoreMetrics
import MemoryPressure
import MemoryPressureMetrics
import MemoryPressureSimulation
import Prometheus

/// How the events of each action are drained.
enum Drain: String, CaseIterable {
    /// `engine.takeEvents()`: no metrics at all.
    case bare = "no metrics"
    /// `EngineMetrics.takeEvents()` with swift-metrics' no-op handler (nothing bootstrapped).
    case noBackend = "EngineMetrics, no backend"
    /// `EngineMetrics.takeEvents()` with a swift-prometheus registry.
    case prometheus = "EngineMetrics, swift-prometheus"
}

/// One replay of `Workload.server` (`residentApps` tenants opened first, then one hour of
/// requests) under `Policy.ios4`, the events taken after every action, as the engine benchmarks
/// replay it.
final class MetricsReplayBenchmark {
    static let actionsPerSecond = BenchmarkMetric.custom(
        "actions per second", polarity: .prefersLarger, useScalingFactor: false)
    static let killsPerReplay = BenchmarkMetric.custom(
        "kills per replay", polarity: .prefersSmaller, useScalingFactor: false)

    let residentApps: Int
    let drain: Drain
    var trace = Trace()

    init(residentApps: Int, drain: Drain) {
        self.residentApps = residentApps
        self.drain = drain
    }

    func setUp() {
        var workload = Workload.server
        workload.apps = residentApps
        workload.preload = residentApps
        workload.hours = 1
        trace = WorkloadGenerator(workload: workload).trace(seed: 1)
    }

    func tearDown() { trace = Trace() }

    /// One iteration: engine (and metrics) creation and the whole trace.
    func replay(_ benchmark: Benchmark) {
        let entries = trace.entries
        let device = trace.device
        var kills = 0
        let registry = PrometheusCollectorRegistry()
        let start = MonotonicClock.nanoseconds()
        benchmark.startMeasurement()
        guard let engine = try? PressureEngine(device: device, policy: .ios4) else { fatalError("policy") }
        let metrics: EngineMetrics?
        switch drain {
        case .bare: metrics = nil
        case .noBackend: metrics = try? EngineMetrics(engine: engine, factory: NOOPMetricsHandler.instance)
        case .prometheus:
            metrics = try? EngineMetrics(engine: engine, factory: PrometheusMetricsFactory(registry: registry))
        }
        for entry in entries {
            try? engine.apply(entry.action, at: entry.time)
            let events = metrics?.takeEvents() ?? engine.takeEvents()
            for event in events { if case .kill = event.kind { kills += 1 } }
        }
        benchmark.stopMeasurement()
        let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
        blackHole(engine)
        blackHole(metrics)
        benchmark.measurement(Self.actionsPerSecond, Int((Double(entries.count) / seconds).rounded()))
        benchmark.measurement(Self.killsPerReplay, kills)
    }
}

let benchmarks: @Sendable () -> Void = {
    warnIfBuiltWithInternalChecks()

    let replayConfiguration = Benchmark.Configuration(
        metrics: [
            .wallClock, .mallocCountTotal, MetricsReplayBenchmark.actionsPerSecond,
            MetricsReplayBenchmark.killsPerReplay,
        ],
        timeUnits: .milliseconds, warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(3),
        maxIterations: 30)
    for residentApps in [1_000] {
        for drain in Drain.allCases {
            let state = MetricsReplayBenchmark(residentApps: residentApps, drain: drain)
            Benchmark(
                "Metrics replay: server 1 h N=\(label(residentApps)), \(drain.rawValue)",
                configuration: replayConfiguration
            ) {
                state.replay($0)
            } setup: {
                state.setUp()
            } teardown: {
                state.tearDown()
            }
        }
    }

    // One scrape: the registry's exposition of an engine's metrics, HELP lines added.
    Benchmark(
        "Metrics scrape: exposition with HELP",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, scalingFactor: .one,
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
