// Checks shared by the IndexedHeap tests: a heap against the reference model, and cheap failure
// reporting for loops that run hundreds of thousands of steps.

import IndexedHeapModule
import TestSupport
import Testing

typealias Handle = IndexedHeapHandle
typealias Model<Priority: Comparable> = ReferenceMaxHeap<Handle, Priority>

/// Records `message` as a test failure when `condition` is false, and returns `condition`.
///
/// Cheaper than `#expect` in hot loops: the message is only built when the check fails.
@discardableResult
func check(
    _ condition: Bool,
    _ message: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    if !condition {
        Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation)
    }
    return condition
}

/// The first way `heap` disagrees with `model`, or `nil`.
///
/// Checks the heap's own invariants, the count, the maximum, that every live handle of the model is
/// in the heap with the model's priority and a consistent index, and that every handle in `removed`
/// is reported as absent (even when its slot has been reused since).
func discrepancy<Priority>(
    _ heap: IndexedHeap<Priority>,
    _ model: Model<Priority>,
    removed: [Handle] = []
) -> String? {
    if let violation = heap._invariantViolation() { return "invariant: \(violation)" }
    if heap.count != model.count { return "count \(heap.count), model has \(model.count)" }
    if heap.isEmpty != model.isEmpty { return "isEmpty \(heap.isEmpty), model has \(model.count) elements" }
    if heap.max?.priority != model.maxPriority {
        return "max \(String(describing: heap.max?.priority)), model max \(String(describing: model.maxPriority))"
    }
    if let max = heap.max, model[max.handle] != max.priority {
        return
            "max handle \(max.handle) has priority \(max.priority), model says \(String(describing: model[max.handle]))"
    }
    for handle in model.keys {
        guard heap.contains(handle) else { return "live handle \(handle) not contained" }
        let priority = heap.priority(of: handle)
        if priority != model[handle] {
            return "handle \(handle) has priority \(priority), model says \(model[handle]!)"
        }
        if handle.index >= heap.slotCapacity {
            return "handle \(handle) index \(handle.index) beyond slotCapacity \(heap.slotCapacity)"
        }
        if heap.handle(forIndex: handle.index) != handle {
            return
                "handle(forIndex: \(handle.index)) is \(String(describing: heap.handle(forIndex: handle.index))), not \(handle)"
        }
    }
    for handle in removed where heap.contains(handle) {
        return "removed handle \(handle) is still contained"
    }
    return nil
}

/// The heap's storage as comparable values, to show that a read-only operation changed nothing.
func snapshot<Priority>(_ heap: IndexedHeap<Priority>) -> [Pair<Priority>] {
    heap.unordered.map { Pair(handle: $0.handle, priority: $0.priority) }
}

/// An equatable (handle, priority) pair.
struct Pair<Priority: Comparable>: Equatable, CustomStringConvertible {
    var handle: Handle
    var priority: Priority

    var description: String { "\(handle): \(priority)" }
}

/// The first way a top-`k` report disagrees with `model`, or `nil`: the priorities must be the model's
/// `k` highest in order, each handle must be live with the reported priority, and no handle repeats.
func topDiscrepancy<Priority>(_ report: [Pair<Priority>], k: Int, _ model: Model<Priority>) -> String? {
    let expected = model.topPriorities(k)
    let priorities = report.map(\.priority)
    if priorities != expected { return "top(\(k)) priorities \(priorities), expected \(expected)" }
    var seen = Set<Handle>()
    for pair in report {
        if !seen.insert(pair.handle).inserted { return "top(\(k)) reports \(pair.handle) twice" }
        if model[pair.handle] != pair.priority {
            return "top(\(k)) reports \(pair), model says \(String(describing: model[pair.handle]))"
        }
    }
    return nil
}

/// Every permutation of `elements`, in lexicographic order of positions (Heap's algorithm is not
/// needed at these sizes).
func permutations<T>(_ elements: [T]) -> [[T]] {
    guard elements.count > 1 else { return [elements] }
    var result: [[T]] = []
    for (offset, first) in elements.enumerated() {
        var rest = elements
        rest.remove(at: offset)
        for tail in permutations(rest) { result.append([first] + tail) }
    }
    return result
}

/// Every sequence of length `length` over `0..<radix`.
func sequences(length: Int, radix: Int) -> [[Int]] {
    var result: [[Int]] = [[]]
    for _ in 0..<length {
        result = result.flatMap { prefix in (0..<radix).map { prefix + [$0] } }
    }
    return result
}
