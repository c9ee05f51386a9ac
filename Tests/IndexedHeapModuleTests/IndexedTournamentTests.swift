// IndexedTournament: seeded random operation sequences against the reference model and against
// IndexedHeap (the same victims and reports on unique keys), the tie rule, growth, and stale handles.

import IndexedHeapModule
import TestSupport
import Testing

/// The first way `queue` disagrees with `model`, or `nil` (the checks of `discrepancy` for heaps).
func discrepancy(_ queue: IndexedTournament, _ model: Model<UInt64>, removed: [Handle] = []) -> String? {
    if let violation = queue._invariantViolation() { return "invariant: \(violation)" }
    if queue.count != model.count { return "count \(queue.count), model has \(model.count)" }
    if queue.isEmpty != model.isEmpty { return "isEmpty \(queue.isEmpty), model has \(model.count) elements" }
    if queue.max?.priority != model.maxPriority {
        return "max \(String(describing: queue.max?.priority)), model max \(String(describing: model.maxPriority))"
    }
    if let max = queue.max {
        if model[max.handle] != max.priority { return "max handle \(max.handle) is not live with \(max.priority)" }
        // The tie rule: of equal maxima, the lowest handle index.
        let lowest = model.keys.filter { model[$0] == max.priority }.map(\.index).min()
        if lowest != max.handle.index { return "max is \(max.handle), the lowest index with its key is \(lowest!)" }
    }
    for handle in model.keys {
        guard queue.contains(handle) else { return "live handle \(handle) not contained" }
        if queue.priority(of: handle) != model[handle] {
            return "handle \(handle) has priority \(queue.priority(of: handle)), model says \(model[handle]!)"
        }
        if handle.index >= queue.slotCapacity { return "handle \(handle) beyond slotCapacity \(queue.slotCapacity)" }
        if queue.handle(forIndex: handle.index) != handle {
            return "handle(forIndex: \(handle.index)) is not \(handle)"
        }
    }
    for handle in removed where queue.contains(handle) { return "removed handle \(handle) is still contained" }
    return nil
}

@Suite("IndexedTournament")
struct IndexedTournamentTests {
    /// Runs one random sequence on a tournament, the model and an IndexedHeap side by side.
    ///
    /// With `unique` keys (a tie-breaker in the low bits, as the kill queue's) the heap must issue,
    /// pop and report the same handles, until a `removeAll` (the two free their slots in different
    /// orders); with ties only the model is compared. Returns the popped handles so a second run
    /// can check determinism.
    @discardableResult
    private func run(seed: UInt64, unique: Bool, steps: Int = 80, maxInitial: Int = 40, checkEvery: Int = 1) -> [Handle]
    {
        var rng = SplitMix64(seed: seed)
        let range: UInt64 = [2, 8, 100, 1 << 40][Int(rng.next() % 4)]
        var serial: UInt64 = 0
        func randomKey() -> UInt64 {
            guard unique else { return rng.next() % range }
            serial += 1
            return (rng.next() % range) << 24 | serial
        }
        func adjusted(_ old: UInt64, by delta: Int64) -> UInt64 {
            unique
                ? UInt64(Swift.max(0, Int64(old >> 24) + delta)) << 24 | (old & 0xFF_FFFF)
                : UInt64(Swift.max(0, Int64(old) + delta))
        }
        let initial = (0..<Int(rng.next() % UInt64(maxInitial + 1))).map { _ in randomKey() }
        var queue = IndexedTournament(initial)
        var heap = IndexedHeap(initial)
        var model = Model<UInt64>()
        for (index, key) in initial.enumerated() { model.insert(queue.handle(forIndex: index)!, priority: key) }
        var removed: [Handle] = []
        var popped: [Handle] = []
        var comparesHeap = unique
        for step in 0..<steps {
            let context = "seed \(seed), step \(step)"
            let draw = rng.next() % 100
            let victim: Handle? = model.isEmpty ? nil : model.keys[Int(rng.next() % UInt64(model.count))]
            if draw < 30 {
                let key = randomKey()
                let handle = queue.insert(key)
                let heapHandle = comparesHeap ? heap.insert(key) : handle
                guard check(handle == heapHandle, "\(context): insert issued \(handle), the heap \(heapHandle)"),
                    check(!model.contains(handle), "\(context): insert issued live handle \(handle)")
                else { return popped }
                model.insert(handle, priority: key)
            } else if draw < 42, let victim {
                let key = queue.remove(victim)
                if comparesHeap { heap.remove(victim) }
                guard check(key == model.remove(victim), "\(context): remove(\(victim)) gave \(key)") else {
                    return popped
                }
                removed.append(victim)
            } else if draw < 75, let victim {
                let old = model[victim]!
                let new: UInt64
                let throughTransform = rng.next() % 5 == 0
                switch rng.next() % 4 {
                case 0: new = adjusted(old, by: 1 + Int64(rng.next() % 3))
                case 1: new = adjusted(old, by: -1 - Int64(rng.next() % 3))
                case 2: new = old
                default: new = randomKey()
                }
                if throughTransform {
                    // update(_:with:) hands the transform the key the element has now.
                    var seen: UInt64? = nil
                    queue.update(victim) { current in
                        seen = current
                        return new
                    }
                    guard check(seen == old, "\(context): update(with:) saw \(String(describing: seen))") else {
                        return popped
                    }
                } else {
                    queue.update(victim, to: new)
                }
                if comparesHeap { heap.update(victim, to: new) }
                model.update(victim, to: new)
            } else if draw < 87 {
                let result = queue.popMax()
                let heapResult = comparesHeap ? heap.popMax() : result
                guard let (handle, key) = result else {
                    guard check(model.isEmpty && heapResult == nil, "\(context): popMax returned nil") else {
                        return popped
                    }
                    continue
                }
                guard
                    check(
                        key == model.maxPriority && model[handle] == key, "\(context): popMax gave \(handle): \(key)"),
                    check(
                        key == heapResult?.priority,
                        "\(context): popMax gave \(key), the heap \(String(describing: heapResult))"),
                    check(handle == heapResult?.handle, "\(context): popMax gave \(handle), the heap another")
                else { return popped }
                model.remove(handle)
                removed.append(handle)
                popped.append(handle)
            } else if draw < 99 {
                // k up to past the walk limit (256), so both report paths are exercised.
                let k = rng.next() % 3 == 0 ? 250 + Int(rng.next() % 20) : Int(rng.next() % UInt64(model.count + 3))
                let before = Array(queue.unordered.map { Pair(handle: $0.handle, priority: $0.priority) })
                var report: [Pair<UInt64>] = []
                queue.forEachTop(k) { report.append(Pair(handle: $0, priority: $1)) }
                let heapReport =
                    comparesHeap ? heap.top(k).map { Pair(handle: $0.handle, priority: $0.priority) } : report
                if let problem = topDiscrepancy(report, k: k, model) {
                    check(false, "\(context): \(problem)")
                    return popped
                }
                // Ties: the lowest handle index first.
                for (a, b) in zip(report, report.dropFirst()) where a.priority == b.priority {
                    guard check(a.handle.index < b.handle.index, "\(context): tie order \(a) before \(b)") else {
                        return popped
                    }
                }
                guard check(report == heapReport, "\(context): top(\(k)) \(report), the heap \(heapReport)"),
                    check(queue.top(k).map(\.handle) == report.map(\.handle), "\(context): top and forEachTop differ"),
                    check(
                        Array(queue.unordered.map { Pair(handle: $0.handle, priority: $0.priority) }) == before,
                        "\(context): top(\(k)) changed the queue")
                else { return popped }
            } else {
                removed += model.keys
                queue.removeAll(keepingCapacity: rng.next() % 2 == 0)
                comparesHeap = false
                model.removeAll()
            }
            if step % checkEvery == checkEvery - 1 || step == steps - 1,
                let problem = discrepancy(queue, model, removed: removed)
            {
                check(false, "\(context): \(problem)")
                return popped
            }
        }
        return popped
    }

    @Test("2,000 seeded sequences with frequent ties against the model", .singleThreadedLongRun)
    func randomSequencesWithTies() {
        withEvery("seed", in: 0..<2_000) { seed in run(seed: UInt64(seed), unique: false) }
    }

    @Test("2,000 seeded sequences with unique keys: the same handles as IndexedHeap", .singleThreadedLongRun)
    func randomSequencesAgainstHeap() {
        withEvery("seed", in: 0..<2_000) { seed in run(seed: UInt64(seed), unique: true) }
    }

    @Test(
        "8 long sequences on up to 3,000 elements, across several levels and capacity doublings", .singleThreadedLongRun
    )
    func longSequences() {
        withEvery("seed", in: 0..<8) { seed in
            run(
                seed: 1_000_000 + UInt64(seed), unique: seed % 2 == 0, steps: 1_500, maxInitial: 3_000, checkEvery: 20)
        }
    }

    @Test("the same operations give the same order among ties")
    func determinism() {
        withEvery("seed", in: 0..<200) { seed in
            let first = run(seed: UInt64(seed), unique: false)
            let second = run(seed: UInt64(seed), unique: false)
            check(first == second, "seed \(seed): popMax handles \(first) then \(second)")
        }
    }

    @Test("equal keys come out lowest handle index first, whatever the insertion order")
    func tieRule() {
        var queue = IndexedTournament()
        let handles = (0..<40).map { _ in queue.insert(7) }
        queue.update(handles[3], to: 9)
        queue.update(handles[3], to: 7)
        var order: [Int] = []
        while let (handle, _) = queue.popMax() { order.append(handle.index) }
        #expect(order == Array(0..<40))
    }

    @Test("growth: 70,000 insertions keep the tree exact, and reserveCapacity rebuilds it")
    func growth() {
        // Built with MEMORYPRESSURE_INTERNAL_CHECKS every insertion checks the whole tree (O(n)):
        // 70,000 of them would take hours, so that build grows it past 4,096 leaves only.
        let total = IndexedHeap<UInt64>._isInternalChecksEnabled ? 5_000 : 70_000
        var rng = SplitMix64(seed: 42)
        var queue = IndexedTournament()
        var keys: [UInt64] = []
        for count in 1...total {
            let key = rng.next() >> 8
            keys.append(key)
            queue.insert(key)
            if count.nonzeroBitCount == 1 || count == total {
                #expect(queue._invariantViolation() == nil, "after \(count) insertions")
                #expect(queue.max?.priority == keys.max())
            }
        }
        queue.reserveCapacity(300_000)
        #expect(queue._invariantViolation() == nil)
        #expect(queue.top(100).map(\.priority) == Array(keys.sorted(by: >).prefix(100)))
    }

    @Test("a removed handle is not contained, even after its slot is reused")
    func staleHandles() {
        var queue = IndexedTournament([5, 6, 7])
        let middle = queue.handle(forIndex: 1)!
        #expect(queue.remove(middle) == 6)
        #expect(!queue.contains(middle))
        let reused = queue.insert(8)
        #expect(reused.index == 1)
        #expect(reused != middle)
        #expect(!queue.contains(middle))
        #expect(queue.contains(reused))
        #expect(queue.description == "IndexedTournament([#1.1: 8, #2.0: 7, #0.0: 5])")
    }
}
