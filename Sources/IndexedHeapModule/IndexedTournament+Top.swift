// Ordered reports of the highest elements that leave the tournament untouched.

extension IndexedTournament {
    /// The largest `k` for which ``forEachTop(_:_:)`` walks the tree; above it the live elements
    /// are collected and sorted.
    @inlinable @inline(__always)
    internal static var _walkLimit: Int { 256 }

    /// Calls `body` with the `k` highest elements, highest first (of equal priorities, the lowest
    /// handle index first), without changing the queue.
    ///
    /// For `k` up to 256 the walk keeps the best `k` elements found so far in stack-allocated
    /// scratch space and descends from the root, entering the groups below a group in descending
    /// order of their maxima (which are exact) and only while a group's maximum still beats the
    /// k-th best found. It does not allocate. For larger `k` the live elements are
    /// collected and sorted (one allocation).
    ///
    /// - Parameters:
    ///   - k: how many elements to report; fewer are reported if the queue holds fewer.
    ///   - body: called once per element; `handle` stays valid after the call.
    /// - Complexity: O(k · 16 L + k²) for k ≤ 256 and L levels, in the usual case where the
    ///   groups holding the top k are few; never more than O(s · k) for the s slots issued. For
    ///   larger k, O(n log n).
    @inlinable
    public func forEachTop(
        _ k: Int,
        _ body: (_ handle: Handle, _ priority: UInt64) throws -> Void
    ) rethrows {
        precondition(k >= 0, "IndexedTournament.forEachTop: k must not be negative (got \(k))")
        let wanted = Swift.min(k, _count)
        guard wanted > 0 else { return }
        if wanted > Self._walkLimit {
            var entries: [_Entry] = []
            entries.reserveCapacity(_count)
            for slot in _leaves.indices where _leaves[slot].isLive {
                entries.append(_Entry(key: _leaves[slot].key, slot: UInt32(truncatingIfNeeded: slot)))
            }
            entries.sort { $0.beats($1) }
            for entry in entries.prefix(wanted) { try body(_handle(forSlot: entry.slot), entry.key) }
            return
        }
        try withUnsafeTemporaryAllocation(of: _Entry.self, capacity: wanted) { storage in
            var best = _Best(storage: storage.baseAddress!, capacity: wanted)
            _leaves.withUnsafeBufferPointer { leaves in
                _nodes.withUnsafeBufferPointer { nodes in
                    _levelStart.withUnsafeBufferPointer { starts in
                        // The root is not empty: `wanted` > 0 elements are live.
                        Self._visit(
                            level: starts.count &- 1, index: 0, best: &best, leaves: leaves, nodes: nodes,
                            starts: starts)
                    }
                }
            }
            for position in 0..<best.count {
                let entry = best.storage[position]
                try body(_handle(forSlot: entry.slot), entry.key)
            }
        }
    }

    /// The `k` highest elements, highest first, without changing the queue.
    ///
    /// - Complexity: as ``forEachTop(_:_:)``; allocates the result.
    @inlinable
    public func top(_ k: Int) -> [(handle: Handle, priority: UInt64)] {
        var result: [(handle: Handle, priority: UInt64)] = []
        result.reserveCapacity(Swift.min(Swift.max(k, 0), _count))
        forEachTop(k) { result.append(($0, $1)) }
        return result
    }

    /// Offers every element below group `index` of `level` that can still enter `best` (the
    /// caller has checked that the group's own entry can).
    @inlinable
    internal static func _visit(
        level: Int,
        index: Int,
        best: inout _Best,
        leaves: UnsafeBufferPointer<_Leaf>,
        nodes: UnsafeBufferPointer<_Entry>,
        starts: UnsafeBufferPointer<Int>
    ) {
        let first = index << _shift
        if level == 1 {
            let end = Swift.min(first &+ _fanOut, leaves.count)
            var slot = first
            while slot < end {
                let leaf = leaves[slot]
                if leaf.isLive { best.offer(_Entry(key: leaf.key, slot: UInt32(truncatingIfNeeded: slot))) }
                slot &+= 1
            }
            return
        }
        // The children in descending order of their maxima (which are exact), so the bound rises
        // as fast as it can and the walk stops at the first child that can no longer contribute.
        let base = starts[level &- 2]
        let end = Swift.min(first &+ _fanOut, starts[level &- 1] &- base)
        withUnsafeTemporaryAllocation(of: _Entry.self, capacity: _fanOut) { order in
            var count = 0
            var child = first
            while child < end {
                let entry = nodes[base &+ child]
                if entry.slot != _Entry.empty.slot {
                    // Insertion by maximum; the entry's slot names its element, so keep the child index.
                    var position = count
                    while position > 0, entry.beats(order[position &- 1]) {
                        order[position] = order[position &- 1]
                        position &-= 1
                    }
                    order[position] = _Entry(key: entry.key, slot: entry.slot)
                    count &+= 1
                }
                child &+= 1
            }
            var rank = 0
            while rank < count {
                let entry = order[rank]
                guard best.admits(entry) else { break }
                let index = Int(entry.slot) >> ((level &- 1) &* _shift)
                _visit(level: level &- 1, index: index, best: &best, leaves: leaves, nodes: nodes, starts: starts)
                rank &+= 1
            }
        }
    }

    /// The best `capacity` entries offered so far, best first, on caller-provided scratch memory.
    @usableFromInline
    internal struct _Best {
        @usableFromInline internal let storage: UnsafeMutablePointer<_Entry>
        @usableFromInline internal let capacity: Int
        @usableFromInline internal var count: Int = 0

        @inlinable
        internal init(storage: UnsafeMutablePointer<_Entry>, capacity: Int) {
            self.storage = storage
            self.capacity = capacity
        }

        /// Whether `entry` (or anything it bounds) could still be kept.
        @inlinable @inline(__always)
        internal func admits(_ entry: _Entry) -> Bool {
            count < capacity || entry.beats(storage[count &- 1])
        }

        /// Keeps `entry` if it is among the best `capacity` offered so far.
        @inlinable @inline(__always)
        internal mutating func offer(_ entry: _Entry) {
            guard admits(entry) else { return }
            if count == capacity { count &-= 1 }
            var position = count
            while position > 0, entry.beats(storage[position &- 1]) {
                storage[position] = storage[position &- 1]
                position &-= 1
            }
            storage[position] = entry
            count &+= 1
        }
    }
}
