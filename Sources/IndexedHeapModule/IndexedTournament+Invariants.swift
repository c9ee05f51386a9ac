// Internal consistency checks.

extension IndexedTournament {
    /// Checks every invariant when `_internalChecksEnabled` (built with `MEMORYPRESSURE_INTERNAL_CHECKS`,
    /// or a debug build run with it in the environment); does nothing otherwise.
    @inlinable @inline(__always)
    internal func _checkInvariants() {
        #if MEMORYPRESSURE_INTERNAL_CHECKS || DEBUG
            if _internalChecksEnabled, let violation = _invariantViolation() {
                preconditionFailure("IndexedTournament invariant violated: \(violation)")
            }
        #endif
    }

    /// A description of the first broken invariant, or `nil` if the queue is consistent: the
    /// levels are laid out for the leaf capacity, every group's entry is exactly the best of the
    /// entries (or live leaves) below it, the count matches the live leaves, and every slot is
    /// either live or on the free list exactly once.
    ///
    /// Always compiled, so tests can call it after every step. O(s) for the s slots issued.
    ///
    /// - Complexity: O(s) for the s slots issued
    public func _invariantViolation() -> String? {
        if _leafCapacity < Self._fanOut || _leafCapacity & (_leafCapacity &- 1) != 0 {
            return "leaf capacity \(_leafCapacity) is not a power of two of at least \(Self._fanOut)"
        }
        if _leaves.count > _leafCapacity { return "\(_leaves.count) leaves exceed the capacity \(_leafCapacity)" }
        var size = _leafCapacity
        for level in 1..._levelCount {
            size = (size + Self._fanOut - 1) / Self._fanOut
            if _levelStart[level] - _levelStart[level - 1] != size {
                return "level \(level) has \(_levelStart[level] - _levelStart[level - 1]) entries, expected \(size)"
            }
        }
        if size != 1 { return "the top level has \(size) entries" }
        if _nodes.count != _levelStart[_levelCount] {
            return "\(_nodes.count) entries, layout says \(_levelStart[_levelCount])"
        }
        for level in 1..._levelCount {
            for index in 0..<(_levelStart[level] - _levelStart[level - 1]) {
                let stored = _nodes[_levelStart[level - 1] + index]
                let exact = _recompute(level: level, index: index)
                if stored != exact {
                    return "group \(index) of level \(level) says \(stored.key) of slot \(stored.slot), "
                        + "its members give \(exact.key) of slot \(exact.slot)"
                }
            }
        }
        let live = _leaves.filter(\.isLive).count
        if live != _count { return "count \(_count), \(live) live leaves" }
        var free = [Bool](repeating: false, count: _leaves.count)
        for slot in _freeSlots {
            guard Int(slot) < _leaves.count else { return "free slot \(slot) out of range" }
            if free[Int(slot)] { return "slot \(slot) is on the free list twice" }
            if _leaves[Int(slot)].isLive { return "slot \(slot) is both live and free" }
            free[Int(slot)] = true
        }
        if let missing = _leaves.indices.first(where: { !_leaves[$0].isLive && !free[$0] }) {
            return "slot \(missing) is neither live nor free"
        }
        return nil
    }
}

extension IndexedTournament: CustomStringConvertible {
    /// A description listing the elements from highest to lowest priority.
    public var description: String {
        var parts: [String] = []
        forEachTop(count) { handle, priority in parts.append("\(handle): \(priority)") }
        return "IndexedTournament([\(parts.joined(separator: ", "))])"
    }
}
