// Ordered reports of the highest elements that leave the queue untouched.

extension IndexedGroupQueue {
    /// The largest `k` for which ``forEachTop(_:_:)`` reads the groups best first; above it the
    /// live elements are collected and sorted.
    @inlinable @inline(__always)
    internal static var _walkLimit: Int { 256 }

    /// Calls `body` with the `k` highest elements, highest first (of equal priorities, the lowest
    /// handle index first), without changing the queue.
    ///
    /// For `k` up to 256 it keeps, in stack-allocated scratch space, the `k` groups with the
    /// highest maxima (the `k` highest elements lie in them: a group outside them has `k` group
    /// maxima above its own), then reads those groups best first, stopping at the first whose
    /// maximum can no longer enter the report. It does not allocate. For larger `k` the live
    /// elements are collected and sorted (one allocation).
    ///
    /// - Parameters:
    ///   - k: how many elements to report; fewer are reported if the queue holds fewer.
    ///   - body: called once per element; `handle` stays valid after the call.
    /// - Complexity: O(G k + 64 k²) for k ≤ 256 and G groups, usually O(G + 64 k); for larger
    ///   k, O(n log n).
    @inlinable
    public func forEachTop(
        _ k: Int,
        _ body: (_ handle: Handle, _ priority: UInt64) throws -> Void
    ) rethrows {
        precondition(k >= 0, "IndexedGroupQueue.forEachTop: k must not be negative (got \(k))")
        let wanted = Swift.min(k, count)
        guard wanted > 0 else { return }
        let storage = _storage
        let slots = storage.header.pointee.slotCount
        if wanted > Self._walkLimit {
            var entries: [_Entry] = []
            entries.reserveCapacity(count)
            for slot in 0..<slots where storage.leaves[slot].isLive {
                entries.append(_Entry(key: storage.leaves[slot].key, slot: UInt32(truncatingIfNeeded: slot)))
            }
            entries.sort { $0.beats($1) }
            for entry in entries.prefix(wanted) { try body(_handle(forSlot: Int(entry.slot)), entry.key) }
            return
        }
        try withUnsafeTemporaryAllocation(of: _Entry.self, capacity: 2 &* wanted) { scratch in
            var groups = _Best(storage: scratch.baseAddress!, capacity: wanted)
            var best = _Best(storage: scratch.baseAddress! + wanted, capacity: wanted)
            for group in 0..<storage.groupCount(for: slots) {
                let entry = storage.groups[group]
                if entry.slot != _Entry.empty.slot { groups.offer(entry) }
            }
            for rank in 0..<groups.count {
                let groupMax = groups.storage[rank]
                guard best.admits(groupMax) else { break }
                let start = Int(groupMax.slot) & ~(_Storage.groupSize &- 1)
                let end = Swift.min(start &+ _Storage.groupSize, slots)
                var slot = start
                while slot < end {
                    let leaf = storage.leaves[slot]
                    if leaf.isLive { best.offer(_Entry(key: leaf.key, slot: UInt32(truncatingIfNeeded: slot))) }
                    slot &+= 1
                }
            }
            for position in 0..<best.count {
                let entry = best.storage[position]
                try body(_handle(forSlot: Int(entry.slot)), entry.key)
            }
        }
    }

    /// The `k` highest elements, highest first, without changing the queue.
    ///
    /// - Complexity: as ``forEachTop(_:_:)``; allocates the result.
    @inlinable
    public func top(_ k: Int) -> [(handle: Handle, priority: UInt64)] {
        var result: [(handle: Handle, priority: UInt64)] = []
        result.reserveCapacity(Swift.min(Swift.max(k, 0), count))
        forEachTop(k) { result.append(($0, $1)) }
        return result
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
