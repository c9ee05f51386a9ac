/// A deliberately simple max-priority queue used as the reference model for `IndexedHeap`: a
/// dictionary from key to priority, scanned in full for every query.
///
/// Keys are whatever identifies an element (for `IndexedHeap`, its handle). Because elements with
/// equal priorities may leave a real heap in any order, the model answers with priorities (the
/// maximum, the sorted sequence, the top `k`) and lets the caller check that each key the heap
/// reports has the priority the model holds for it.
///
/// The live keys are also kept in a plain array, so that picking "a random live key" with a seeded
/// generator is reproducible (dictionary order is not, from one process to the next).
public struct ReferenceMaxHeap<Key: Hashable, Priority: Comparable> {
    /// The priority of every live key.
    public private(set) var priorities: [Key: Priority] = [:]

    /// The live keys, in a deterministic order (insertion order, disturbed by swap-removals).
    public private(set) var keys: [Key] = []

    /// Where each live key is in `keys`.
    private var offsets: [Key: Int] = [:]

    /// Creates an empty model.
    public init() {}

    /// The number of live keys.
    public var count: Int { keys.count }

    /// Whether the model holds no key.
    public var isEmpty: Bool { keys.isEmpty }

    /// Whether `key` is live.
    public func contains(_ key: Key) -> Bool { priorities[key] != nil }

    /// The priority of `key`, or `nil` if it is not live.
    public subscript(key: Key) -> Priority? { priorities[key] }

    /// Adds `key` with `priority`; `key` must not be live already.
    public mutating func insert(_ key: Key, priority: Priority) {
        precondition(priorities[key] == nil, "ReferenceMaxHeap: key \(key) is already live")
        priorities[key] = priority
        offsets[key] = keys.count
        keys.append(key)
    }

    /// Removes `key` and returns its priority, or returns `nil` if it was not live.
    @discardableResult
    public mutating func remove(_ key: Key) -> Priority? {
        guard let priority = priorities.removeValue(forKey: key), let offset = offsets.removeValue(forKey: key)
        else { return nil }
        let last = keys.removeLast()
        if offset < keys.count {
            keys[offset] = last
            offsets[last] = offset
        }
        return priority
    }

    /// Changes the priority of the live `key` and returns the previous one.
    @discardableResult
    public mutating func update(_ key: Key, to priority: Priority) -> Priority {
        guard let old = priorities.updateValue(priority, forKey: key) else {
            preconditionFailure("ReferenceMaxHeap: key \(key) is not live")
        }
        return old
    }

    /// Removes every key.
    public mutating func removeAll() {
        priorities.removeAll()
        offsets.removeAll()
        keys.removeAll()
    }

    /// The highest priority, or `nil` if the model is empty.
    public var maxPriority: Priority? { priorities.values.max() }

    /// Every priority, highest first (duplicates kept).
    public func sortedPriorities() -> [Priority] { priorities.values.sorted(by: >) }

    /// The `k` highest priorities, highest first (fewer if the model holds fewer).
    public func topPriorities(_ k: Int) -> [Priority] { Array(sortedPriorities().prefix(k)) }
}
