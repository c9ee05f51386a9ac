// Ordered reports of BandedHeap's highest elements that leave the queue untouched.

extension BandedHeap {
    /// Calls `body` with the `k` highest elements, highest first, without changing the queue.
    ///
    /// Bands are visited from the highest down, in the occupancy bitmap, until `k` elements are
    /// reported. A heap band is walked as ``IndexedHeap/forEachTop(_:_:)`` walks a heap; an
    /// unsorted band's positions are put in a binary heap on scratch space (on the stack for
    /// small bands) and taken out in order.
    ///
    /// - Parameters:
    ///   - k: how many elements to report; fewer are reported if the queue holds fewer.
    ///   - body: called once per element; `handle` stays valid after the call.
    /// - Complexity: O(k log k) in heap bands; O(s + k log s) in an unsorted band of s elements.
    @inlinable
    public func forEachTop(
        _ k: Int,
        _ body: (_ handle: Handle, _ priority: UInt64) throws -> Void
    ) rethrows {
        precondition(k >= 0, "BandedHeap.forEachTop: k must not be negative (got \(k))")
        var remaining = Swift.min(k, _count)
        guard remaining > 0 else { return }
        var id = _bands[Int(_highest)].id
        while true {
            let band = Int(_directory.band(of: id))
            let wanted = Swift.min(remaining, Int(_bands[band].count))
            let start = Int(_bands[band].start)
            try _nodes.withUnsafeBufferPointer { pool in
                let nodes = UnsafeBufferPointer(rebasing: pool[start ..< start &+ Int(_bands[band].count)])
                let report: (_Node) throws -> Void = { node in try body(_handle(forSlot: node.slot), node.priority) }
                if _bands[band].isHeap {
                    try IndexedHeap<UInt64>._forEachTop(wanted, of: nodes, report)
                } else {
                    try Self._forEachTopUnsorted(wanted, of: nodes, report)
                }
            }
            remaining &-= wanted
            guard remaining > 0, let next = _directory.highestOccupied(below: id) else { return }
            id = next
        }
    }

    /// The `k` highest elements, highest first, without changing the queue.
    ///
    /// - Complexity: as ``forEachTop(_:_:)``.
    @inlinable
    public func top(_ k: Int) -> [(handle: Handle, priority: UInt64)] {
        var result: [(handle: Handle, priority: UInt64)] = []
        result.reserveCapacity(Swift.min(Swift.max(k, 0), _count))
        forEachTop(k) { result.append(($0, $1)) }
        return result
    }

    /// Calls `body` with the `wanted` highest of the unsorted `nodes`, highest first (equal keys
    /// in position order).
    @inlinable
    internal static func _forEachTopUnsorted(
        _ wanted: Int,
        of nodes: UnsafeBufferPointer<_Node>,
        _ body: (_Node) throws -> Void
    ) rethrows {
        try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: nodes.count) { storage in
            var frontier = IndexedHeap<UInt64>._Frontier(storage: storage.baseAddress!, nodes: nodes.baseAddress!)
            for position in nodes.indices { frontier.push(position) }
            for _ in 0..<wanted { try body(nodes[frontier.pop()]) }
        }
    }
}
