// Ordered top-k reports: results, ties, and that the heap is left untouched.

import IndexedHeapModule
import TestSupport
import Testing

@Suite("IndexedHeap top-k reports")
struct IndexedHeapTopTests {
    @Test("top(k) and forEachTop on a large heap with many ties, for k from 0 past the count")
    func largeHeap() {
        var rng = SplitMix64(seed: 42)
        var heap = IndexedHeap<Int>()
        var model = Model<Int>()
        for _ in 0..<2_000 {
            let priority = Int(rng.next() % 50)
            model.insert(heap.insert(priority), priority: priority)
        }
        // Shuffle the storage a little so the heap is not just the result of insertions.
        for _ in 0..<500 {
            let handle = model.keys[Int(rng.next() % UInt64(model.count))]
            let priority = Int(rng.next() % 50)
            heap.update(handle, to: priority)
            model.update(handle, to: priority)
        }
        let before = snapshot(heap)
        for k in [0, 1, 2, 3, 4, 5, 10, 99, 100, 101, 1_000, 1_999, 2_000, 2_001, 5_000] {
            let report = heap.top(k).map { Pair(handle: $0.handle, priority: $0.priority) }
            if let problem = topDiscrepancy(report, k: k, model) { check(false, problem) }
            var visited: [Pair<Int>] = []
            heap.forEachTop(k) { visited.append(Pair(handle: $0, priority: $1)) }
            #expect(visited == report, "forEachTop(\(k)) and top(\(k)) differ")
        }
        #expect(snapshot(heap) == before)
        #expect(heap._invariantViolation() == nil)
    }

    @Test("a top-k report is a prefix of a longer one and of the popMax order")
    func prefixes() {
        var heap = IndexedHeap((0..<300).map { ($0 * 37) % 23 })
        let all = heap.top(heap.count).map { Pair(handle: $0.handle, priority: $0.priority) }
        for k in 0...40 {
            #expect(heap.top(k).map { Pair(handle: $0.handle, priority: $0.priority) } == Array(all.prefix(k)))
        }
        var drained: [Int] = []
        while let (_, priority) = heap.popMax() { drained.append(priority) }
        #expect(drained == all.map(\.priority))
    }

    @Test("forEachTop reports handles that stay valid and can be used after the report")
    func handlesFromReports() {
        var heap = IndexedHeap([4, 8, 15, 16, 23, 42])
        var handles: [Handle] = []
        heap.forEachTop(3) { handle, _ in handles.append(handle) }
        #expect(handles.map(\.index) == [5, 4, 3])
        for handle in handles { heap.update(handle, to: heap.priority(of: handle) - 100) }
        #expect(heap.top(3).map(\.priority) == [15, 8, 4])
        #expect(heap._invariantViolation() == nil)
    }
}
