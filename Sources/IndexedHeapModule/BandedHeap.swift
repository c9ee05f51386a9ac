/// An indexed max-priority queue of `UInt64` keys, partitioned into bands by the keys' top 20
/// bits: every key of a higher band outranks every key of a lower one, so the maximum is the
/// maximum of the highest band that is not empty, found in an occupancy bitmap.
///
/// This is the kill queue's structure. A kill key's top bits are its band (and, in slotted bands,
/// its `oom_score_adj` or priority slot), so bands here are the policy's bands and slots, and
/// inside a band the structure is chosen by the band's size:
///
/// - a band of up to ``smallBandLimit`` keys is an unsorted array with its maximum's position
///   cached: changing a key is one store and one comparison, the way Android's lmkd keeps a list
///   per `oom_score_adj` slot (`procadjslot_list`), and the maximum is found again by a scan of
///   the band only when the key that was the maximum fell or left;
/// - a larger band is an 8-ary heap, as ``IndexedHeap``.
///
/// Handles are ``IndexedHeapHandle``s with the same guarantees as ``IndexedHeap``'s: stable while
/// the element lives, stale after it leaves, a dense ``IndexedHeapHandle/index``.
///
/// ```swift
/// var queue = BandedHeap()
/// let cached = queue.insert(900 << 44 | 300)   // band 900, key 300
/// let service = queue.insert(100 << 44 | 5_000)
/// queue.max?.handle == cached                  // true: band 900 outranks band 100
/// queue.update(cached, to: 50 << 44)           // moves to band 50
/// queue.popMax()?.handle == service            // true
/// ```
///
/// Equal keys are allowed; which of them is the maximum, or comes first in ``forEachTop(_:_:)``,
/// is unspecified (the kill queue makes its keys unique).
@frozen
public struct BandedHeap {
    /// A stable reference to one element.
    public typealias Handle = IndexedHeapHandle

    /// The number of low bits below a key's band: the band of `key` is `key >> bandShift`.
    public static var bandShift: Int { 44 }

    /// The largest band kept as an unsorted array; a band that grows past it becomes a heap, and
    /// a heap that shrinks to half of it an unsorted array again.
    public static var smallBandLimit: Int { 512 }

    @usableFromInline internal typealias _Node = IndexedHeap<UInt64>._Node

    @frozen @usableFromInline
    internal struct _Slot {
        /// The element's position in its band, or ``free``.
        @usableFromInline internal var position: UInt32
        /// The element's band index.
        @usableFromInline internal var band: UInt32
        /// How many times the slot has been freed.
        @usableFromInline internal var generation: UInt32

        @usableFromInline internal static var free: UInt32 { .max }

        @inlinable @inline(__always)
        internal init(position: UInt32, band: UInt32, generation: UInt32) {
            self.position = position
            self.band = band
            self.generation = generation
        }
    }

    @frozen @usableFromInline
    internal struct _Band {
        /// Where the band's nodes start in the node pool.
        @usableFromInline internal var start: UInt32
        /// How many nodes the band holds: its nodes are `start ..< start + count`.
        @usableFromInline internal var count: UInt32
        /// How many nodes its range of the pool can hold.
        @usableFromInline internal var capacity: UInt32
        /// The position (in the band) of the highest key when known, else -1 (a heap's is 0).
        @usableFromInline internal var best: Int32
        /// The band id (the keys' top 20 bits).
        @usableFromInline internal let id: UInt32
        /// Whether the band's nodes are in 8-ary heap order.
        @usableFromInline internal var isHeap: Bool

        @inlinable
        internal init(id: UInt32) {
            start = 0
            count = 0
            capacity = 0
            best = -1
            self.id = id
            isHeap = false
        }
    }

    /// Every band's nodes, each band in a range of its own (see ``_Band``); ranges a band left
    /// when it grew are unused until ``_compact()``.
    @usableFromInline internal var _nodes: ContiguousArray<_Node>
    /// How many nodes of the pool no band uses.
    @usableFromInline internal var _unused: Int
    @usableFromInline internal var _slots: ContiguousArray<_Slot>
    @usableFromInline internal var _freeSlots: ContiguousArray<UInt32>
    @usableFromInline internal var _bands: ContiguousArray<_Band>
    @usableFromInline internal var _directory: _Directory
    /// The index of the highest band that is not empty, or -1 when the queue is empty.
    @usableFromInline internal var _highest: Int32
    @usableFromInline internal var _count: Int

    /// Creates an empty queue.
    ///
    /// - Complexity: O(1)
    @inlinable
    public init() {
        _nodes = []
        _unused = 0
        _slots = []
        _freeSlots = []
        _bands = []
        _directory = _Directory()
        _highest = -1
        _count = 0
    }

    /// Creates a queue of `keys`, in two passes (count the bands, then place every key in its
    /// band's range) and one heap construction per large band; the element of `keys[i]` has the
    /// handle whose ``IndexedHeapHandle/index`` is `i`.
    ///
    /// - Complexity: O(n)
    @inlinable
    public init<C: Collection<UInt64>>(_ keys: C) {
        self.init()
        precondition(keys.count < Int(_Slot.free), "BandedHeap holds at most 2^32 - 1 elements")
        _slots.reserveCapacity(keys.count)
        for key in keys {
            let band = _band(forID: Self._id(of: key))
            _slots.append(_Slot(position: _bands[band].count, band: UInt32(truncatingIfNeeded: band), generation: 0))
            _bands[band].count &+= 1
        }
        var start: UInt32 = 0
        for band in _bands.indices {
            _bands[band].start = start
            _bands[band].capacity = _bands[band].count
            start &+= _bands[band].count
        }
        _nodes = ContiguousArray(unsafeUninitializedCapacity: keys.count) { buffer, initialized in
            for (slot, key) in keys.enumerated() {
                let entry = _slots[slot]
                buffer.initializeElement(
                    at: Int(_bands[Int(entry.band)].start &+ entry.position),
                    to: _Node(priority: key, slot: UInt32(truncatingIfNeeded: slot)))
            }
            initialized = keys.count
        }
        _count = keys.count
        for band in _bands.indices where _bands[band].count > 0 {
            _bands[band].best = -1
            _directory.setOccupied(_bands[band].id, true)
            if _bands[band].count > UInt32(Self.smallBandLimit) { _makeHeap(band) }
            if _highest < 0 || _bands[Int(_highest)].id < _bands[band].id { _highest = Int32(truncatingIfNeeded: band) }
        }
        _checkInvariants()
    }
}

extension BandedHeap: Sendable {}
extension BandedHeap._Slot: Sendable {}
extension BandedHeap._Band: Sendable {}

extension BandedHeap {
    /// The number of elements.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var count: Int { _count }

    /// Whether the queue holds no element.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var isEmpty: Bool { _count == 0 }

    /// One more than the highest handle index issued so far.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var slotCapacity: Int { _slots.count }

    /// The element with the highest key and that key, or `nil` when empty. Reading it may scan
    /// the highest band (when it is unsorted and its maximum fell or left since the last read)
    /// and remembers what it found, which is why the getter is mutating.
    ///
    /// - Complexity: O(1) amortized over random key changes; O(``smallBandLimit``) at worst.
    @inlinable
    public var max: (handle: Handle, priority: UInt64)? {
        mutating get {
            guard _highest >= 0 else { return nil }
            let band = Int(_highest)
            let node = _nodes[Int(_bands[band].start) &+ _bestPosition(band)]
            return (_handle(forSlot: node.slot), node.priority)
        }
    }

    /// Whether `handle` refers to an element in the queue.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func contains(_ handle: Handle) -> Bool {
        let slot = Int(handle._slot)
        guard slot < _slots.count else { return false }
        let entry = _slots[slot]
        return entry.generation == handle._generation && entry.position != _Slot.free
    }

    /// The key of the element `handle` refers to, which must be in the queue.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func priority(of handle: Handle) -> UInt64 {
        let entry = _entry(of: handle)
        return _nodes[Int(_bands[Int(entry.band)].start &+ entry.position)].priority
    }

    /// The live handle whose ``IndexedHeapHandle/index`` is `index`, or `nil`.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func handle(forIndex index: Int) -> Handle? {
        guard index >= 0, index < _slots.count else { return nil }
        let entry = _slots[index]
        guard entry.position != _Slot.free else { return nil }
        return Handle(_slot: UInt32(truncatingIfNeeded: index), generation: entry.generation)
    }

    /// Reserves room for `minimumCapacity` handles.
    ///
    /// - Complexity: O(n)
    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        _slots.reserveCapacity(minimumCapacity)
        _freeSlots.reserveCapacity(minimumCapacity)
    }

    /// Adds an element with `key` and returns its handle. Slots of removed elements are reused,
    /// the most recently freed first.
    ///
    /// - Complexity: O(1) into an unsorted band, O(log n) into a heap band (amortized: a band that
    ///   outgrows ``smallBandLimit`` is arranged as a heap once).
    @inlinable
    @discardableResult
    public mutating func insert(_ key: UInt64) -> Handle {
        precondition(_slots.count < Int(_Slot.free) - 1 || !_freeSlots.isEmpty, "BandedHeap holds at most 2^32 - 2 elements")
        let band = _band(forID: Self._id(of: key))
        let slot: UInt32
        let generation: UInt32
        if let reused = _freeSlots.popLast() {
            slot = reused
            generation = _slots[Int(reused)].generation
        } else {
            slot = UInt32(truncatingIfNeeded: _slots.count)
            generation = 0
            _slots.append(_Slot(position: 0, band: 0, generation: 0))
        }
        _append(_Node(priority: key, slot: slot), to: band)
        _count &+= 1
        _checkInvariants()
        return Handle(_slot: slot, generation: generation)
    }

    /// Changes the key of the element `handle` refers to, which must be in the queue.
    ///
    /// - Complexity: O(1) inside an unsorted band, O(log n) inside a heap band or into another band.
    @inlinable @inline(__always)
    public mutating func update(_ handle: Handle, to key: UInt64) {
        let entry = _entry(of: handle)
        let band = Int(entry.band)
        if _bands[band].id == Self._id(of: key) {
            _change(band: band, position: Int(entry.position), to: key)
        } else {
            _take(band: band, position: Int(entry.position))
            _append(_Node(priority: key, slot: handle._slot), to: _band(forID: Self._id(of: key)))
        }
        _checkInvariants()
    }

    /// Removes the element `handle` refers to, which must be in the queue, and returns its key.
    ///
    /// - Complexity: O(1) from an unsorted band, O(log n) from a heap band.
    @inlinable
    @discardableResult
    public mutating func remove(_ handle: Handle) -> UInt64 {
        let entry = _entry(of: handle)
        let key = _take(band: Int(entry.band), position: Int(entry.position))
        _release(slot: handle._slot)
        _count &-= 1
        _checkInvariants()
        return key
    }

    /// Removes the element with the highest key and returns it, or `nil` when empty.
    ///
    /// - Complexity: as ``max`` plus ``remove(_:)``.
    @inlinable
    public mutating func popMax() -> (handle: Handle, priority: UInt64)? {
        guard let top = max else { return nil }
        remove(top.handle)
        return top
    }
}
