// Handles, indices and the documented behaviour of the public API around them.

import Foundation
import IndexedHeapModule
import TestSupport
import Testing

@Suite("IndexedHeap handles and indices")
struct IndexedHeapHandleTests {
    @Test("an empty heap")
    func empty() {
        var heap = IndexedHeap<Int>()
        #expect(heap.isEmpty)
        #expect(heap.count == 0)
        #expect(heap.max == nil)
        #expect(heap.popMax() == nil)
        #expect(heap.top(3).isEmpty)
        #expect(heap.slotCapacity == 0)
        #expect(heap.handle(forIndex: 0) == nil)
        #expect(heap.handle(forIndex: -1) == nil)
        #expect(heap._invariantViolation() == nil)
        #expect(IndexedHeap<Int>([])._invariantViolation() == nil)
    }

    // Under ThreadSanitizer (`scripts/sanitizers.sh thread`) this is the regression test for the
    // race on Swift's shared empty-array storage: `ContiguousArray(unsafeUninitializedCapacity: 0)`
    // writes its count there (the benign race of swiftlang/swift#14778 and #27808, back in Swift
    // 6.3.1's path), so init(_:) of no priorities must not call it. Elsewhere it checks that such
    // heaps are empty and usable.
    @Test("empty heaps built from no priorities on several threads at once share nothing")
    func emptyHeapsOnManyThreads() {
        final class Failures: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
        }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for round in 0..<200 {
                var heap = IndexedHeap<Int>([])
                let empty = heap.isEmpty && heap.slotCapacity == 0
                _ = heap.insert(round)
                if !empty || heap.popMax()?.priority != round { failures.lock.withLock { failures.count += 1 } }
            }
        }
        #expect(failures.count == 0)
    }

    @Test("init(_:) gives the i-th priority the handle with index i")
    func initIndices() {
        let priorities = [5, 1, 9, 9, 0, 7, 3, 5, 2, 8, 6, 4]
        let heap = IndexedHeap(priorities)
        #expect(heap._invariantViolation() == nil)
        #expect(heap.count == priorities.count)
        #expect(heap.slotCapacity == priorities.count)
        for (index, priority) in priorities.enumerated() {
            let handle = heap.handle(forIndex: index)
            #expect(handle?.index == index)
            #expect(handle.map { heap.priority(of: $0) } == priority)
            #expect(handle.map { heap.contains($0) } == true)
        }
        #expect(heap.handle(forIndex: priorities.count) == nil)
        #expect(heap.handle(forIndex: -1) == nil)
        #expect(heap.max?.priority == 9)
        #expect(heap.max.map { [2, 3].contains($0.handle.index) } == true)
    }

    @Test("init(_:) from a lazy sequence whose underestimatedCount is 0")
    func initFromLazySequence() {
        let heap = IndexedHeap((0..<100).lazy.filter { $0 % 3 == 0 }.map { $0 * 7 % 50 })
        #expect(heap._invariantViolation() == nil)
        #expect(heap.count == 34)
        for index in 0..<34 {
            #expect(heap.handle(forIndex: index).map { heap.priority(of: $0) } == index * 3 * 7 % 50)
        }
    }

    @Test("handles stay valid while other elements move, and go stale when removed, even after slot reuse")
    func staleHandles() {
        var heap = IndexedHeap<Int>()
        let handles = (0..<20).map { heap.insert($0) }
        for (priority, handle) in handles.enumerated() { #expect(heap.priority(of: handle) == priority) }

        let removed = handles[7]
        #expect(heap.remove(removed) == 7)
        #expect(!heap.contains(removed))
        #expect(heap.handle(forIndex: removed.index) == nil)

        // The next insertion reuses the freed slot, with a new generation.
        let reused = heap.insert(100)
        #expect(reused.index == removed.index)
        #expect(reused != removed)
        #expect(heap.contains(reused))
        #expect(!heap.contains(removed))
        #expect(heap.handle(forIndex: reused.index) == reused)
        #expect(heap.slotCapacity == 20)

        // popMax invalidates the popped handle the same way.
        let popped = heap.popMax()
        #expect(popped?.handle == reused)
        #expect(popped?.priority == 100)
        #expect(!heap.contains(reused))
        let again = heap.insert(-1)
        #expect(again.index == reused.index)
        #expect(again != reused && again != removed)
        #expect(!heap.contains(reused) && !heap.contains(removed) && heap.contains(again))

        for handle in handles where handle != removed {
            #expect(heap.priority(of: handle) == handle.index)
        }
        #expect(heap._invariantViolation() == nil)
    }

    @Test("slots are reused last-in first-out")
    func slotReuseOrder() {
        var heap = IndexedHeap([10, 20, 30, 40])
        let a = heap.handle(forIndex: 1)!
        let b = heap.handle(forIndex: 3)!
        heap.remove(a)
        heap.remove(b)
        #expect(heap.insert(1).index == 3)
        #expect(heap.insert(2).index == 1)
        #expect(heap.insert(3).index == 4)
        #expect(heap.slotCapacity == 5)
    }

    @Test("a handle whose index this heap never issued is not contained")
    func unissuedIndices() {
        var small = IndexedHeap<Int>()
        var large = IndexedHeap<Int>()
        for priority in 0..<10 { large.insert(priority) }
        small.insert(1)
        #expect(!small.contains(large.handle(forIndex: 5)!))
        #expect(small.handle(forIndex: 5) == nil)
    }

    @Test("removeAll invalidates every handle and keeps the slots for reuse")
    func removeAll() {
        for keepingCapacity in [false, true] {
            var heap = IndexedHeap([3, 1, 4, 1, 5])
            let handles = (0..<5).map { heap.handle(forIndex: $0)! }
            heap.removeAll(keepingCapacity: keepingCapacity)
            #expect(heap.isEmpty)
            #expect(heap._invariantViolation() == nil)
            for handle in handles {
                #expect(!heap.contains(handle))
                #expect(heap.handle(forIndex: handle.index) == nil)
            }
            let fresh = heap.insert(9)
            #expect(fresh.index < 5)
            #expect(!handles.contains(fresh))
            #expect(heap.max?.handle == fresh)
            #expect(heap._invariantViolation() == nil)
        }
    }

    @Test("reserveCapacity changes nothing observable")
    func reserveCapacity() {
        var heap = IndexedHeap([2, 7, 1])
        heap.reserveCapacity(1000)
        #expect(heap.count == 3)
        #expect(heap.max?.priority == 7)
        #expect(heap._invariantViolation() == nil)
        heap.insert(8)
        #expect(heap.top(4).map(\.priority) == [8, 7, 2, 1])
    }

    @Test("an update to an equal priority stores the new value and moves nothing")
    func equalUpdateStoresValue() {
        var heap = IndexedHeap<Tagged>()
        let a = heap.insert(Tagged(key: 5, tag: "a"))
        let b = heap.insert(Tagged(key: 5, tag: "b"))
        let before = heap.unordered.map(\.handle)
        heap.update(b, to: Tagged(key: 5, tag: "b2"))
        #expect(heap.priority(of: b).tag == "b2")
        #expect(heap.priority(of: a).tag == "a")
        #expect(heap.unordered.map(\.handle) == before)
    }

    @Test("the doc comment's example")
    func documentationExample() {
        var queue = IndexedHeap<UInt64>()
        let mail = queue.insert(38 << 20)
        let maps = queue.insert(120 << 20)
        queue.update(mail, to: 200 << 20)
        #expect(queue.max?.handle == mail)
        #expect(queue.top(2).map(\.handle) == [mail, maps])
    }

    @Test("descriptions list elements from highest to lowest")
    func descriptions() {
        let heap = IndexedHeap([1, 3, 2])
        #expect(heap.description == "IndexedHeap([#1.0: 3, #2.0: 2, #0.0: 1])")
        #expect(IndexedHeap<Int>().description == "IndexedHeap([])")
    }

    @Test("non-trivial priorities are neither leaked nor released early, including when top-k throws")
    func nonTrivialPriorities() throws {
        let counter = LiveCounter()
        do {
            var heap = IndexedHeap((0..<50).map { Tracked($0 % 7, counter) })
            for step in 0..<200 {
                switch step % 5 {
                case 0, 1: heap.insert(Tracked(step % 11, counter))
                case 2: if let handle = heap.handle(forIndex: step % heap.slotCapacity) { heap.remove(handle) }
                case 3:
                    if let handle = heap.handle(forIndex: step % heap.slotCapacity) {
                        heap.update(handle, to: Tracked(step % 5, counter))
                    }
                default: _ = heap.popMax()
                }
                #expect(heap._invariantViolation() == nil)
            }
            #expect(heap.count > 20)
            #expect(counter.live == heap.count)
            #expect(heap.top(10).map(\.priority.value) == heap.top(heap.count).prefix(10).map(\.priority.value))
            struct Stop: Error {}
            var reported = 0
            #expect(throws: Stop.self) {
                try heap.forEachTop(20) { _, _ in
                    reported += 1
                    if reported == 3 { throw Stop() }
                }
            }
            #expect(reported == 3)
            #expect(counter.live == heap.count)
        }
        #expect(counter.live == 0)
    }
}

/// A priority whose equality ignores its tag, to observe which value an update stores.
private struct Tagged: Comparable {
    var key: Int
    var tag: String

    static func < (lhs: Tagged, rhs: Tagged) -> Bool { lhs.key < rhs.key }
    static func == (lhs: Tagged, rhs: Tagged) -> Bool { lhs.key == rhs.key }
}

/// Counts the live `Tracked` instances.
private final class LiveCounter {
    var live = 0
}

/// A reference-counted priority that reports its lifetime to a counter.
private final class Tracked: Comparable {
    let value: Int
    let counter: LiveCounter

    init(_ value: Int, _ counter: LiveCounter) {
        self.value = value
        self.counter = counter
        counter.live += 1
    }

    deinit { counter.live -= 1 }

    static func < (lhs: Tracked, rhs: Tracked) -> Bool { lhs.value < rhs.value }
    static func == (lhs: Tracked, rhs: Tracked) -> Bool { lhs.value == rhs.value }
}
