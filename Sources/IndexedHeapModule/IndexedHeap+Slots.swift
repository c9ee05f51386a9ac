// The position table: handle validation, slot allocation and release.

extension IndexedHeap {
    /// The position of the node `handle` refers to; traps with a message naming the handle if it
    /// is not live.
    @inlinable @inline(__always)
    internal func _position(of handle: Handle) -> Int {
        let slot = Int(handle._slot)
        precondition(slot < _slots.count, "IndexedHeap: handle \(handle) was never issued by this heap")
        let entry = _slots[slot]
        precondition(
            entry.generation == handle._generation && entry.position != _Slot.free,
            "IndexedHeap: handle \(handle) refers to an element that was removed"
        )
        return Int(entry.position)
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
}
