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
        _leaves.withUnsafeBufferPointer { leaves in
            _levelStart.withUnsafeBufferPointer { starts in
                _nodes.withUnsafeBufferPointer { nodes in
                    Self._best(level: level, index: index, leaves: leaves, nodes: nodes, starts: starts)
                }
            }
        }
    }

    /// The exact maximum of group `index` of `level` on raw buffers.
    @inlinable
    internal static func _best(
        level: Int,
        index: Int,
        leaves: UnsafeBufferPointer<_Leaf>,
        nodes: UnsafeBufferPointer<_Entry>,
        starts: UnsafeBufferPointer<Int>
    ) -> _Entry {
        // Members are scanned in ascending slot order, so taking only a strictly higher key gives
        // ties to the lowest slot, as `beats` does; the selects below compile without branches.
        let first = index << _shift
        var bestKey: UInt64 = 0
        var bestSlot = _Entry.empty.slot
        if level == 1 {
            let end = Swift.min(first &+ _fanOut, leaves.count)
            var slot = first
            while slot < end {
                let leaf = leaves[slot]
                let takes = leaf.isLive && (leaf.key > bestKey || bestSlot == _Entry.empty.slot)
                bestKey = takes ? leaf.key : bestKey
                bestSlot = takes ? UInt32(truncatingIfNeeded: slot) : bestSlot
                slot &+= 1
            }
        } else {
            let base = starts[level &- 2]
            let end = Swift.min(first &+ _fanOut, starts[level &- 1] &- base)
            var child = first
            while child < end {
                let entry = nodes[base &+ child]
                let takes =
                    entry.slot != _Entry.empty.slot && (entry.key > bestKey || bestSlot == _Entry.empty.slot)
                bestKey = takes ? entry.key : bestKey
                bestSlot = takes ? entry.slot : bestSlot
                child &+= 1
            }
        }
        return _Entry(key: bestKey, slot: bestSlot)
    }

    /// Restores every group's maximum after the leaf of `slot` changed; `entry` is what the leaf
    /// now offers (its key and slot, or ``_Entry/empty`` if it was removed).
    ///
    /// Going up one level at a time: a group whose maximum the new entry beats takes it; a group
    /// whose maximum was this slot and is no longer beaten by it is recomputed from its 16 members;
    /// any other group is unchanged, and then so is everything above it.
    ///
    /// Kept out of line: callers test the first level inline and only call this when the group
    /// changes, which a small drift of a key does in about one case in 16.
    @inlinable @inline(never)
    internal mutating func _propagate(from slot: UInt32, _ entry: _Entry) {
        _leaves.withUnsafeBufferPointer { leaves in
            _levelStart.withUnsafeBufferPointer { starts in
                _nodes.withUnsafeMutableBufferPointer { nodes in
                    var candidate = entry
                    var index = Int(slot)
                    var level = 1
                    while level < starts.count {
                        index >>= Self._shift
                        let position = starts[level &- 1] &+ index
                        let node = nodes[position]
                        if candidate.beats(node) {
                            nodes[position] = candidate
                        } else if node.slot == slot {
                            if node == candidate { return }
                            candidate = Self._best(
                                level: level, index: index, leaves: leaves, nodes: UnsafeBufferPointer(nodes),
                                starts: starts)
                            nodes[position] = candidate
                        } else {
                            return
                        }
                        level &+= 1
                    }
                }
            }
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
