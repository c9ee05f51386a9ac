// Seeded random operation sequences against the reference model.

import IndexedHeapModule
import TestSupport
import Testing

@Suite("IndexedHeap, seeded random operation sequences")
struct IndexedHeapRandomTests {
    /// The operations a random sequence draws from, with their relative weights.
    private enum Operation: CaseIterable {
        case insert, remove, updateUp, updateDown, updateSame, updateRandom, updateWith, popMax, top, forEachTop
        case removeAll

        var weight: Int {
            switch self {
            case .insert: 30
            case .remove: 12
            case .updateUp, .updateDown: 10
            case .updateSame: 4
            case .updateRandom: 8
            case .updateWith: 8
            case .popMax: 10
            case .top, .forEachTop: 5
            case .removeAll: 1
            }
        }

        static let totalWeight = allCases.reduce(0) { $0 + $1.weight }

        static func random(using rng: inout SplitMix64) -> Operation {
            var draw = Int(rng.next() % UInt64(totalWeight))
            for operation in allCases {
                if draw < operation.weight { return operation }
                draw -= operation.weight
            }
            fatalError("unreachable")
        }
    }

    /// Runs one random sequence; returns the popped handles so a second run can check determinism.
    @discardableResult
    private func run(seed: UInt64) -> [Handle] {
        var rng = SplitMix64(seed: seed)
        // Small ranges make ties frequent; a few sequences use wide ranges.
        let range = [2, 8, 8, 8, 100, 1 << 40][Int(rng.next() % 6)]
        let steps = 20 + Int(rng.next() % 60)
        func randomPriority() -> Int { Int(rng.next() % UInt64(range)) }

        var heap: IndexedHeap<Int>
        var model = Model<Int>()
        var removed: [Handle] = []
        var popped: [Handle] = []
        if rng.next() % 4 == 0 {
            let initial = (0..<Int(rng.next() % 20)).map { _ in randomPriority() }
            heap = IndexedHeap(initial)
            for (index, priority) in initial.enumerated() {
                model.insert(heap.handle(forIndex: index)!, priority: priority)
            }
        } else {
            heap = IndexedHeap()
        }
        if let problem = discrepancy(heap, model) {
            check(false, "seed \(seed), initial heap: \(problem)")
            return popped
        }

        for step in 0..<steps {
            let operation = Operation.random(using: &rng)
            let context = "seed \(seed), step \(step), \(operation)"
            let victim: Handle? = model.isEmpty ? nil : model.keys[Int(rng.next() % UInt64(model.count))]
            switch operation {
            case .insert:
                let priority = randomPriority()
                let handle = heap.insert(priority)
                guard check(!model.contains(handle), "\(context): insert issued live handle \(handle)") else {
                    return popped
                }
                model.insert(handle, priority: priority)
            case .remove:
                guard let victim else { continue }
                let priority = heap.remove(victim)
                guard check(priority == model.remove(victim), "\(context): remove(\(victim)) gave \(priority)") else {
                    return popped
                }
                removed.append(victim)
            case .updateUp, .updateDown, .updateSame, .updateRandom:
                guard let victim else { continue }
                let old = model[victim]!
                let new: Int
                switch operation {
                case .updateUp: new = old + 1 + Int(rng.next() % 3)
                case .updateDown: new = old - 1 - Int(rng.next() % 3)
                case .updateSame: new = old
                default: new = randomPriority()
                }
                heap.update(victim, to: new)
                model.update(victim, to: new)
            case .updateWith:
                // update(_:with:) hands the transform the priority the element has now.
                guard let victim else { continue }
                let old = model[victim]!
                let delta = Int(rng.next() % 7) - 3
                var seen: Int? = nil
                heap.update(victim) { current in
                    seen = current
                    return current + delta
                }
                guard check(seen == old, "\(context): update(with:) saw \(String(describing: seen)), model has \(old)")
                else {
                    return popped
                }
                model.update(victim, to: old + delta)
            case .popMax:
                let result = heap.popMax()
                guard let (handle, priority) = result else {
                    guard check(model.isEmpty, "\(context): popMax returned nil, model has \(model.count)") else {
                        return popped
                    }
                    continue
                }
                guard
                    check(
                        priority == model.maxPriority,
                        "\(context): popMax gave \(priority), model max \(String(describing: model.maxPriority))"),
                    check(
                        model[handle] == priority,
                        "\(context): popMax gave \(handle): \(priority), model says \(String(describing: model[handle]))"
                    )
                else { return popped }
                model.remove(handle)
                removed.append(handle)
                popped.append(handle)
            case .top, .forEachTop:
                let k = Int(rng.next() % UInt64(model.count + 3))
                let before = snapshot(heap)
                var report: [Pair<Int>] = []
                if operation == .top {
                    report = heap.top(k).map { Pair(handle: $0.handle, priority: $0.priority) }
                } else {
                    heap.forEachTop(k) { report.append(Pair(handle: $0, priority: $1)) }
                }
                if let problem = topDiscrepancy(report, k: k, model) {
                    check(false, "\(context): \(problem)")
                    return popped
                }
                guard check(snapshot(heap) == before, "\(context): top(\(k)) changed the heap") else { return popped }
            case .removeAll:
                removed += model.keys
                heap.removeAll(keepingCapacity: rng.next() % 2 == 0)
                model.removeAll()
            }
            if let problem = discrepancy(heap, model, removed: removed) {
                check(false, "\(context): \(problem)")
                return popped
            }
        }
        return popped
    }

    @Test(
        "10,000 seeded sequences of insert, remove, update, popMax and top-k against the model", .singleThreadedLongRun)
    func randomSequences() {
        withEvery("seed", in: 0..<10_000) { seed in run(seed: UInt64(seed)) }
    }

    @Test("the same operations give the same order among ties")
    func determinism() {
        withEvery("seed", in: 0..<200) { seed in
            let first = run(seed: UInt64(seed))
            let second = run(seed: UInt64(seed))
            check(first == second, "seed \(seed): popMax handles \(first) then \(second)")
        }
    }
}
