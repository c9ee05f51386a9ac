// AdaptiveIndexedQueue: the structure chosen by size, and in lockstep with IndexedHeap in both
// forms (unique keys: the same handles, victims and reports).

import IndexedHeapModule
import TestSupport
import Testing

@Suite("AdaptiveIndexedQueue")
struct AdaptiveIndexedQueueTests {
    @Test("a queue built from at least the threshold's keys is a tournament, any other a heap")
    func choice() {
        #expect(!AdaptiveIndexedQueue().isTournament)
        #expect(!AdaptiveIndexedQueue([1, 2, 3], tournamentThreshold: 4).isTournament)
        #expect(AdaptiveIndexedQueue([1, 2, 3, 4], tournamentThreshold: 4).isTournament)
        #expect(!AdaptiveIndexedQueue([1, 2, 3]).isTournament)
        #expect(AdaptiveIndexedQueue.tournamentThreshold == 3 << 18)
    }

    /// Seeded operations on unique keys (the handle index in the low 20 bits), applied to the
    /// queue and to an IndexedHeap: every handle, victim, key and report must agree.
    @Test(
        "the same handles, victims and reports as IndexedHeap, as a heap and as a tournament", .singleThreadedLongRun,
        arguments: [false, true])
    func lockstep(tournament: Bool) {
        withEvery("seed", in: 0..<20) { seed in
            var rng = SplitMix64(seed: UInt64(seed) &+ (tournament ? 1 << 40 : 0))
            func key(_ index: Int) -> UInt64 { (rng.next() % 1_000) << 20 | UInt64(index) }
            let initial = (0..<Int(rng.next() % 300)).map { key($0) }
            var queue = AdaptiveIndexedQueue(initial, tournamentThreshold: tournament ? 0 : Int.max)
            var heap = IndexedHeap(initial)
            guard check(queue.isTournament == tournament, "seed \(seed): the wrong structure") else { return }
            for step in 0..<600 {
                let context = "seed \(seed), step \(step)"
                let live = heap.unordered.map(\.handle)
                let draw = rng.next() % 100
                if draw < 50, let handle = live.isEmpty ? nil : live[Int(rng.next() % UInt64(live.count))] {
                    let next = key(handle.index)
                    if draw < 25 {
                        heap.update(handle, to: next)
                        queue.update(handle, to: next)
                    } else {
                        // update(_:with:) hands the transform the key the element has now.
                        let before = heap.priority(of: handle)
                        heap.update(handle) { _ in next }
                        var seen: UInt64? = nil
                        queue.update(handle) { current in
                            seen = current
                            return next
                        }
                        guard
                            check(
                                seen == before,
                                "\(context): update(with:) saw \(String(describing: seen)), not \(before)")
                        else { return }
                    }
                } else if draw < 75 {
                    // The key's index bits are fixed once the handle's index is known.
                    let handle = heap.insert(0)
                    let other = queue.insert(0)
                    guard check(handle == other, "\(context): insert gave \(other), the heap \(handle)") else { return }
                    let fixed = key(handle.index)
                    heap.update(handle, to: fixed)
                    queue.update(handle, to: fixed)
                } else if draw < 90 {
                    let a = heap.popMax()
                    let b = queue.popMax()
                    guard check(a?.handle == b?.handle && a?.priority == b?.priority, "\(context): popMax") else {
                        return
                    }
                } else if let handle = live.isEmpty ? nil : live[Int(rng.next() % UInt64(live.count))] {
                    guard check(heap.remove(handle) == queue.remove(handle), "\(context): remove") else { return }
                    guard check(!queue.contains(handle), "\(context): a removed handle is contained") else { return }
                }
                let k = Int(rng.next() % 12)
                guard check(heap.top(k).map(\.handle) == queue.top(k).map(\.handle), "\(context): top(\(k))"),
                    check(
                        heap.count == queue.count && heap.max?.handle == queue.max?.handle, "\(context): count or max"),
                    check(queue._invariantViolation() == nil, "\(context): \(queue._invariantViolation() ?? "")")
                else { return }
                for handle in heap.unordered.map(\.handle).prefix(5)
                where queue.priority(of: handle) != heap.priority(of: handle) {
                    check(false, "\(context): the key of \(handle)")
                    return
                }
            }
        }
    }
}
