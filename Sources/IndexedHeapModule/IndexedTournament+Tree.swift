// The tournament tree: slot validation, building the levels, and keeping every group's maximum
// exact after one leaf changes.

extension IndexedTournament {
    /// The slot `handle` refers to; traps with a message naming the handle if it is not live.
    @inlinable @inline(__always)
    internal func _checkedSlot(of handle: Handle) -> Int {
        let slot = Int(handle._slot)
        precondition(slot < _leaves.count, "IndexedTournament: handle \(handle) was never issued by this queue")
        let leaf = _leaves[slot]
        precondition(
            leaf.isLive && leaf.generation == handle._generation,
            "IndexedTournament: handle \(handle) refers to an element that was removed"
        )
        return slot
    }

    /// The live handle for `slot`.
    @inlinable @inline(__always)
    internal func _handle(forSlot slot: UInt32) -> Handle {
        Handle(_slot: slot, generation: _leaves[Int(slot)].generation)
    }

    /// The leaf capacity the tree is built for when it must hold `count` leaves: the smallest
    /// power of two that is at least `count` and the fan-out.
    @inlinable
    internal static func _capacity(for count: Int) -> Int {
        var capacity = _fanOut
        while capacity < count { capacity &*= 2 }
        return capacity
    }

    /// The number of levels above the leaves (the root's level).
    @inlinable @inline(__always)
    internal var _levelCount: Int { _levelStart.count &- 1 }

    /// Lays the levels out for `leafCapacity` leaves and computes every entry from the leaves.
    ///
    /// - Complexity: O(leafCapacity)
    @inlinable
    internal mutating func _rebuild(leafCapacity: Int) {
        _leafCapacity = leafCapacity
        var starts: ContiguousArray<Int> = [0]
        var size = leafCapacity
        repeat {
            size = (size &+ Self._fanOut &- 1) >> Self._shift
            starts.append(starts[starts.count &- 1] &+ size)
        } while size > 1
        _levelStart = starts
        _nodes = ContiguousArray(repeating: .empty, count: starts[starts.count &- 1])
        for level in 1...(starts.count &- 1) {
            for index in 0..<(starts[level] &- starts[level &- 1]) {
                _nodes[starts[level &- 1] &+ index] = _recompute(level: level, index: index)
            }
        }
    }

    /// The exact maximum of group `index` of `level`, from the entries (or leaves) below it.
    @inlinable
    internal func _recompute(level: Int, index: Int) -> _Entry {
        let first = index << Self._shift
        var best = _Entry.empty
        if level == 1 {
            _leaves.withUnsafeBufferPointer { leaves in
                let end = Swift.min(first &+ Self._fanOut, leaves.count)
                var slot = first
                while slot < end {
                    let leaf = leaves[slot]
                    let entry = _Entry(key: leaf.key, slot: UInt32(truncatingIfNeeded: slot))
                    if leaf.isLive && entry.beats(best) { best = entry }
                    slot &+= 1
                }
            }
        } else {
            let base = _levelStart[level &- 2]
            let end = Swift.min(first &+ Self._fanOut, _levelStart[level &- 1] &- base)
            _nodes.withUnsafeBufferPointer { nodes in
                var child = first
                while child < end {
                    let entry = nodes[base &+ child]
                    if entry.beats(best) { best = entry }
                    child &+= 1
                }
            }
        }
        return best
    }

    /// Restores every group's maximum after the leaf of `slot` changed; `entry` is what the leaf
    /// now offers (its key and slot, or ``_Entry/empty`` if it was removed).
    ///
    /// Going up one level at a time: a group whose maximum the new entry beats takes it; a group
    /// whose maximum was this slot and is no longer beaten by it is recomputed from its 16 members;
    /// any other group is unchanged, and then so is everything above it.
    @inlinable
    internal mutating func _propagate(from slot: UInt32, _ entry: _Entry) {
        var candidate = entry
        var index = Int(slot)
        var level = 1
        let top = _levelCount
        while level <= top {
            index >>= Self._shift
            let position = _levelStart[level &- 1] &+ index
            let node = _nodes[position]
            if candidate.beats(node) {
                _nodes[position] = candidate
            } else if node.slot == slot {
                if node == candidate { return }
                candidate = _recompute(level: level, index: index)
                _nodes[position] = candidate
            } else {
                return
            }
            level &+= 1
        }
    }

    /// Frees `slot`: takes its leaf out of the tree, bumps its generation so handles to it go
    /// stale, and puts it on the free list.
    @inlinable
    internal mutating func _release(slot: UInt32) {
        _leaves[Int(slot)].isLive = false
        _leaves[Int(slot)].key = 0
        _leaves[Int(slot)].generation &+= 1
        _freeSlots.append(slot)
        _count &-= 1
        _propagate(from: slot, .empty)
    }
}
