// Benchmarks of the pressure engine: throughput on generated traces (issue 3), the cost of a
// footprint change against a bare heap update (issue 3), and kill-order on a snapshot of 100,000
// apps (issue 4). See ../../README.md for how to run them and the measured figures.

import Benchmark
import BenchmarkSupport
import IndexedHeapModule
import MemoryPressure
import MemoryPressureFormats

let benchmarks: @Sendable () -> Void = {
    warnIfBuiltWithInternalChecks()

    Benchmark.defaultConfiguration = .perOperation

    // Issue 3 (a): replay throughput. One iteration = one replay.
    let replayConfiguration = Benchmark.Configuration(
        metrics: [
            .wallClock, .throughput, .mallocCountTotal, TraceReplayBenchmark.actionsPerSecond,
            TraceReplayBenchmark.eventsPerSecond, TraceReplayBenchmark.actionsPerReplay,
            TraceReplayBenchmark.eventsPerReplay, TraceReplayBenchmark.skippedPerReplay,
        ],
        timeUnits: .nanoseconds, warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(2),
        maxIterations: 100)
    for residentApps in [1_000, 10_000] {
        let whole = TraceReplayBenchmark(residentApps: residentApps)
        Benchmark("Engine replay: server 1 h, whole trace N=\(label(residentApps))", configuration: replayConfiguration)
        {
            whole.replayWhole($0)
        } setup: {
            whole.setUp()
        } teardown: {
            whole.tearDown()
        }
        let steady = TraceReplayBenchmark(residentApps: residentApps)
        Benchmark(
            "Engine replay: server 1 h, after preload N=\(label(residentApps))", configuration: replayConfiguration
        ) {
            steady.replayAfterPreload($0)
        } setup: {
            steady.setUp()
        } teardown: {
            steady.tearDown()
        }
    }

    // Issue 15: one footprint change through each concurrent front, against the bare engine, same
    // N, same stream; uncontended and with a second thread (or task) changing the same engine.
    for apps in [1_000, 10_000] {
        let bare = FootprintChangeBenchmark(apps: apps)
        Benchmark("Concurrent front: bare engine N=\(label(apps))") {
            bare.engineFastPath($0)
        } setup: {
            bare.setUp()
        } teardown: {
            bare.tearDown()
        }
        for contended in [false, true] {
            let suffix = contended ? ", 2 threads" : ""
            let lock = ConcurrentFrontBenchmark(apps: apps)
            Benchmark("Concurrent front: lock\(suffix) N=\(label(apps))") {
                lock.lock($0)
            } setup: {
                lock.setUp(front: .lock, contended: contended)
            } teardown: {
                lock.tearDown()
            }
            let lockBatches = ConcurrentFrontBenchmark(apps: apps)
            Benchmark("Concurrent front: lock, batches of 100\(suffix) N=\(label(apps))") {
                lockBatches.lockBatches($0)
            } setup: {
                lockBatches.setUp(front: .lock, contended: contended)
            } teardown: {
                lockBatches.tearDown()
            }
            let actor = ConcurrentFrontBenchmark(apps: apps)
            Benchmark("Concurrent front: actor\(suffix) N=\(label(apps))") {
                await actor.actorHop($0)
            } setup: {
                actor.setUp(front: .actor, contended: contended)
            } teardown: {
                actor.tearDown()
            }
            let actorBatches = ConcurrentFrontBenchmark(apps: apps)
            Benchmark("Concurrent front: actor, batches of 100\(suffix) N=\(label(apps))") {
                await actorBatches.actorBatches($0)
            } setup: {
                actorBatches.setUp(front: .actor, contended: contended)
            } teardown: {
                actorBatches.tearDown()
            }
        }
    }

    // Issue 14: a trace replayed from its file — streamed, in memory, whole file, parse only.
    let streamedConfiguration = Benchmark.Configuration(
        metrics: [
            .wallClock, .mallocCountTotal, TraceReplayBenchmark.actionsPerSecond, TraceReplayBenchmark.eventsPerSecond,
            TraceReplayBenchmark.actionsPerReplay, TraceReplayBenchmark.eventsPerReplay,
        ],
        timeUnits: .milliseconds, warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(4),
        maxIterations: 20)
    for kind in StreamedReplayBenchmark.Kind.allCases {
        for form in StreamedReplayBenchmark.Form.allCases {
            let state = StreamedReplayBenchmark(kind: kind, form: form)
            Benchmark(
                "Trace replay from file: \(kind.rawValue), \(form.rawValue)", configuration: streamedConfiguration
            ) {
                state.run($0)
            } setup: {
                state.setUp()
            } teardown: {
                state.tearDown()
            }
        }
    }

    // Issue 3 (b): one footprint change, engine fast path vs bare heap update, same N, same stream.
    for apps in [1_000, 10_000, 100_000] {
        func footprint(_ name: String, _ body: @escaping (FootprintChangeBenchmark, Benchmark) -> Void) {
            let state = FootprintChangeBenchmark(apps: apps)
            Benchmark("Footprint change: \(name) N=\(label(apps))") { benchmark in
                body(state, benchmark)
            } setup: {
                state.setUp()
            } teardown: {
                state.tearDown()
            }
        }
        footprint("engine changeFootprint") { $0.engineFastPath($1) }
        footprint("engine apply allocate-free") { $0.engineApply($1) }
        footprint("bare IndexedHeap update") { $0.bareHeap($1) }
    }

    // Issue 13: the relaunch-aware order against largest-first, same N, same stream; issue 26 adds
    // predictive's predictedReuse, whose bands are re-scored before each decision (O(n log n)).
    let relaunchAware: Policy
    let predictive: Policy
    do {
        relaunchAware = try Policy.shipped("relaunch-aware")
        predictive = try Policy.shipped("predictive")
    } catch { fatalError("\(error)") }
    for apps in [1_000, 10_000, 100_000] {
        for (label, policy) in [
            ("largestFirst", Policy.ios4), ("expectedRelaunchCost", relaunchAware), ("predictedReuse", predictive),
        ] {
            let state = FootprintChangeBenchmark(apps: apps, policy: policy)
            Benchmark("Relaunch order: footprint change \(label) N=\(BenchmarkSupport.label(apps))") { benchmark in
                state.engineFastPath(benchmark)
            } setup: {
                state.setUp()
            } teardown: {
                state.tearDown()
            }
            let decision = FootprintChangeBenchmark(apps: apps, policy: policy)
            Benchmark("Relaunch order: kill decision \(label) N=\(BenchmarkSupport.label(apps))") { benchmark in
                decision.killDecision(benchmark)
            } setup: {
                decision.setUp()
            } teardown: {
                decision.tearDown()
            }
        }
    }

    // Issue 14: kill-order at scale, load + rank, against CPython's json.loads of the same file in
    // the same run. One iteration = one load + rank.
    let scaleConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, KillOrderScaleBenchmark.pythonParse],
        timeUnits: .milliseconds, warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(10),
        maxIterations: 5)
    for (apps, yaml) in [(100_000, false), (1_000_000, false), (1_000_000, true)] {
        let scale = KillOrderScaleBenchmark(apps: apps, yaml: yaml)
        Benchmark("Kill-order at scale: load + rank \(scale.name)", configuration: scaleConfiguration) {
            scale.run($0)
        } setup: {
            scale.setUp()
        } teardown: {
            scale.tearDown()
        }
    }

    // Issue 4: kill-order on 100,000 apps. One iteration = one step.
    let killOrder = KillOrderBenchmark(apps: 100_000)
    let killOrderConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(2), maxIterations: 1_000)
    func step(_ name: String, _ body: @escaping (KillOrderBenchmark, Benchmark) -> Void) {
        Benchmark("Kill-order N=100K: \(name)", configuration: killOrderConfiguration) { benchmark in
            body(killOrder, benchmark)
        } setup: {
            if killOrder.engine == nil { killOrder.setUp() }
        }
    }
    step("load snapshot") { state, benchmark in
        for _ in benchmark.scaledIterations { blackHole(state.load()) }
    }
    step("rank engine + killOrder 100") { state, benchmark in
        let snapshot = state.snapshot!
        for _ in benchmark.scaledIterations { blackHole(state.rank(snapshot)) }
    }
    step("print top 100") { state, benchmark in
        let rows = state.rows
        for _ in benchmark.scaledIterations { blackHole(KillOrderBenchmark.table(rows)) }
    }
    step("load + rank + print") { state, benchmark in
        for _ in benchmark.scaledIterations { blackHole(KillOrderBenchmark.table(state.rank(state.load()))) }
    }
    step("killOrder 100 on a built engine") { state, benchmark in
        let engine = state.engine!
        for _ in benchmark.scaledIterations { blackHole(engine.killOrder(limit: 100)) }
    }
    step("full sort of all keys, take 100") { state, benchmark in
        let keys = state.keys
        for _ in benchmark.scaledIterations { blackHole(KillOrderBenchmark.topBySortingKeys(keys)) }
    }
    step("full sort of all apps on a built engine, take 100") { state, benchmark in
        let engine = state.engine!
        for _ in benchmark.scaledIterations { blackHole(KillOrderBenchmark.topBySortingApps(engine)) }
    }
    step("rank by full sort engine + sort all apps") { state, benchmark in
        let snapshot = state.snapshot!
        let policy = state.policy!
        for _ in benchmark.scaledIterations {
            do {
                blackHole(KillOrderBenchmark.topBySortingApps(try PressureEngine(snapshot: snapshot, policy: policy)))
            } catch {
                fatalError("\(error)")
            }
        }
    }
}
