import Benchmark
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureJemalloc
import MemoryPressureSimulation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// 24 simulated hours of a workload under `ios4`, as `mempressure simulate` runs them: the trace is
/// generated in setup (seed 1), and one iteration is one `SimulationRun.run` (a fresh engine,
/// every action applied, refused ones skipped, metrics collected from the event log).
///
/// Reported per run: actions and engine events per second (from a monotonic clock around the
/// run), and the process's peak resident set as the benchmark tool samples it (it includes the
/// trace, the runtime and the pages jemalloc keeps). The run's own peak memory is measured by
/// ``SimulationMemoryMeasurement`` in a clean process.
final class SimulationBenchmark {
    static let actionsPerSecond = BenchmarkMetric.custom(
        "actions per second", polarity: .prefersLarger, useScalingFactor: false)
    static let eventsPerSecond = BenchmarkMetric.custom(
        "events per second", polarity: .prefersLarger, useScalingFactor: false)
    static let actions = BenchmarkMetric.custom("actions per run", polarity: .prefersLarger, useScalingFactor: false)
    static let events = BenchmarkMetric.custom("events per run", polarity: .prefersLarger, useScalingFactor: false)
    static let skipped = BenchmarkMetric.custom(
        "skipped actions per run", polarity: .prefersSmaller, useScalingFactor: false)
    static let kills = BenchmarkMetric.custom("kills per run", polarity: .prefersSmaller, useScalingFactor: false)

    static var metrics: [BenchmarkMetric] {
        [
            .wallClock, .throughput, .peakMemoryResident, .mallocCountTotal, actionsPerSecond, eventsPerSecond, actions,
            events, skipped, kills,
        ]
    }

    let workload: Workload
    var trace = Trace()
    var policy: Policy?

    init(workload: Workload) { self.workload = workload }

    /// The trace every run replays: 24 hours of `workload`, seed 1.
    static func trace(_ workload: Workload) -> Trace {
        WorkloadGenerator(workload: workload).trace(seed: 1)
    }

    func setUp() {
        trace = Self.trace(workload)
        policy = Policy.ios4
    }

    func tearDown() { trace = Trace() }

    func run(_ benchmark: Benchmark) {
        let trace = self.trace
        let policy = self.policy!
        do {
            let start = MonotonicClock.nanoseconds()
            benchmark.startMeasurement()
            let run = try SimulationRun.run(trace, policy: policy)
            benchmark.stopMeasurement()
            let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
            benchmark.measurement(Self.actionsPerSecond, Int((Double(run.metrics.actions) / seconds).rounded()))
            benchmark.measurement(Self.eventsPerSecond, Int((Double(run.metrics.events) / seconds).rounded()))
            benchmark.measurement(Self.actions, run.metrics.actions)
            benchmark.measurement(Self.events, run.metrics.events)
            benchmark.measurement(Self.skipped, run.metrics.skippedActions)
            benchmark.measurement(Self.kills, run.metrics.kills)
            blackHole(run)
        } catch {
            fatalError("simulation benchmark: \(error)")
        }
    }
}

/// The peak memory of one 24-hour run, measured in a clean process (``CleanProcess``): jemalloc's
/// peak of (bytes allocated − bytes freed) by the thread doing the run, from just before it
/// (`thread.peak.reset`) to its end (`thread.peak.read`, accurate to about 100 KiB). It covers the
/// engine, its event batches, the metrics and the free-memory timeline; the trace, generated
/// before, is reported apart (its `stats.allocated`), and so is the process's peak resident set
/// (`VmHWM`: runtime, trace and run together).
enum SimulationMemoryMeasurement {
    static let workloads: [String: Workload] = ["phone": .phone, "server": .server]
    static let names = ["runPeak", "trace", "processPeakResident"]
    static let metrics: [String: BenchmarkMetric] = [
        "runPeak": .custom("run peak allocated bytes", polarity: .prefersSmaller, useScalingFactor: false),
        "trace": .custom("trace allocated bytes", polarity: .prefersSmaller, useScalingFactor: false),
        "processPeakResident": .custom(
            "process peak resident bytes", polarity: .prefersSmaller, useScalingFactor: false),
    ]

    /// In the clean process.
    static func measure(workload name: String) -> [(String, Int)] {
        guard let workload = workloads[name] else { fatalError("unknown workload \(name)") }
        do {
            let before = try JemallocProcessStatistics.allocated()
            let trace = SimulationBenchmark.trace(workload)
            let traceBytes = try JemallocProcessStatistics.allocated() - before
            try JemallocProcessStatistics.resetThreadPeak()
            let run = try SimulationRun.run(trace, policy: .ios4)
            let peak = try JemallocProcessStatistics.threadPeak()
            withExtendedLifetime((trace, run)) {}
            return [("runPeak", peak), ("trace", traceBytes), ("processPeakResident", peakResident())]
        } catch {
            fatalError("simulation memory: \(error)")
        }
    }

    /// In the benchmark process: one clean process per iteration.
    static func run(_ benchmark: Benchmark, workload: String) {
        let figures = CleanProcess.measure("simulation-memory:\(workload)")
        for name in names {
            guard let value = figures[name] else { fatalError("simulation memory: no figure \(name)") }
            benchmark.measurement(metrics[name]!, value)
        }
    }

    /// `VmHWM` of this process, in bytes.
    static func peakResident() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        let kib = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kib * 1024
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
