/// A stable reference to one element of an ``IndexedHeap``.
///
/// A handle stays valid while its element is in the heap, however often other elements move. It
/// becomes invalid when its element is removed (by ``IndexedHeap/remove(_:)`` or
/// ``IndexedHeap/popMax()``); the slot it named may then be reused by a later insertion, and the
/// handle's generation tells the two apart, so a stale handle is never mistaken for the new
/// element.
@frozen
public struct IndexedHeapHandle: Hashable, Sendable {
    /// The slot in the heap's position table.
    @usableFromInline
    internal let _slot: UInt32

    /// How many times the slot had been freed before this handle was issued.
    @usableFromInline
    internal let _generation: UInt32

    @inlinable @inline(__always)
    internal init(_slot: UInt32, generation: UInt32) {
        self._slot = _slot
        self._generation = generation
    }

    /// A dense integer in `0..<heap.slotCapacity` that no other live element of the same heap
    /// shares, so callers can keep per-element data in a plain array indexed by it.
    ///
    /// Elements of a heap built from a sequence have the indices `0..<n` in sequence order.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var index: Int { Int(_slot) }
}

extension IndexedHeapHandle: CustomStringConvertible {
    /// A short description such as `#12.3` (slot 12, generation 3).
    public var description: String { "#\(_slot).\(_generation)" }
}
