// Internal consistency checks.

extension IndexedGroupQueue {
    /// Checks every invariant when built with `MEMORYPRESSURE_INTERNAL_CHECKS`; does nothing otherwise.
    @inlinable @inline(__always)
    internal func _checkInvariants() {
        #if MEMORYPRESSURE_INTERNAL_CHECKS
            if let violation = _invariantViolation() {
                preconditionFailure("IndexedGroupQueue invariant violated: \(violation)")
            }
        #endif
    }

    /// A description of the first broken invariant, or `nil` if the queue is consistent: the
    /// capacity is a whole number of groups and holds every slot issued, no leaf beyond them is
    /// live, every group's entry is exactly the best of its live leaves, the queue's maximum is the
    /// best of the groups', the count matches the live leaves, and every slot issued is either
    /// live or on the free list exactly once.
    ///
    /// Always compiled, so tests can call it after every step.
    ///
    /// - Complexity: O(s) for the s slots issued
    public func _invariantViolation() -> String? {
        let storage = _storage
        let header = storage.header.pointee
        let groupSize = _Storage.groupSize
        if storage.capacity < groupSize || storage.capacity % groupSize != 0 {
            return "capacity \(storage.capacity) is not a whole number of groups of \(groupSize)"
        }
        if header.slotCount > storage.capacity { return "\(header.slotCount) slots exceed the capacity \(storage.capacity)" }
        if let slot = (header.slotCount..<storage.capacity).first(where: { storage.leaves[$0].isLive }) {
            return "slot \(slot) is live but was never issued"
        }
        var top = _Entry.empty
        for group in 0..<storage.groupCount(for: header.slotCount) {
            var exact = _Entry.empty
            for slot in (group * groupSize)..<min(group * groupSize + groupSize, header.slotCount)
            where storage.leaves[slot].isLive {
                let entry = _Entry(key: storage.leaves[slot].key, slot: UInt32(slot))
                if entry.beats(exact) { exact = entry }
            }
            let stored = storage.groups[group]
            if stored != exact {
                return "group \(group) says \(stored.key) of slot \(stored.slot), its leaves give \(exact.key) of slot \(exact.slot)"
            }
            if exact.beats(top) { top = exact }
        }
        if header.top != top {
            return "the maximum is \(header.top.key) of slot \(header.top.slot), the groups give \(top.key) of slot \(top.slot)"
        }
        let live = (0..<header.slotCount).filter { storage.leaves[$0].isLive }.count
        if live != header.count { return "count \(header.count), \(live) live leaves" }
        var free = [Bool](repeating: false, count: header.slotCount)
        for index in 0..<header.freeCount {
            let slot = Int(storage.freeSlots[index])
            guard slot < header.slotCount else { return "free slot \(slot) out of range" }
            if free[slot] { return "slot \(slot) is on the free list twice" }
            if storage.leaves[slot].isLive { return "slot \(slot) is both live and free" }
            free[slot] = true
        }
        if let missing = (0..<header.slotCount).first(where: { !storage.leaves[$0].isLive && !free[$0] }) {
            return "slot \(missing) is neither live nor free"
        }
        return nil
    }
}

extension IndexedGroupQueue: CustomStringConvertible {
    /// A description listing the elements from highest to lowest priority.
    public var description: String {
        var parts: [String] = []
        forEachTop(count) { handle, priority in parts.append("\(handle): \(priority)") }
        return "IndexedGroupQueue([\(parts.joined(separator: ", "))])"
    }
}
