// Exhaustive small cases: every insertion order, every removal order, every update, and heap
// construction from a sequence against element-by-element insertion.

import IndexedHeapModule
import TestSupport
import Testing

@Suite("IndexedHeap, exhaustive small cases")
struct IndexedHeapExhaustiveTests {
    /// Inserts `priorities` one by one, checking the heap against the model after each insertion.
    private func inserting(_ priorities: [Int], context: String) -> (IndexedHeap<Int>, Model<Int>, [Handle])? {
        var heap = IndexedHeap<Int>()
        var model = Model<Int>()
        var handles: [Handle] = []
        for priority in priorities {
            let handle = heap.insert(priority)
            guard check(!model.contains(handle), "\(context): insert issued live handle \(handle) again") else {
                return nil
            }
            model.insert(handle, priority: priority)
            handles.append(handle)
            if let problem = discrepancy(heap, model) {
                check(false, "\(context): after insert(\(priority)): \(problem)")
                return nil
            }
        }
        return (heap, model, handles)
    }

    /// Drains `heap` with `popMax`, checking every popped element against the model.
    private func draining(_ heap: inout IndexedHeap<Int>, _ model: inout Model<Int>, context: String) {
        var removed: [Handle] = []
        var popped: [Int] = []
        while let (handle, priority) = heap.popMax() {
            guard
                check(
                    model.maxPriority == priority,
                    "\(context): popMax gave \(priority), model max \(model.maxPriority!)"),
                check(
                    model[handle] == priority,
                    "\(context): popMax gave \(handle): \(priority), model \(String(describing: model[handle]))")
            else { return }
            model.remove(handle)
            removed.append(handle)
            popped.append(priority)
            if let problem = discrepancy(heap, model, removed: removed) {
                check(false, "\(context): after popMax: \(problem)")
                return
            }
        }
        check(model.isEmpty, "\(context): popMax returned nil with \(model.count) elements left")
        check(popped == popped.sorted(by: >), "\(context): popMax order \(popped) is not descending")
    }

    @Test("every permutation of up to 7 distinct priorities, inserted then drained by popMax", .singleThreadedLongRun)
    func insertionOrders() {
        for n in 0...7 {
            for order in permutations(Array(0..<n)) {
                let context = "insertion order \(order)"
                guard var (heap, model, _) = inserting(order, context: context) else { return }
                draining(&heap, &model, context: context)
            }
        }
    }

    @Test("every sequence of up to 6 priorities from 0..<3 (ties), inserted then drained by popMax")
    func insertionOrdersWithTies() {
        for n in 0...6 {
            for sequence in sequences(length: n, radix: 3) {
                let context = "insertion sequence \(sequence)"
                guard var (heap, model, _) = inserting(sequence, context: context) else { return }
                draining(&heap, &model, context: context)
            }
        }
    }

    @Test("every removal order of heaps of up to 5 elements, for every insertion order", .singleThreadedLongRun)
    func removalOrders() {
        for n in 0...5 {
            let orders = permutations(Array(0..<n))
            for insertionOrder in orders {
                for removalOrder in orders {
                    let context = "insertion order \(insertionOrder), removal order \(removalOrder)"
                    guard case (var heap, var model, let handles)? = inserting(insertionOrder, context: context) else {
                        return
                    }
                    var removed: [Handle] = []
                    for offset in removalOrder {
                        let handle = handles[offset]
                        let priority = heap.remove(handle)
                        guard
                            check(priority == insertionOrder[offset], "\(context): remove(\(handle)) gave \(priority)")
                        else { return }
                        model.remove(handle)
                        removed.append(handle)
                        if let problem = discrepancy(heap, model, removed: removed) {
                            check(false, "\(context): after remove(\(handle)): \(problem)")
                            return
                        }
                    }
                }
            }
        }
    }

    @Test(
        "every removal order of 6- and 7-element heaps with distinct, equal and mixed priorities",
        .singleThreadedLongRun,
        arguments: [
            [0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0], [3, 3, 3, 3, 3, 3], [1, 0, 1, 0, 1, 0],
            [0, 1, 2, 3, 4, 5, 6], [0, 2, 1, 2, 0, 1, 2],
        ])
    func removalOrdersLarger(priorities: [Int]) {
        for removalOrder in permutations(Array(priorities.indices)) {
            let context = "priorities \(priorities), removal order \(removalOrder)"
            guard case (var heap, var model, let handles)? = inserting(priorities, context: context) else { return }
            var removed: [Handle] = []
            for offset in removalOrder {
                let handle = handles[offset]
                guard check(heap.remove(handle) == priorities[offset], "\(context): remove(\(handle))") else { return }
                model.remove(handle)
                removed.append(handle)
                if let problem = discrepancy(heap, model, removed: removed) {
                    check(false, "\(context): after remove(\(handle)): \(problem)")
                    return
                }
            }
        }
    }

    @Test(
        "every update of every element, up, down, to a tie and to the same value, in heaps of up to 5",
        .singleThreadedLongRun)
    func updates() {
        for n in 1...5 {
            // Even priorities, so odd targets fall strictly between two elements.
            for order in permutations(Array(0..<n).map { $0 * 2 }) {
                for offset in order.indices {
                    for target in -1...(2 * n) {
                        let context = "insertion order \(order), update element \(offset) to \(target)"
                        guard case (var heap, var model, let handles)? = inserting(order, context: context) else {
                            return
                        }
                        heap.update(handles[offset], to: target)
                        model.update(handles[offset], to: target)
                        if let problem = discrepancy(heap, model) {
                            check(false, "\(context): \(problem)")
                            return
                        }
                        draining(&heap, &model, context: context)
                    }
                }
            }
        }
    }

    @Test("init(_:) matches insertion one by one, for every sequence of up to 6 priorities from 0..<4")
    func initFromSequence() {
        for n in 0...6 {
            for sequence in sequences(length: n, radix: 4) {
                let context = "sequence \(sequence)"
                var built = IndexedHeap(sequence)
                var model = Model<Int>()
                for (index, priority) in sequence.enumerated() {
                    guard let handle = built.handle(forIndex: index) else {
                        check(false, "\(context): handle(forIndex: \(index)) is nil")
                        return
                    }
                    guard
                        check(handle.index == index, "\(context): handle(forIndex: \(index)).index is \(handle.index)")
                    else { return }
                    model.insert(handle, priority: priority)
                }
                guard check(built.handle(forIndex: n) == nil, "\(context): handle(forIndex: \(n)) is not nil"),
                    check(built.slotCapacity == n, "\(context): slotCapacity \(built.slotCapacity)")
                else { return }
                if let problem = discrepancy(built, model) {
                    check(false, "\(context): \(problem)")
                    return
                }
                guard var (inserted, insertedModel, _) = inserting(sequence, context: context) else { return }
                var fromBuilt: [Int] = []
                var fromInserted: [Int] = []
                while let (_, priority) = built.popMax() { fromBuilt.append(priority) }
                while let (_, priority) = inserted.popMax() { fromInserted.append(priority) }
                insertedModel.removeAll()
                check(fromBuilt == fromInserted, "\(context): drained \(fromBuilt) vs \(fromInserted) by insertion")
                check(fromBuilt == sequence.sorted(by: >), "\(context): drained \(fromBuilt)")
            }
        }
    }
}
