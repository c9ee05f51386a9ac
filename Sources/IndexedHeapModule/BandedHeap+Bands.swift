// BandedHeap's work inside one band: the cached maximum of an unsorted band, the heap order of a
// large one, and the moves between the two.

extension BandedHeap {
    /// The band id of `key`.
    @inlinable @inline(__always)
    internal static func _id(of key: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: key >> UInt64(bandShift))
    }

    /// The index of the band with `id`, created (empty) if there is none.
    @inlinable @inline(__always)
    internal mutating func _band(forID id: UInt32) -> Int {
        let known = _directory.band(of: id)
        if known >= 0 { return Int(known) }
        let band = _bands.count
        _bands.append(_Band(id: id))
        _directory.add(id, band: Int32(band))
        return band
    }

    /// The slot entry of a live handle; traps with a message naming the handle otherwise.
    @inlinable @inline(__always)
    internal func _entry(of handle: Handle) -> _Slot {
        let slot = Int(handle._slot)
        precondition(slot < _slots.count, "BandedHeap: handle \(handle) was never issued by this queue")
        let entry = _slots[slot]
        precondition(
            entry.generation == handle._generation && entry.position != _Slot.free,
            "BandedHeap: handle \(handle) refers to an element that was removed"
        )
        return entry
    }

    /// The live handle for `slot`.
    @inlinable @inline(__always)
    internal func _handle(forSlot slot: UInt32) -> Handle {
        Handle(_slot: slot, generation: _slots[Int(slot)].generation)
    }

    /// Marks `slot` free and bumps its generation so handles to it go stale.
    @inlinable @inline(__always)
    internal mutating func _release(slot: UInt32) {
        _slots[Int(slot)].position = _Slot.free
        _slots[Int(slot)].generation &+= 1
        _freeSlots.append(slot)
    }

    /// The position of the highest key of the non-empty `band`, found by a scan and remembered
    /// when it is not known.
    ///
    /// - Complexity: O(1) when known, else O(``smallBandLimit``).
    @inlinable
    internal mutating func _bestPosition(_ band: Int) -> Int {
        let known = _bands[band].best
        if known >= 0 { return Int(known) }
        let found = _withNodes(of: band) { nodes in
            var best = 0
            var bestKey = nodes[0].priority
            var position = 1
            while position < nodes.count {
                let key = nodes[position].priority
                if bestKey < key {
                    best = position
                    bestKey = key
                }
                position &+= 1
            }
            return best
        }
        _bands[band].best = Int32(truncatingIfNeeded: found)
        return found
    }

    /// Appends `node` (whose slot is allocated) to `band` and records where it is.
    @inlinable
    internal mutating func _append(_ node: _Node, to band: Int) {
        if _bands[band].count == _bands[band].capacity { _grow(band) }
        let position = Int(_bands[band].count)
        _slots[Int(node.slot)].position = UInt32(truncatingIfNeeded: position)
        _slots[Int(node.slot)].band = UInt32(truncatingIfNeeded: band)
        _nodes[Int(_bands[band].start) &+ position] = node
        _bands[band].count &+= 1
        if position == 0 {
            _bands[band].best = 0
            let id = _bands[band].id
            _directory.setOccupied(id, true)
            if _highest < 0 || _bands[Int(_highest)].id < id { _highest = Int32(truncatingIfNeeded: band) }
        } else if _bands[band].isHeap {
            _sift(band: band) { nodes, slots in
                IndexedHeap<UInt64>._siftUp(node, from: position, nodes: nodes, slots: slots)
            }
        } else {
            let best = Int(_bands[band].best)
            if best >= 0, _nodes[Int(_bands[band].start) &+ best].priority < node.priority {
                _bands[band].best = Int32(truncatingIfNeeded: position)
            }
            if position >= Self.smallBandLimit { _makeHeap(band) }
        }
    }

    /// Takes the element at `position` out of `band` (its slot stays allocated) and returns its key.
    @inlinable
    @discardableResult
    internal mutating func _take(band: Int, position: Int) -> UInt64 {
        let start = Int(_bands[band].start)
        let key = _nodes[start &+ position].priority
        let remaining = Int(_bands[band].count) &- 1
        let last = _nodes[start &+ remaining]
        _bands[band].count = UInt32(truncatingIfNeeded: remaining)
        if _bands[band].isHeap {
            if position < remaining {
                _sift(band: band) { nodes, slots in
                    let direction = IndexedHeap<UInt64>._direction(of: last.priority, at: position, nodes: UnsafeBufferPointer(nodes))
                    Self._move(last, from: position, direction: direction, nodes: nodes, slots: slots)
                }
            }
            if remaining <= Self.smallBandLimit / 2 { _bands[band].isHeap = false }
        } else {
            if position < remaining {
                _nodes[start &+ position] = last
                _slots[Int(last.slot)].position = UInt32(truncatingIfNeeded: position)
            }
            let best = Int(_bands[band].best)
            if best == position {
                _bands[band].best = -1
            } else if best == remaining {
                _bands[band].best = Int32(truncatingIfNeeded: position)
            }
        }
        if remaining == 0 {
            _bands[band].best = -1
            let id = _bands[band].id
            _directory.setOccupied(id, false)
            if _highest == Int32(truncatingIfNeeded: band) {
                _highest = _directory.highestOccupied(below: id).map { _directory.band(of: $0) } ?? -1
            }
        }
        return key
    }

    /// Changes the key at `position` of `band` to `key`, which has the band's id.
    @inlinable @inline(__always)
    internal mutating func _change(band: Int, position: Int, to key: UInt64) {
        let index = Int(_bands[band].start) &+ position
        if _bands[band].isHeap {
            // As IndexedHeap.update: the parent and the children decide, read together.
            let direction = _withNodes(of: band) { nodes in
                IndexedHeap<UInt64>._direction(of: key, at: position, nodes: nodes)
            }
            if direction == 0 {
                _nodes[index].priority = key
            } else {
                let node = _Node(priority: key, slot: _nodes[index].slot)
                _sift(band: band) { nodes, slots in
                    Self._move(node, from: position, direction: direction, nodes: nodes, slots: slots)
                }
            }
            return
        }
        let old = _nodes[index].priority
        _nodes[index].priority = key
        let best = Int(_bands[band].best)
        guard best >= 0 else { return }
        if best == position {
            if key < old { _bands[band].best = -1 }
        } else if _nodes[Int(_bands[band].start) &+ best].priority < key {
            _bands[band].best = Int32(truncatingIfNeeded: position)
        }
    }

    /// Sifts `node` up (`direction` 1) or down (otherwise) from `position`.
    @inlinable @inline(__always)
    internal static func _move(
        _ node: _Node, from position: Int, direction: Int,
        nodes: UnsafeMutableBufferPointer<_Node>, slots: UnsafeMutableBufferPointer<_Slot>
    ) {
        if direction > 0 {
            IndexedHeap<UInt64>._siftUp(node, from: position, nodes: nodes, slots: slots)
        } else {
            IndexedHeap<UInt64>._siftDown(node, from: position, nodes: nodes, slots: slots)
        }
    }

    /// Arranges `band` as an 8-ary heap (bottom-up construction).
    @inlinable
    internal mutating func _makeHeap(_ band: Int) {
        _sift(band: band) { nodes, slots in
            guard nodes.count > 1 else { return }
            var position = IndexedHeap<UInt64>._parent(of: nodes.count &- 1)
            while position >= 0 {
                IndexedHeap<UInt64>._siftDown(nodes[position], from: position, nodes: nodes, slots: slots)
                position &-= 1
            }
        }
        _bands[band].isHeap = true
        _bands[band].best = 0
    }

    /// Gives the full `band` a range of the pool twice as large (at least 8): in place when its
    /// range ends the pool, else at the end of the pool, compacting the pool first when more than
    /// half of it would be unused.
    @inlinable
    internal mutating func _grow(_ band: Int) {
        let capacity = Int(_bands[band].capacity)
        let grown = Swift.max(8, capacity &* 2)
        precondition(_nodes.count &+ grown < Int(UInt32.max), "BandedHeap: node pool full")
        let start = Int(_bands[band].start)
        let filler = _Node(priority: 0, slot: _Slot.free)
        if start &+ capacity == _nodes.count {
            _nodes.append(contentsOf: repeatElement(filler, count: grown &- capacity))
        } else {
            if (_unused &+ capacity) &* 2 > _nodes.count &+ grown { _compact() }
            let moved = Int(_bands[band].start)
            let nodes = ContiguousArray(_nodes[moved ..< moved &+ capacity])
            _bands[band].start = UInt32(truncatingIfNeeded: _nodes.count)
            // Appending lets the pool grow geometrically (reserving the exact size would copy
            // the whole pool on every band's growth).
            _nodes.append(contentsOf: nodes)
            _nodes.append(contentsOf: repeatElement(filler, count: grown &- capacity))
            _unused &+= capacity
        }
        _bands[band].capacity = UInt32(truncatingIfNeeded: grown)
    }

    /// Copies every band's nodes into a new pool with no unused range (each band keeps its
    /// capacity, so none has to grow again at once). Positions inside bands do not change, so
    /// the slot table stays as it is.
    @inlinable
    internal mutating func _compact() {
        let filler = _Node(priority: 0, slot: _Slot.free)
        var pool = ContiguousArray<_Node>()
        pool.reserveCapacity(_nodes.count &- _unused)
        for band in _bands.indices {
            let start = Int(_bands[band].start)
            _bands[band].start = UInt32(truncatingIfNeeded: pool.count)
            pool.append(contentsOf: _nodes[start ..< start &+ Int(_bands[band].count)])
            pool.append(contentsOf: repeatElement(filler, count: Int(_bands[band].capacity &- _bands[band].count)))
        }
        _nodes = pool
        _unused = 0
    }

    /// Runs `body` on the nodes of `band`.
    @inlinable @inline(__always)
    internal func _withNodes<R>(of band: Int, _ body: (UnsafeBufferPointer<_Node>) -> R) -> R {
        let start = Int(_bands[band].start)
        let count = Int(_bands[band].count)
        return _nodes.withUnsafeBufferPointer { pool in
            body(UnsafeBufferPointer(rebasing: pool[start ..< start &+ count]))
        }
    }

    /// Runs `body` on the nodes of `band` and the slot table.
    @inlinable @inline(__always)
    internal mutating func _sift(
        band: Int,
        _ body: (UnsafeMutableBufferPointer<_Node>, UnsafeMutableBufferPointer<_Slot>) -> Void
    ) {
        let start = Int(_bands[band].start)
        let count = Int(_bands[band].count)
        _slots.withUnsafeMutableBufferPointer { slots in
            _nodes.withUnsafeMutableBufferPointer { pool in
                body(UnsafeMutableBufferPointer(rebasing: pool[start ..< start &+ count]), slots)
            }
        }
    }
}

extension BandedHeap._Slot: _HeapPositionSlot {}
