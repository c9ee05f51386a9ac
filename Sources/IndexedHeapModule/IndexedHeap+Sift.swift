// The sift algorithms of the 4-ary heap, on raw buffers.
//
// Both sifts move a "hole" rather than swapping: each step copies one node and writes one
// position-table entry, and the moving node is written once, at its final place.

extension IndexedHeap {
    /// The number of children of every inner node.
    @inlinable @inline(__always)
    internal static var _arity: Int { 4 }

    /// The parent position of `position` (which must be > 0).
    @inlinable @inline(__always)
    internal static func _parent(of position: Int) -> Int {
        assert(position > 0)
        return (position &- 1) >> 2
    }

    /// The position of the first child of `position`.
    @inlinable @inline(__always)
    internal static func _firstChild(of position: Int) -> Int {
        (position << 2) &+ 1
    }

    /// Places `node` at `position` or above it, moving every lower-priority ancestor down one level.
    @inlinable
    internal mutating func _siftUp(_ node: _Node, from position: Int) {
        _slots.withUnsafeMutableBufferPointer { slots in
            _nodes.withUnsafeMutableBufferPointer { nodes in
                assert(position < nodes.count)
                var hole = position
                while hole > 0 {
                    let parent = Self._parent(of: hole)
                    let above = nodes[parent]
                    guard above.priority < node.priority else { break }
                    nodes[hole] = above
                    slots[Int(above.slot)].position = UInt32(truncatingIfNeeded: hole)
                    hole = parent
                }
                nodes[hole] = node
                slots[Int(node.slot)].position = UInt32(truncatingIfNeeded: hole)
            }
        }
    }

    /// Places `node` at `position` or below it, moving the highest-priority child up one level
    /// while it outranks `node`.
    @inlinable
    internal mutating func _siftDown(_ node: _Node, from position: Int) {
        _slots.withUnsafeMutableBufferPointer { slots in
            _nodes.withUnsafeMutableBufferPointer { nodes in
                Self._siftDown(node, from: position, nodes: nodes, slots: slots)
            }
        }
    }

    /// The sift-down loop on raw buffers (shared by updates, removals and heap construction).
    @inlinable
    internal static func _siftDown(
        _ node: _Node,
        from position: Int,
        nodes: UnsafeMutableBufferPointer<_Node>,
        slots: UnsafeMutableBufferPointer<_Slot>
    ) {
        let count = nodes.count
        assert(position < count)
        var hole = position
        while true {
            let first = _firstChild(of: hole)
            guard first < count else { break }
            var best = first
            var bestPriority = nodes[first].priority
            if first &+ 3 < count {
                // All four children exist: a fixed tournament the optimiser can unroll.
                let p1 = nodes[first &+ 1].priority
                if bestPriority < p1 { best = first &+ 1; bestPriority = p1 }
                let p2 = nodes[first &+ 2].priority
                if bestPriority < p2 { best = first &+ 2; bestPriority = p2 }
                let p3 = nodes[first &+ 3].priority
                if bestPriority < p3 { best = first &+ 3; bestPriority = p3 }
            } else {
                var child = first &+ 1
                while child < count {
                    let p = nodes[child].priority
                    if bestPriority < p { best = child; bestPriority = p }
                    child &+= 1
                }
            }
            guard node.priority < bestPriority else { break }
            let below = nodes[best]
            nodes[hole] = below
            slots[Int(below.slot)].position = UInt32(truncatingIfNeeded: hole)
            hole = best
        }
        nodes[hole] = node
        slots[Int(node.slot)].position = UInt32(truncatingIfNeeded: hole)
    }

    /// Restores the heap property over the whole storage, bottom-up (Floyd's construction).
    @inlinable
    internal mutating func _heapify() {
        guard _nodes.count > 1 else { return }
        _slots.withUnsafeMutableBufferPointer { slots in
            _nodes.withUnsafeMutableBufferPointer { nodes in
                var position = Self._parent(of: nodes.count &- 1)
                while position >= 0 {
                    Self._siftDown(nodes[position], from: position, nodes: nodes, slots: slots)
                    position &-= 1
                }
            }
        }
    }
}
