// Benchmarks of IndexedHeap: single operations at four sizes, and a mixed kill-queue workload on
// four distributions (uniform, phone, Android, server) at five sizes, where the engine's queue
// (AdaptiveIndexedQueue: the heap below 786,432 apps, the tournament above) meets IndexedTournament
// and six competitors (three systems, two of them also in an idealized packed-array form, and
// lmkd's lists once more with the engine's handle checks).
// See ../../README.md for how to run them and the measured figures.

import Benchmark
import BenchmarkSupport
import IndexedHeapModule

/// The heap sizes (and numbers of apps) every benchmark runs at.
let sizes = [1_000, 10_000, 100_000, 1_000_000]

let benchmarks: @Sendable () -> Void = {
    warnIfBuiltWithInternalChecks()
    selfCheckKillQueues()

    Benchmark.defaultConfiguration = .perOperation

    for size in sizes {
        let n = "N=\(label(size))"
        func single(
            _ name: String,
            extra: Int = 0,
            _ body: @escaping (HeapOperationBenchmark, Benchmark) -> Void
        ) {
            let state = HeapOperationBenchmark(size: size)
            Benchmark("IndexedHeap \(name) \(n)") { benchmark in
                body(state, benchmark)
            } setup: {
                state.setUp(extra: extra)
            } teardown: {
                state.tearDown()
            }
        }
        single("update random") { $0.randomUpdate($1) }
        single("update drift ±1%") { $0.driftUpdate($1) }
        single("insert") { $0.insert($1) }
        single("remove", extra: 1_000) { $0.remove($1) }
        single("popMax", extra: 1_000) { $0.popMax($1) }
        single("top-10") { $0.top(10, $1) }
        single("top-100") { $0.top(100, $1) }
    }

    for distribution in KillQueueDistribution.allCases {
        for size in mixedSizes {
            func mixed<Queue: KillQueue>(_ name: String, _: Queue.Type, slow: Bool = false) {
                let state = KillQueueBenchmark<Queue>(distribution, apps: size)
                // The pointer-chasing scans take about 0.1-2 s per iteration at N = 1M: fewer warm-ups,
                // more time, so that a run still gives a few samples.
                var configuration = Benchmark.defaultConfiguration
                if slow && size >= 1_000_000 {
                    configuration.warmupIterations = 1
                    configuration.maxDuration = .seconds(6)
                }
                Benchmark(
                    "Kill queue mixed/\(distribution.rawValue): \(name) N=\(mixedLabel(size))",
                    configuration: configuration
                ) { benchmark in
                    state.run(benchmark)
                } setup: {
                    state.setUp()
                } teardown: {
                    state.tearDown()
                }
            }
            mixed("engine (AdaptiveIndexedQueue)", EngineKillQueue.self)
            mixed("IndexedTournament", TournamentKillQueue.self)
            mixed("Heap+lazy deletion", LazyDeletionHeapKillQueue.self)
            mixed("task-list scan", TaskListScanKillQueue.self, slow: true)
            mixed("adj-slot lists", AdjSlotListsKillQueue.self, slow: true)
            mixed("adj-slot lists, checked handles", CheckedSlotListsKillQueue.self, slow: true)
            mixed("linear scan, packed array (idealized)", LinearScanKillQueue.self)
            mixed("band lists, packed arrays (idealized)", BandListsKillQueue.self)
        }
    }
}

/// The numbers of apps the mixed kill-queue workloads run at.
let mixedSizes = [100, 1_000, 10_000, 100_000, 1_000_000]

/// A size label that also names sizes below 1,000 (100 rather than 0K).
func mixedLabel(_ size: Int) -> String {
    size < 1_000 ? "\(size)" : label(size)
}
