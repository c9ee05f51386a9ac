import Benchmark
import BenchmarkSupport
import IndexedHeapModule
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// The cost of one footprint change, three ways, on the same N apps and the same stream of changes:
///
/// - **engine fast path**: `PressureEngine.changeFootprint(of: AppReference, by:at:)` — the
///   books, the app's record, its kill key, the kill-queue update and the pressure check;
/// - **engine `apply(.allocate/.free)`**: the same change as a trace action, with the id lookup;
/// - **bare heap**: `IndexedHeap<UInt64>.update(_:to:)` with the same key the engine computes
///   (band rank, footprint >> the engine's shift, tie-breaker), from a plain footprint array.
///
/// The apps are added in the `background` state (executing, so they may allocate, and in the
/// kill queue ordered largest first under `ios4`) to a device large enough that no pressure level
/// is ever entered. The stream holds 65,536 random (app, ±1 … 16 KiB) changes followed by the same
/// changes negated, replayed cyclically, so every footprint returns to its start once per cycle;
/// setup checks that no footprint strays 16 MiB from its start over a cycle (every app starts with
/// 16 … 64 MiB, so none ever frees more than it holds).
final class FootprintChangeBenchmark {
    struct Change {
        var app: UInt32
        var delta: Int32
    }

    static let halfStream = 1 << 16

    let apps: Int
    /// The policy: `ios4` (largest first) or `relaunch-aware` (expected relaunch cost).
    let policy: Policy
    var engine: PressureEngine?
    var references: [AppReference] = []
    var ids: [AppID] = []
    var heap = IndexedHeap<UInt64>()
    var handles: [IndexedHeapHandle] = []
    var footprints: [Int64] = []
    var stream: [Change] = []
    var cursor = 0
    var time = 1.0
    /// The engine's kill-key layout for the bare heap: the background band's rank and the footprint shift.
    var rank: UInt64 = 0
    var shift: Int64 = 0

    init(apps: Int, policy: Policy = .ios4) {
        self.apps = apps
        self.policy = policy
    }

    /// The device: 128 MiB of usable memory per app, so footprints of at most 65 MiB keep free memory above 45 %.
    var device: Device { Device(memory: .mebibytes(Int64(apps) * 128 + 1024), reserved: .mebibytes(1024)) }

    func setUp() {
        var rng = SeededGenerator(seed: 0xF007_9417 &+ UInt64(apps))
        let engine: PressureEngine
        do { engine = try PressureEngine(device: device, policy: policy) } catch { fatalError("\(error)") }
        footprints = (0..<apps).map { _ in Int64(16 << 20) + Int64(rng.next(below: 48 << 20)) }
        ids = (0..<apps).map { AppID("tenant-\($0)") }
        for app in 0..<apps {
            do {
                // lastActive seeds the learnt count of the relaunch-aware order (ignored by ios4).
                try engine.add(
                    ResidentApp(
                        id: ids[app], state: .background, footprint: Bytes(footprints[app]),
                        lastActive: Double(rng.next(below: 86_400))))
            } catch { fatalError("footprint benchmark: \(error)") }
        }
        references = ids.map { engine.reference(to: $0)! }
        precondition(engine.level == .normal, "footprint benchmark: the device is under pressure")
        self.engine = engine

        // The bare heap holds the engine's keys: rank << 56 | (footprint >> shift) << 20 | tie.
        shift = 0
        while (Swift.max(device.usable.value, 1) &* 2) >> shift >= (1 << 36) { shift += 1 }
        rank = 2  // ios4 has three bands (suspended, background, foreground): background ranks 3 - 1
        heap = IndexedHeap((0..<apps).map { key(app: $0, footprint: footprints[$0]) })
        handles = (0..<apps).map { heap.handle(forIndex: $0)! }
        // Check the layout against the engine's own keys (the kill order's top 10).
        let top = engine.killOrder(limit: 10)
        var expected: [UInt64] = []
        heap.forEachTop(10) { _, key in expected.append(key) }
        guard policy.name != "ios4" || top.map(\.key) == expected else {
            fatalError(
                "footprint benchmark: the bare heap's keys differ from the engine's: \(top.map(\.key)) vs \(expected)")
        }

        var half: [Change] = []
        half.reserveCapacity(Self.halfStream)
        for _ in 0..<Self.halfStream {
            let magnitude = Int32(1 + rng.next(below: 16 << 10))
            half.append(
                Change(app: UInt32(rng.next(below: apps)), delta: rng.next(below: 2) == 0 ? magnitude : -magnitude))
        }
        stream = half + half.map { Change(app: $0.app, delta: -$0.delta) }
        var excursion = [Int64](repeating: 0, count: apps)
        for change in stream {
            excursion[Int(change.app)] += Int64(change.delta)
            guard abs(excursion[Int(change.app)]) < 16 << 20 else {
                fatalError("footprint benchmark: stream strays too far")
            }
        }
        cursor = 0
        time = 1.0
    }

    func tearDown() {
        engine = nil
        references = []
        ids = []
        heap = IndexedHeap()
        handles = []
        footprints = []
        stream = []
    }

    @inline(__always)
    func key(app: Int, footprint: Int64) -> UInt64 {
        rank << 56 | UInt64(footprint >> shift) << 20 | ((1 << 20) - 1 - UInt64(app))
    }

    /// `changeFootprint(of:by:at:)`, the engine's fast path.
    func engineFastPath(_ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        let engine = self.engine!
        var cursor = self.cursor
        var time = self.time
        references.withUnsafeBufferPointer { references in
            stream.withUnsafeBufferPointer { stream in
                benchmark.startMeasurement()
                for _ in 0..<count {
                    let change = stream[cursor]
                    cursor &+= 1
                    if cursor == stream.count { cursor = 0 }
                    time += 0.001
                    do {
                        try engine.changeFootprint(
                            of: references[Int(change.app)], by: Bytes(Int64(change.delta)), at: time)
                    } catch {
                        fatalError("footprint benchmark: \(error)")
                    }
                }
                benchmark.stopMeasurement()
            }
        }
        self.cursor = cursor
        self.time = time
    }

    /// The kill decision: the next victim and its reason (`killOrder(limit: 1)`), read from the
    /// kill queue's top.
    func killDecision(_ benchmark: Benchmark) {
        let engine = self.engine!
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(engine.killOrder(limit: 1))
        }
        benchmark.stopMeasurement()
    }

    /// `apply(.allocate)` / `apply(.free)`: the same changes as trace actions, found by id.
    func engineApply(_ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        let engine = self.engine!
        var cursor = self.cursor
        var time = self.time
        ids.withUnsafeBufferPointer { ids in
            stream.withUnsafeBufferPointer { stream in
                benchmark.startMeasurement()
                for _ in 0..<count {
                    let change = stream[cursor]
                    cursor &+= 1
                    if cursor == stream.count { cursor = 0 }
                    time += 0.001
                    let id = ids[Int(change.app)]
                    let action: Action =
                        change.delta > 0
                        ? .allocate(app: id, bytes: Bytes(Int64(change.delta)), purgeable: false)
                        : .free(app: id, bytes: Bytes(-Int64(change.delta)), purgeable: false)
                    do {
                        try engine.apply(action, at: time)
                    } catch {
                        fatalError("footprint benchmark: \(error)")
                    }
                }
                benchmark.stopMeasurement()
            }
        }
        self.cursor = cursor
        self.time = time
    }

    /// `IndexedHeap<UInt64>.update(_:to:)` with the engine's key, from a footprint array.
    func bareHeap(_ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        var heap = IndexedHeap<UInt64>()
        swap(&heap, &self.heap)
        var cursor = self.cursor
        handles.withUnsafeBufferPointer { handles in
            footprints.withUnsafeMutableBufferPointer { footprints in
                stream.withUnsafeBufferPointer { stream in
                    benchmark.startMeasurement()
                    for _ in 0..<count {
                        let change = stream[cursor]
                        cursor &+= 1
                        if cursor == stream.count { cursor = 0 }
                        let app = Int(change.app)
                        let footprint = footprints[app] &+ Int64(change.delta)
                        footprints[app] = footprint
                        heap.update(handles[app], to: key(app: app, footprint: footprint))
                    }
                    benchmark.stopMeasurement()
                }
            }
        }
        self.cursor = cursor
        swap(&heap, &self.heap)
    }
}
