import Benchmark
import BenchmarkSupport
import IndexedHeapModule
import MemoryPressure
import MemoryPressureSimulation

/// The state of one single-operation benchmark on an `IndexedHeap<UInt64>` of about `size`
/// elements: the heap and its inputs are built in `setup` (outside any measurement) and freed in
/// `teardown`; each iteration measures `benchmark.scaledIterations.count` operations.
final class HeapOperationBenchmark {
    typealias Handle = IndexedHeapHandle

    /// How many handles the update stream holds before it wraps around; the value stream is one
    /// longer, so a handle meets a different value on every pass (2^32 operations before a pair repeats).
    static let streamLength = 1 << 16

    let size: Int
    var heap = IndexedHeap<UInt64>()
    /// The handles of the elements, in the order of `permutation`'s indices.
    var handles: [Handle] = []
    /// The inputs of update benchmarks: a handle and a key (random update) or a drift (small drift).
    var updateHandles: [Handle] = []
    var updateValues: [UInt64] = []
    /// A random order of `handles`' indices, consumed in chunks by the removal benchmark.
    var permutation: [Int] = []
    /// Scratch space for one iteration's handles and keys.
    var scratchHandles: [Handle] = []
    var scratchKeys: [UInt64] = []
    var cursor = 0
    var valueCursor = 0

    init(size: Int) { self.size = size }

    /// A random key in 2^40 ..< 2^62, so ±1 % drifts never overflow.
    static func randomKey(_ rng: inout SeededGenerator) -> UInt64 {
        (UInt64(1) << 40) + rng.next() % ((UInt64(1) << 62) - (UInt64(1) << 40))
    }

    /// Builds a heap of `size + extra` random elements and the input streams.
    func setUp(extra: Int = 0, opsPerIteration: Int = 1_000) {
        var rng = SeededGenerator(seed: 0x1DE8_ED4E_A9 &+ UInt64(size))
        let count = size + extra
        heap = IndexedHeap((0..<count).map { _ in Self.randomKey(&rng) })
        heap.reserveCapacity(count + opsPerIteration)
        handles = (0..<count).map { heap.handle(forIndex: $0)! }
        updateHandles = (0..<Self.streamLength).map { _ in handles[rng.next(below: count)] }
        updateValues = (0...Self.streamLength).map { _ in Self.randomKey(&rng) }
        permutation = Array(0..<count)
        permutation.shuffle(using: &rng)
        scratchHandles = Array(repeating: handles.first ?? heap.insert(0), count: opsPerIteration)
        scratchKeys = Array(repeating: 0, count: opsPerIteration)
        cursor = 0
        valueCursor = 0
    }

    func tearDown() {
        heap = IndexedHeap()
        handles = []
        updateHandles = []
        updateValues = []
        permutation = []
        scratchHandles = []
        scratchKeys = []
    }

    /// Runs `body` on the heap moved into a local variable (so that no class-property access or
    /// exclusivity check sits in the measured loop), then moves it back.
    @inline(__always)
    private func withHeap(_ body: (inout IndexedHeap<UInt64>) -> Void) {
        var local = IndexedHeap<UInt64>()
        swap(&local, &heap)
        body(&local)
        swap(&local, &heap)
    }

    /// `update(_:to:)` with a uniformly random key: the element may move anywhere.
    func randomUpdate(_ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        withHeap { heap in
            updateHandles.withUnsafeBufferPointer { handles in
                updateValues.withUnsafeBufferPointer { keys in
                    var cursor = self.cursor
                    var valueCursor = self.valueCursor
                    benchmark.startMeasurement()
                    for _ in 0..<count {
                        heap.update(handles[cursor], to: keys[valueCursor])
                        cursor &+= 1
                        if cursor == handles.count { cursor = 0 }
                        valueCursor &+= 1
                        if valueCursor == keys.count { valueCursor = 0 }
                    }
                    benchmark.stopMeasurement()
                    self.cursor = cursor
                    self.valueCursor = valueCursor
                }
            }
        }
    }

    /// `update(_:to:)` by at most ±1 % of the current key: most elements stay put or move one level.
    func driftUpdate(_ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        withHeap { heap in
            updateHandles.withUnsafeBufferPointer { handles in
                updateValues.withUnsafeBufferPointer { draws in
                    var cursor = self.cursor
                    var valueCursor = self.valueCursor
                    benchmark.startMeasurement()
                    for _ in 0..<count {
                        let handle = handles[cursor]
                        let old = heap.priority(of: handle)
                        // A drift in -128 ... +128 of 128ths of 1 %.
                        let drift = Int64(truncatingIfNeeded: draws[valueCursor] % 257) &- 128
                        let step = Int64(truncatingIfNeeded: old / 100) &* drift / 128
                        heap.update(handle, to: UInt64(truncatingIfNeeded: Int64(truncatingIfNeeded: old) &+ step))
                        cursor &+= 1
                        if cursor == handles.count { cursor = 0 }
                        valueCursor &+= 1
                        if valueCursor == draws.count { valueCursor = 0 }
                    }
                    benchmark.stopMeasurement()
                    self.cursor = cursor
                    self.valueCursor = valueCursor
                }
            }
        }
    }

    /// `insert(_:)` of random keys into a heap of `size` (it holds `size` ... `size + count` elements
    /// while measured); the inserted elements are removed again outside the measurement.
    func insert(_ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        withHeap { heap in
            updateValues.withUnsafeBufferPointer { keys in
                scratchHandles.withUnsafeMutableBufferPointer { inserted in
                    var cursor = self.valueCursor
                    benchmark.startMeasurement()
                    for index in 0..<count {
                        inserted[index] = heap.insert(keys[cursor])
                        cursor &+= 1
                        if cursor == keys.count { cursor = 0 }
                    }
                    benchmark.stopMeasurement()
                    self.valueCursor = cursor
                    for index in 0..<count { heap.remove(inserted[index]) }
                }
            }
        }
    }

    /// `remove(_:)` of random live handles from a heap of `size + count` (it holds `size + count` ...
    /// `size` elements while measured); the removed keys are inserted again outside the measurement.
    func remove(_ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        withHeap { heap in
            scratchHandles.withUnsafeMutableBufferPointer { victims in
                scratchKeys.withUnsafeMutableBufferPointer { keys in
                    var start = cursor
                    if start + count > permutation.count { start = 0 }
                    for index in 0..<count { victims[index] = handles[permutation[start + index]] }
                    benchmark.startMeasurement()
                    for index in 0..<count {
                        keys[index] = heap.remove(victims[index])
                    }
                    benchmark.stopMeasurement()
                    for index in 0..<count { handles[permutation[start + index]] = heap.insert(keys[index]) }
                    cursor = start + count
                }
            }
        }
    }

    /// `popMax()` from a heap of `size + count` (it holds `size + count` ... `size` elements while
    /// measured); the popped keys are inserted again outside the measurement.
    func popMax(_ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        withHeap { heap in
            scratchKeys.withUnsafeMutableBufferPointer { keys in
                benchmark.startMeasurement()
                for index in 0..<count {
                    keys[index] = heap.popMax()!.priority
                }
                benchmark.stopMeasurement()
                for index in 0..<count { heap.insert(keys[index]) }
            }
        }
    }

    /// `forEachTop(k)`: an ordered report of the `k` highest elements, leaving the heap untouched.
    func top(_ k: Int, _ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        withHeap { heap in
            var checksum: UInt64 = 0
            benchmark.startMeasurement()
            for _ in 0..<count {
                heap.forEachTop(k) { _, key in checksum = mix(checksum, key) }
            }
            benchmark.stopMeasurement()
            blackHole(checksum)
        }
    }
}
