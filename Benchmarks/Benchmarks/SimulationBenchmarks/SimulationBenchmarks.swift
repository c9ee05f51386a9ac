// Benchmarks of simulations (issue 5): 24 hours of the phone and server workloads, and the engine's
// bytes per tracked app. This executable links MemoryPressureJemalloc, so jemalloc is the process's
// malloc and its statistics measure memory. See ../../README.md for the measured figures.

import Benchmark
import BenchmarkSupport
import MemoryPressure
import MemoryPressureJemalloc
import MemoryPressureSimulation

let benchmarks: @Sendable () -> Void = {
    warnIfBuiltWithInternalChecks()
    // A copy of this executable started to measure memory does that and exits here.
    CleanProcess.runIfChild()

    let simulationConfiguration = Benchmark.Configuration(
        metrics: SimulationBenchmark.metrics, timeUnits: .nanoseconds, warmupIterations: 1, scalingFactor: .one,
        maxDuration: .seconds(10), maxIterations: 10)
    let workloads = [
        ("phone, one user-day", "phone", Workload.phone), ("server, 10,000 tenants", "server", Workload.server),
    ]
    for (name, _, workload) in workloads {
        let state = SimulationBenchmark(workload: workload)
        Benchmark("Simulation 24 h: \(name)", configuration: simulationConfiguration) { benchmark in
            state.run(benchmark)
        } setup: {
            state.setUp()
        } teardown: {
            state.tearDown()
        }
    }

    // Compression's cost: each kill-only policy and its compressing variants, 30 users each.
    let compressionConfiguration = Benchmark.Configuration(
        metrics: CompressionCostBenchmark.metrics, timeUnits: .milliseconds, warmupIterations: 1, scalingFactor: .one,
        maxDuration: .seconds(10), maxIterations: 20)
    for (name, workload) in [("phone", Workload.phone), ("phone-2024", Workload.phone2024)] {
        for policy in CompressionCostBenchmark.policies {
            let state = CompressionCostBenchmark(workload: workload, policy: policy)
            Benchmark("Compression cost, 30 users: \(name), \(policy)", configuration: compressionConfiguration) {
                benchmark in
                state.run(benchmark)
            } setup: {
                state.setUp()
            } teardown: {
                state.tearDown()
            }
        }
    }

    // What learning costs (issue 26: "keep every decision O(log n) or state the cost and measure it"):
    // ios4's order, relaunch-aware's O(log n) keys and predictive's re-scoring before each victim, on
    // the same lifecycle and users, one day and one week each.
    for (name, workload) in [("phone", Workload.phone), ("phone, 7 days", Workload.phoneWeek)] {
        for policy in CompressionCostBenchmark.learningPolicies {
            let state = CompressionCostBenchmark(workload: workload, policy: policy)
            Benchmark("Learning cost, 30 users: \(name), \(policy)", configuration: compressionConfiguration) {
                benchmark in
                state.run(benchmark)
            } setup: {
                state.setUp()
            } teardown: {
                state.tearDown()
            }
        }
    }

    // Memory, each iteration in a clean process (see CleanProcess): the wall clock is that process's.
    func memoryConfiguration(_ metrics: [String: BenchmarkMetric]) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [.wallClock, .throughput] + metrics.keys.sorted().map { metrics[$0]! }, timeUnits: .nanoseconds,
            warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 3)
    }
    for (name, key, _) in workloads {
        Benchmark(
            "Simulation memory 24 h: \(name)", configuration: memoryConfiguration(SimulationMemoryMeasurement.metrics)
        ) { benchmark in
            SimulationMemoryMeasurement.run(benchmark, workload: key)
        }
    }

    for apps in [10_000, 100_000] {
        for (name, prefix) in [("ids of 9 bytes", "app"), ("bundle ids of 25 bytes", "com.example.tenant-")] {
            Benchmark(
                "Engine memory: \(name) N=\(apps >= 100_000 ? "100K" : "10K")",
                configuration: memoryConfiguration(EngineMemoryBenchmark.metrics)
            ) { benchmark in
                EngineMemoryBenchmark.run(benchmark, apps: apps, prefix: prefix)
            }
        }
    }
}
