// Ordered reports of the highest elements that leave the heap untouched.

extension IndexedHeap {
    /// Calls `body` with the `k` highest elements, highest first, without changing the heap.
    ///
    /// The walk keeps a frontier of candidate nodes (the children of every node reported so far)
    /// in a small binary heap on stack-allocated scratch space, so it neither allocates (for
    /// moderate `k`) nor disturbs the heap or any handle. Elements with equal priorities are
    /// reported in an unspecified but deterministic order.
    ///
    /// - Parameters:
    ///   - k: how many elements to report; fewer are reported if the heap holds fewer.
    ///   - body: called once per element; `handle` stays valid after the call.
    /// - Complexity: O(k log k) comparisons, independent of the heap's size.
    @inlinable
    public func forEachTop(
        _ k: Int,
        _ body: (_ handle: Handle, _ priority: Priority) throws -> Void
    ) rethrows {
        precondition(k >= 0, "IndexedHeap.forEachTop: k must not be negative (got \(k))")
        let wanted = Swift.min(k, _nodes.count)
        guard wanted > 0 else { return }
        // Each report removes one candidate and adds at most four.
        let capacity = 3 &* wanted &+ 1
        try _nodes.withUnsafeBufferPointer { nodes in
            try withUnsafeTemporaryAllocation(of: _Node.self, capacity: capacity) { frontierStorage in
                // The frontier holds (priority, position-as-slot) pairs so comparisons stay local.
                var frontier = _Frontier(storage: frontierStorage.baseAddress!)
                // Also on a throw from `body`: the scratch space must not keep priorities alive.
                defer { frontier.deinitializeAll() }
                frontier.push(_Node(priority: nodes[0].priority, slot: 0))
                var reported = 0
                while reported < wanted {
                    let top = frontier.pop()
                    let position = Int(top.slot)
                    try body(_handle(forSlot: nodes[position].slot), top.priority)
                    reported &+= 1
                    let first = Self._firstChild(of: position)
                    let end = Swift.min(first &+ Self._arity, nodes.count)
                    var child = first
                    while child < end {
                        frontier.push(_Node(priority: nodes[child].priority, slot: UInt32(truncatingIfNeeded: child)))
                        child &+= 1
                    }
                }
            }
        }
    }

    /// The `k` highest elements, highest first, without changing the heap.
    ///
    /// - Complexity: O(k log k) comparisons, independent of the heap's size; allocates the result.
    @inlinable
    public func top(_ k: Int) -> [(handle: Handle, priority: Priority)] {
        var result: [(handle: Handle, priority: Priority)] = []
        result.reserveCapacity(Swift.min(Swift.max(k, 0), _nodes.count))
        forEachTop(k) { result.append(($0, $1)) }
        return result
    }

    /// A binary max-heap of candidate nodes on caller-provided scratch memory.
    @usableFromInline
    internal struct _Frontier {
        @usableFromInline internal let storage: UnsafeMutablePointer<_Node>
        @usableFromInline internal var count: Int = 0

        @inlinable
        internal init(storage: UnsafeMutablePointer<_Node>) {
            self.storage = storage
        }

        @inlinable
        internal mutating func push(_ node: _Node) {
            var hole = count
            count &+= 1
            (storage + hole).initialize(to: node)
            while hole > 0 {
                let parent = (hole &- 1) >> 1
                guard storage[parent].priority < node.priority else { break }
                storage[hole] = storage[parent]
                hole = parent
            }
            storage[hole] = node
        }

        @inlinable
        internal mutating func pop() -> _Node {
            assert(count > 0)
            let top = storage[0]
            count &-= 1
            let last = (storage + count).move()
            guard count > 0 else { return top }
            var hole = 0
            while true {
                var child = (hole << 1) &+ 1
                guard child < count else { break }
                if child &+ 1 < count, storage[child].priority < storage[child &+ 1].priority {
                    child &+= 1
                }
                guard last.priority < storage[child].priority else { break }
                storage[hole] = storage[child]
                hole = child
            }
            storage[hole] = last
            return top
        }

        @inlinable
        internal mutating func deinitializeAll() {
            storage.deinitialize(count: count)
            count = 0
        }
    }
}
