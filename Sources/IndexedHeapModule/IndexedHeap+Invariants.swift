// Internal consistency checks.

extension IndexedHeap {
    /// Whether mutators check every invariant (built with `MEMORYPRESSURE_INTERNAL_CHECKS=1`, or a
    /// debug build run with `MEMORYPRESSURE_INTERNAL_CHECKS` in the environment). Benchmarks refuse
    /// to report figures when this is true.
    public static var _isInternalChecksEnabled: Bool {
        _internalChecksEnabled
    }

    /// Checks every invariant when `_internalChecksEnabled` (built with `MEMORYPRESSURE_INTERNAL_CHECKS`,
    /// or a debug build run with it in the environment); does nothing otherwise.
    @inlinable @inline(__always)
    internal func _checkInvariants() {
        #if MEMORYPRESSURE_INTERNAL_CHECKS || DEBUG
            if _internalChecksEnabled, let violation = _invariantViolation() {
                preconditionFailure("IndexedHeap invariant violated: \(violation)")
            }
        #endif
    }

    /// A description of the first broken invariant, or `nil` if the heap is consistent: every node
    /// is no higher than its parent, the position table and the nodes agree, and every slot is
    /// either live or on the free list exactly once.
    ///
    /// Always compiled, so tests can call it after every step. O(n).
    ///
    /// - Complexity: O(n) for the n slots issued
    public func _invariantViolation() -> String? {
        for position in 1..<Swift.max(_nodes.count, 1) {
            let parent = Self._parent(of: position)
            if _nodes[parent].priority < _nodes[position].priority {
                return "node at \(position) outranks its parent at \(parent)"
            }
        }
        var seen = [Bool](repeating: false, count: _slots.count)
        for (position, node) in _nodes.enumerated() {
            let slot = Int(node.slot)
            guard slot < _slots.count else { return "node at \(position) names slot \(slot) out of range" }
            if seen[slot] { return "slot \(slot) is used by two nodes" }
            seen[slot] = true
            if _slots[slot].position != UInt32(position) {
                return "slot \(slot) says position \(_slots[slot].position), node is at \(position)"
            }
        }
        for slot in _freeSlots {
            guard Int(slot) < _slots.count else { return "free slot \(slot) out of range" }
            if seen[Int(slot)] { return "slot \(slot) is both live and free" }
            seen[Int(slot)] = true
            if _slots[Int(slot)].position != _Slot.free { return "free slot \(slot) has a position" }
        }
        if let missing = seen.firstIndex(of: false) { return "slot \(missing) is neither live nor free" }
        return nil
    }
}
