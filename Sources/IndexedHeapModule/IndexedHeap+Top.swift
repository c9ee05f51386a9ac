// Ordered reports of the highest elements that leave the heap untouched.

extension IndexedHeap {
    /// Calls `body` with the `k` highest elements, highest first, without changing the heap.
    ///
    /// The walk keeps a frontier of candidate positions in a small binary heap on stack-allocated
    /// scratch space. Reporting a node adds at most two candidates, its highest child and its next
    /// sibling in (priority, position) order, so the frontier never holds more than `k + 1`
    /// positions: the walk neither allocates (for `k` below 256) nor disturbs the heap or any
    /// handle. Elements with equal priorities are reported in an unspecified but deterministic
    /// order.
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
        try _nodes.withUnsafeBufferPointer { nodes in
            // Each report removes one candidate and adds at most two.
            try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: wanted &+ 1) { storage in
                var frontier = _Frontier(storage: storage.baseAddress!, nodes: nodes.baseAddress!)
                frontier.push(0)
                var reported = 0
                while true {
                    let position = frontier.pop()
                    let node = nodes[position]
                    try body(_handle(forSlot: node.slot), node.priority)
                    reported &+= 1
                    guard reported < wanted else { break }
                    let first = Self._firstChild(of: position)
                    if first < nodes.count {
                        frontier.push(Self._highestChild(first: first, nodes: nodes))
                    }
                    if position > 0, let sibling = Self._nextSibling(of: position, nodes: nodes) {
                        frontier.push(sibling)
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

    /// The first of the children `first ..< first + 4` (those that exist) in report order: highest
    /// priority, then lowest position.
    @inlinable @inline(__always)
    internal static func _highestChild(first: Int, nodes: UnsafeBufferPointer<_Node>) -> Int {
        let end = Swift.min(first &+ _arity, nodes.count)
        var best = first
        var bestPriority = nodes[first].priority
        var child = first &+ 1
        while child < end {
            let priority = nodes[child].priority
            if bestPriority < priority {
                best = child
                bestPriority = priority
            }
            child &+= 1
        }
        return best
    }

    /// The sibling that comes right after `position` in report order (highest priority, then lowest
    /// position), or `nil` if `position` is the last of its siblings.
    @inlinable @inline(__always)
    internal static func _nextSibling(of position: Int, nodes: UnsafeBufferPointer<_Node>) -> Int? {
        let first = _firstChild(of: _parent(of: position))
        let end = Swift.min(first &+ _arity, nodes.count)
        let priority = nodes[position].priority
        var best = -1
        var sibling = first
        while sibling < end {
            let candidate = nodes[sibling].priority
            // After `position` in report order…
            if candidate < priority || (sibling > position && !(priority < candidate)) {
                // …and the first such sibling in report order.
                if best < 0 || nodes[best].priority < candidate { best = sibling }
            }
            sibling &+= 1
        }
        return best < 0 ? nil : best
    }

    /// A binary heap of node positions in report order (highest priority, then lowest position),
    /// on caller-provided scratch memory.
    @usableFromInline
    internal struct _Frontier {
        @usableFromInline internal let storage: UnsafeMutablePointer<UInt32>
        @usableFromInline internal let nodes: UnsafePointer<_Node>
        @usableFromInline internal var count: Int = 0

        @inlinable
        internal init(storage: UnsafeMutablePointer<UInt32>, nodes: UnsafePointer<_Node>) {
            self.storage = storage
            self.nodes = nodes
        }

        /// Whether position `a` is reported before position `b`.
        @inlinable @inline(__always)
        internal func _precedes(_ a: UInt32, _ b: UInt32) -> Bool {
            let pa = nodes[Int(a)].priority
            let pb = nodes[Int(b)].priority
            return pb < pa || (a < b && !(pa < pb))
        }

        @inlinable
        internal mutating func push(_ position: Int) {
            let value = UInt32(truncatingIfNeeded: position)
            var hole = count
            count &+= 1
            while hole > 0 {
                let parent = (hole &- 1) >> 1
                let above = storage[parent]
                guard _precedes(value, above) else { break }
                storage[hole] = above
                hole = parent
            }
            storage[hole] = value
        }

        @inlinable
        internal mutating func pop() -> Int {
            assert(count > 0)
            let top = storage[0]
            count &-= 1
            let last = storage[count]
            var hole = 0
            while true {
                var child = (hole << 1) &+ 1
                guard child < count else { break }
                if child &+ 1 < count, _precedes(storage[child &+ 1], storage[child]) {
                    child &+= 1
                }
                guard _precedes(storage[child], last) else { break }
                storage[hole] = storage[child]
                hole = child
            }
            if count > 0 { storage[hole] = last }
            return Int(top)
        }
    }
}
