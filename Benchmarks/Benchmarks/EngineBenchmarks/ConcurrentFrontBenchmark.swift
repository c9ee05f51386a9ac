import Benchmark
import BenchmarkSupport
import Foundation
import MemoryPressure
import MemoryPressureSimulation
import Synchronization

/// The cost of one footprint change through each way of sharing an engine, on the same N apps and
/// the same stream of changes as ``FootprintChangeBenchmark`` (which sets them up):
///
/// - **bare engine**: `PressureEngine.changeFootprint(of:by:at:)`, single-threaded, no sharing;
/// - **lock**: `SharedPressureEngine.changeFootprint(of:by:)` — one pthread mutex per change;
/// - **lock, batches of 100**: `SharedPressureEngine.changeFootprints(_:)` — one lock per 100 changes;
/// - **actor**: `await PressureEngineActor.changeFootprint(of:by:at:)` — one actor hop per change;
/// - **actor, batches of 100**: one hop per 100 changes;
/// - **contended**: the lock and the actor while a second thread (or task) makes changes to the
///   same engine as fast as it can; the figure is the measured thread's time per change.
///
/// The competing thread allocates then frees the same bytes on a random app, so no footprint
/// dips below the stream's own excursion (see ``FootprintChangeBenchmark``). The competing task of
/// the actor yields after each pair of changes: the harness blocks one of the cooperative pool's
/// two threads while an async benchmark runs, so the measured task and the competitor share the
/// other one, and the actor's queue is where they meet.
final class ConcurrentFrontBenchmark: @unchecked Sendable {
    static let batchSize = 100

    let base: FootprintChangeBenchmark
    var shared: SharedPressureEngine?
    var actor: PressureEngineActor?
    var batches: [[FootprintChange]] = []
    let stop = Atomic<Bool>(false)
    /// Changes the competitor made, so a run shows that it competed (printed at tear-down).
    let competitorChanges = Atomic<Int>(0)
    var contender: Thread?
    var contenderTask: Task<Void, Never>?

    init(apps: Int) {
        base = FootprintChangeBenchmark(apps: apps)
    }

    /// Sets up the engine, and the front under test around it.
    func setUp(front: Front, contended: Bool) {
        base.setUp()
        let engine = base.engine!
        base.engine = nil
        batches = stride(from: 0, to: base.stream.count, by: Self.batchSize).map { start in
            base.stream[start..<min(start + Self.batchSize, base.stream.count)].map {
                FootprintChange(base.references[Int($0.app)], by: Bytes(Int64($0.delta)))
            }
        }
        stop.store(false, ordering: .relaxed)
        switch front {
        case .lock:
            let shared = SharedPressureEngine(wrapping: engine, eventBuffer: 0)
            self.shared = shared
            if contended { startContender { reference, delta in try shared.changeFootprint(of: reference, by: delta) } }
        case .actor:
            let actor = PressureEngineActor(wrapping: engine, eventBuffer: 0)
            self.actor = actor
            if contended { startContenderTask(actor) }
        }
    }

    enum Front { case lock, actor }

    func tearDown() {
        stop.store(true, ordering: .relaxed)
        while contender?.isFinished == false { usleep(100) }
        if contender != nil || contenderTask != nil {
            var line =
                "concurrent front benchmark: the competitor made \(competitorChanges.load(ordering: .relaxed)) changes\n"
            line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        }
        competitorChanges.store(0, ordering: .relaxed)
        contender = nil
        contenderTask = nil
        shared = nil
        actor = nil
        batches = []
        base.tearDown()
    }

    /// A thread that changes footprints through `change` until ``tearDown()``.
    private func startContender(_ change: @escaping @Sendable (AppReference, Bytes) throws -> Void) {
        let references = base.references
        let thread = Thread { [self] in
            var rng = SeededGenerator(seed: 0xC0_4E_4D)
            while !self.stop.load(ordering: .relaxed) {
                let reference = references[rng.next(below: references.count)]
                let bytes = Bytes(Int64(1 + rng.next(below: 16 << 10)))
                do {
                    try change(reference, bytes)
                    try change(reference, Bytes(-bytes.value))
                    self.competitorChanges.add(2, ordering: .relaxed)
                } catch {
                    fatalError("concurrent front benchmark: contender: \(error)")
                }
            }
        }
        thread.start()
        contender = thread
    }

    /// A task that changes footprints through the actor until ``tearDown()``.
    private func startContenderTask(_ actor: PressureEngineActor) {
        let references = base.references
        contenderTask = Task.detached { [self] in
            var rng = SeededGenerator(seed: 0xC0_4E_4D)
            while !self.stop.load(ordering: .relaxed) {
                let reference = references[rng.next(below: references.count)]
                let bytes = Bytes(Int64(1 + rng.next(below: 16 << 10)))
                do {
                    try await actor.withEngine { (engine) throws(EngineError) in
                        try engine.changeFootprint(of: reference, by: bytes, at: engine.now)
                        try engine.changeFootprint(of: reference, by: Bytes(-bytes.value), at: engine.now)
                    }
                    self.competitorChanges.add(2, ordering: .relaxed)
                } catch {
                    fatalError("concurrent front benchmark: contender: \(error)")
                }
                // The benchmark harness blocks one of the cooperative pool's threads (2 on this
                // machine) while an async benchmark runs; without yielding, this task would hold
                // the other and starve the measured one.
                await Task.yield()
            }
        }
    }

    /// One change per lock.
    func lock(_ benchmark: Benchmark) {
        let shared = self.shared!
        var cursor = base.cursor
        let stream = base.stream
        let references = base.references
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let change = stream[cursor]
            cursor &+= 1
            if cursor == stream.count { cursor = 0 }
            do {
                try shared.changeFootprint(of: references[Int(change.app)], by: Bytes(Int64(change.delta)))
            } catch {
                fatalError("concurrent front benchmark: \(error)")
            }
        }
        benchmark.stopMeasurement()
        base.cursor = cursor
    }

    /// 100 changes per lock; iterations count changes.
    func lockBatches(_ benchmark: Benchmark) {
        let shared = self.shared!
        let rounds = benchmark.scaledIterations.count / Self.batchSize
        var next = base.cursor / Self.batchSize
        benchmark.startMeasurement()
        for _ in 0..<rounds {
            do { try shared.changeFootprints(batches[next]) } catch {
                fatalError("concurrent front benchmark: \(error)")
            }
            next += 1
            if next == batches.count { next = 0 }
        }
        benchmark.stopMeasurement()
        base.cursor = next * Self.batchSize
    }

    /// One change per actor hop.
    func actorHop(_ benchmark: Benchmark) async {
        let actor = self.actor!
        var cursor = base.cursor
        let stream = base.stream
        let references = base.references
        var time = base.time
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let change = stream[cursor]
            cursor &+= 1
            if cursor == stream.count { cursor = 0 }
            do {
                try await actor.changeFootprint(
                    of: references[Int(change.app)], by: Bytes(Int64(change.delta)), at: time)
            } catch {
                fatalError("concurrent front benchmark: \(error)")
            }
        }
        benchmark.stopMeasurement()
        time += 1
        base.cursor = cursor
        base.time = time
    }

    /// 100 changes per actor hop; iterations count changes.
    func actorBatches(_ benchmark: Benchmark) async {
        let actor = self.actor!
        let rounds = benchmark.scaledIterations.count / Self.batchSize
        var next = base.cursor / Self.batchSize
        let time = base.time
        benchmark.startMeasurement()
        for _ in 0..<rounds {
            do { try await actor.changeFootprints(batches[next], at: time) } catch {
                fatalError("concurrent front benchmark: \(error)")
            }
            next += 1
            if next == batches.count { next = 0 }
        }
        benchmark.stopMeasurement()
        base.cursor = next * Self.batchSize
    }
}
