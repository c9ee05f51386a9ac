// The sift algorithms of the 8-ary heap, on raw buffers.
//
// Eight children, not four or two: on the mixed kill-queue workload (95 % small key changes, most of
// them at leaves, which have no children to compare), 8-ary was 10-20 % faster than 4-ary at 1K to
// 100K elements and as fast at 1M, with pops no slower; 16-ary made pops a third slower
// (Benchmarks/README.md, "IndexedHeap speed-up on the mixed workload").
//
// Both sifts move a "hole" rather than swapping: each step copies one node and writes one
// position-table entry, and the moving node is written once, at its final place.

extension IndexedHeap {
    /// The number of children of every inner node.
    @inlinable @inline(__always)
    internal static var _arity: Int { 8 }

    /// The parent position of `position` (which must be > 0).
    @inlinable @inline(__always)
    internal static func _parent(of position: Int) -> Int {
        assert(position > 0)
        return (position &- 1) >> 3
    }

    /// The position of the first child of `position`.
    @inlinable @inline(__always)
    internal static func _firstChild(of position: Int) -> Int {
        (position << 3) &+ 1
    }

    /// Places `node` at `position` or above it, moving every lower-priority ancestor down one level.
    @inlinable
    internal mutating func _siftUp(_ node: _Node, from position: Int) {
        _slots.withUnsafeMutableBufferPointer { slots in
            _nodes.withUnsafeMutableBufferPointer { nodes in
                Self._siftUp(node, from: position, nodes: nodes, slots: slots)
            }
        }
    }

    /// The sift-up loop on raw buffers.
    @inlinable
    internal static func _siftUp(
        _ node: _Node,
        from position: Int,
        nodes: UnsafeMutableBufferPointer<_Node>,
        slots: UnsafeMutableBufferPointer<_Slot>
    ) {
        assert(position < nodes.count)
        var hole = position
        while hole > 0 {
            let parent = _parent(of: hole)
            let above = nodes[parent]
            guard above.priority < node.priority else { break }
            nodes[hole] = above
            slots[Int(above.slot)].position = UInt32(truncatingIfNeeded: hole)
            hole = parent
        }
        nodes[hole] = node
        slots[Int(node.slot)].position = UInt32(truncatingIfNeeded: hole)
    }

    /// Puts `node` in place of the node at `position` (a node from elsewhere, whose slot's position
    /// is not `position` yet) and moves it up or down until the heap is ordered again.
    @inlinable
    internal mutating func _place(_ node: _Node, at position: Int) {
        let direction = _nodes.withUnsafeBufferPointer { nodes in
            Self._direction(of: node.priority, at: position, nodes: nodes)
        }
        _move(node, from: position, direction: direction)
    }

    /// Writes `node` at `position` or moves it from there: up if `direction` > 0, down otherwise
    /// (`direction` 0 moves it nowhere but still records its position).
    @inlinable
    internal mutating func _move(_ node: _Node, from position: Int, direction: Int) {
        _slots.withUnsafeMutableBufferPointer { slots in
            _nodes.withUnsafeMutableBufferPointer { nodes in
                if direction > 0 {
                    Self._siftUp(node, from: position, nodes: nodes, slots: slots)
                } else {
                    Self._siftDown(node, from: position, nodes: nodes, slots: slots)
                }
            }
        }
    }

    /// Where a node with `priority` placed at `position` must go: 1 up (it outranks its parent),
    /// -1 down (a child outranks it), 0 nowhere.
    ///
    /// The direction is decided by comparing with the parent and the children, never with the node
    /// being replaced: the parent and the children depend only on `position`, so their loads can
    /// start together, while reading the replaced node first would put one more cache miss in
    /// front of them on large heaps. It only reads, so callers can skip taking the storage for
    /// writing when nothing moves.
    @inlinable @inline(__always)
    internal static func _direction(of priority: Priority, at position: Int, nodes: UnsafeBufferPointer<_Node>) -> Int {
        if position > 0, nodes[_parent(of: position)].priority < priority { return 1 }
        let first = _firstChild(of: position)
        let end = Swift.min(first &+ _arity, nodes.count)
        var child = first
        while child < end {
            if priority < nodes[child].priority { return -1 }
            child &+= 1
        }
        return 0
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
            if first &+ 7 < count {
                // All eight children exist: a fixed tournament the optimiser unrolls.
                for child in first &+ 1..<first &+ 8 {
                    let p = nodes[child].priority
                    if bestPriority < p { best = child; bestPriority = p }
                }
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
