// BandedHeap's internal consistency checks.

extension BandedHeap {
    /// Checks every invariant when built with `MEMORYPRESSURE_INTERNAL_CHECKS`; does nothing otherwise.
    @inlinable @inline(__always)
    internal func _checkInvariants() {
        #if MEMORYPRESSURE_INTERNAL_CHECKS
            if let violation = _invariantViolation() {
                preconditionFailure("BandedHeap invariant violated: \(violation)")
            }
        #endif
    }

    /// A description of the first broken invariant, or `nil` if the queue is consistent: every
    /// element is in the band of its key, heap bands are in heap order and larger than half of
    /// ``smallBandLimit``, unsorted bands no larger than it and their remembered maximum is one,
    /// the directory and the occupancy bitmap agree with the bands, the highest band is the
    /// highest non-empty one, and the slot table agrees with the nodes.
    ///
    /// Always compiled, so tests can call it after every step.
    ///
    /// - Complexity: O(n + b) for n slots issued and b bands.
    public func _invariantViolation() -> String? {
        var seen = [Bool](repeating: false, count: _slots.count)
        var total = 0
        var highestID: UInt32? = nil
        for (index, band) in _bands.enumerated() {
            if Int(band.start) + Int(band.capacity) > _nodes.count || band.count > band.capacity {
                return "band \(index): range \(band.start) + \(band.capacity) (holding \(band.count)) beyond the pool of \(_nodes.count)"
            }
            let nodes = Array(_nodes[Int(band.start) ..< Int(band.start + band.count)])
            total += nodes.count
            if _directory.band(of: band.id) != Int32(index) { return "band \(index) (id \(band.id)) not in the directory" }
            let occupied = _directory.highestOccupied(below: band.id + 1) == band.id
            if occupied == nodes.isEmpty { return "band \(index): occupancy bit \(occupied), \(nodes.count) elements" }
            if !nodes.isEmpty, highestID.map({ $0 < band.id }) ?? true { highestID = band.id }
            if band.isHeap {
                if nodes.count <= Self.smallBandLimit / 2 { return "heap band \(index) holds only \(nodes.count)" }
                for position in 1..<Swift.max(nodes.count, 1)
                where nodes[IndexedHeap<UInt64>._parent(of: position)].priority < nodes[position].priority {
                    return "band \(index): node at \(position) outranks its parent"
                }
            } else {
                if nodes.count > Self.smallBandLimit { return "unsorted band \(index) holds \(nodes.count)" }
                if band.best >= 0 {
                    guard Int(band.best) < nodes.count else { return "band \(index): best \(band.best) out of range" }
                    if nodes.contains(where: { nodes[Int(band.best)].priority < $0.priority }) {
                        return "band \(index): remembered maximum at \(band.best) is not the maximum"
                    }
                } else if nodes.isEmpty == false && band.best != -1 {
                    return "band \(index): best \(band.best)"
                }
            }
            for (position, node) in nodes.enumerated() {
                if Self._id(of: node.priority) != band.id { return "band \(index): key \(node.priority) of another band" }
                let slot = Int(node.slot)
                guard slot < _slots.count else { return "band \(index): node names slot \(slot) out of range" }
                if seen[slot] { return "slot \(slot) is used by two nodes" }
                seen[slot] = true
                if _slots[slot].position != UInt32(position) || _slots[slot].band != UInt32(index) {
                    return "slot \(slot) says band \(_slots[slot].band) position \(_slots[slot].position), node is in \(index) at \(position)"
                }
            }
        }
        if total != _count { return "count \(_count), bands hold \(total)" }
        let used = _bands.reduce(0) { $0 + Int($1.capacity) }
        if used + _unused != _nodes.count { return "bands use \(used), \(_unused) unused, pool of \(_nodes.count)" }
        let highest = _highest < 0 ? nil : Optional(_bands[Int(_highest)].id)
        if highest != highestID { return "highest band id \(String(describing: highest)), should be \(String(describing: highestID))" }
        if _directory.highestOccupied(below: 1 << 20) != highestID { return "the bitmap's highest band disagrees" }
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
