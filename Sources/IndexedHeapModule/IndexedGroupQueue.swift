/// A max-priority queue of `UInt64` keys addressed by stable handles, with the interface of
/// ``IndexedHeap``, built for small kill queues: every element stays in a fixed leaf (its handle's
/// slot), every group of 64 leaves records its highest key and whose it is, and the queue records
/// the highest of all.
///
///     var queue = IndexedGroupQueue()
///     let mail = queue.insert(38 << 20)
///     let maps = queue.insert(120 << 20)
///     queue.update(mail, to: 200 << 20)          // mail grew
///     queue.max?.handle == mail                  // true
///     queue.top(2).map(\.handle) == [mail, maps] // a report that leaves the queue unchanged
///
/// Costs, with n elements in G = ⌈s / 64⌉ groups for the s slots issued:
/// - ``update(_:to:)`` writes the leaf and compares the new key with its group's maximum; nothing
///   else is read unless the key overtakes that maximum (then it is compared with the queue's
///   maximum too) or the element *was* that maximum and fell (then the group's 64 leaves are read
///   again, and the G group maxima if it was the queue's maximum). A key that drifts a little
///   therefore costs one leaf write and one comparison in 63 cases out of 64, about what a store
///   into an intrusive list node costs (Android lmkd's `procadjslot_list`).
/// - ``max`` is O(1).
/// - ``popMax()`` and ``remove(_:)`` read the element's group again (64 leaves), and the G group
///   maxima if it was the maximum: O(64 + G), which is why the engine uses this queue only while
///   it is small (``AdaptiveIndexedQueue``).
/// - ``forEachTop(_:_:)`` reads the G group maxima and then the groups whose maximum can still
///   enter the report, best first.
///
/// Its storage is raw memory behind one class, checked for sharing once per mutation, so copies
/// have value semantics as ``IndexedHeap``'s do, and nothing on the update path goes through a
/// Swift array: that is what brings an update near a list's single store.
///
/// Elements with equal keys come out lowest handle index first (``IndexedHeapHandle/index``), as
/// from ``IndexedTournament``. Slots are reused last-in first-out, exactly as ``IndexedHeap`` reuses
/// them, so the same sequence of insertions and removals issues the same handles in all three.
/// Passing a removed handle to a method that requires a live one traps with a message naming the
/// handle; use ``contains(_:)`` to test it first.
///
/// The design is a tournament (winner) tree of two levels, Knuth, *The Art of Computer
/// Programming* vol. 3, §5.4.1, with a wide bottom level so that the top is a short scan.
@frozen
public struct IndexedGroupQueue {
    /// The type of the handles this queue issues.
    public typealias Handle = IndexedHeapHandle

    @usableFromInline
    internal var _storage: _Storage

    /// Creates an empty queue.
    ///
    /// - Complexity: O(1)
    @inlinable
    public init() {
        _storage = _Storage(capacity: _Storage.groupSize)
    }

    /// Creates a queue holding `priorities`, in O(n).
    ///
    /// The element built from the `i`-th priority of the sequence gets the handle whose
    /// ``IndexedHeapHandle/index`` is `i`; ``handle(forIndex:)`` returns it.
    ///
    /// - Complexity: O(n), where n is the number of priorities.
    @inlinable
    public init<S: Sequence>(_ priorities: S) where S.Element == UInt64 {
        let keys = ContiguousArray(priorities)
        precondition(keys.count < Int(UInt32.max) - 1, "IndexedGroupQueue holds at most 2^32 - 2 elements")
        _storage = _Storage(capacity: _Storage.capacity(for: keys.count))
        let header = _storage.header
        let leaves = _storage.leaves
        for (slot, key) in keys.enumerated() {
            leaves[slot] = _Leaf(key: key, generation: 0, isLive: true)
        }
        header.pointee.slotCount = keys.count
        header.pointee.count = keys.count
        for group in 0..<_storage.groupCount(for: keys.count) { _storage.recomputeGroup(group) }
        _storage.recomputeTop()
        _checkInvariants()
    }
}

extension IndexedGroupQueue: @unchecked Sendable {}

extension IndexedGroupQueue {
    /// One leaf: the key of the element in this slot, its generation, and whether there is one.
    @frozen @usableFromInline
    internal struct _Leaf {
        @usableFromInline internal var key: UInt64
        /// Bumped every time the slot is freed, so stale handles are detected.
        @usableFromInline internal var generation: UInt32
        @usableFromInline internal var isLive: Bool

        @inlinable @inline(__always)
        internal init(key: UInt64, generation: UInt32, isLive: Bool) {
            self.key = key
            self.generation = generation
            self.isLive = isLive
        }
    }

    /// A group's or the queue's maximum: its key and slot, or ``empty`` (key 0, slot `UInt32.max`).
    @frozen @usableFromInline
    internal struct _Entry: Equatable {
        @usableFromInline internal var key: UInt64
        @usableFromInline internal var slot: UInt32

        @inlinable @inline(__always)
        internal init(key: UInt64, slot: UInt32) {
            self.key = key
            self.slot = slot
        }

        /// The entry of a group without elements: below every live entry, key 0 included.
        @inlinable @inline(__always)
        internal static var empty: _Entry { _Entry(key: 0, slot: .max) }

        /// Whether `self` comes out before `other`: a higher key, or an equal key and a lower slot.
        @inlinable @inline(__always)
        internal func beats(_ other: _Entry) -> Bool {
            key > other.key || (key == other.key && slot < other.slot)
        }
    }

    /// The counters: kept in raw memory so that the class's stored properties are all constants
    /// and no access to them is checked for exclusivity at run time.
    @frozen @usableFromInline
    internal struct _Header {
        /// The live elements.
        @usableFromInline internal var count: Int
        /// The slots issued so far (live or free): every handle's index is below it.
        @usableFromInline internal var slotCount: Int
        /// How many slots `freeSlots` holds.
        @usableFromInline internal var freeCount: Int
        /// The highest element, or ``_Entry/empty``.
        @usableFromInline internal var top: _Entry

        @inlinable @inline(__always)
        internal init() {
            count = 0
            slotCount = 0
            freeCount = 0
            top = .empty
        }
    }

    /// The queue's memory: leaves, group maxima, free slots and counters, each a fixed-size raw
    /// allocation. Growing means a new storage object.
    @usableFromInline
    internal final class _Storage {
        /// log₂ of the group size.
        @inlinable @inline(__always)
        internal static var groupShift: Int { 6 }

        /// How many leaves a group holds.
        @inlinable @inline(__always)
        internal static var groupSize: Int { 1 << groupShift }

        /// How many leaves there is room for: a multiple of ``groupSize``.
        @usableFromInline internal let capacity: Int
        @usableFromInline internal let header: UnsafeMutablePointer<_Header>
        @usableFromInline internal let leaves: UnsafeMutablePointer<_Leaf>
        /// The maximum of each group of ``groupSize`` leaves.
        @usableFromInline internal let groups: UnsafeMutablePointer<_Entry>
        /// Slots whose elements were removed, reused last-in first-out.
        @usableFromInline internal let freeSlots: UnsafeMutablePointer<UInt32>

        /// The capacity that holds `count` leaves: the next multiple of the group size, at least one group.
        @inlinable
        internal static func capacity(for count: Int) -> Int {
            Swift.max(groupSize, (count &+ groupSize &- 1) & ~(groupSize &- 1))
        }

        /// Empty storage for `capacity` leaves (a multiple of the group size).
        @inlinable
        internal init(capacity: Int) {
            self.capacity = capacity
            header = .allocate(capacity: 1)
            header.initialize(to: _Header())
            leaves = .allocate(capacity: capacity)
            leaves.initialize(repeating: _Leaf(key: 0, generation: 0, isLive: false), count: capacity)
            groups = .allocate(capacity: capacity >> Self.groupShift)
            groups.initialize(repeating: .empty, count: capacity >> Self.groupShift)
            freeSlots = .allocate(capacity: capacity)
        }

        /// A copy of `other` with room for `capacity` leaves (at least `other`'s).
        @inlinable
        internal convenience init(copying other: _Storage, capacity: Int) {
            self.init(capacity: capacity)
            header.pointee = other.header.pointee
            let slots = other.header.pointee.slotCount
            leaves.update(from: other.leaves, count: slots)
            groups.update(from: other.groups, count: other.groupCount(for: slots))
            freeSlots.update(from: other.freeSlots, count: other.header.pointee.freeCount)
        }

        deinit {
            header.deallocate()
            leaves.deallocate()
            groups.deallocate()
            freeSlots.deallocate()
        }

        /// The number of groups that cover `slots` slots.
        @inlinable @inline(__always)
        internal func groupCount(for slots: Int) -> Int {
            (slots &+ Self.groupSize &- 1) >> Self.groupShift
        }

        /// Reads group `group`'s leaves again and records its maximum.
        @inlinable
        internal func recomputeGroup(_ group: Int) {
            let start = group << Self.groupShift
            let end = Swift.min(start &+ Self.groupSize, header.pointee.slotCount)
            // Free and unissued leaves hold key 0, so one branch-free pass finds the best positive
            // key; slots rise, so an equal key never replaces it and the lowest slot wins ties.
            var bestKey: UInt64 = 0
            var bestSlot = -1
            var slot = start
            while slot < end {
                let key = leaves[slot].key
                let better = key > bestKey
                bestKey = better ? key : bestKey
                bestSlot = better ? slot : bestSlot
                slot &+= 1
            }
            if bestSlot < 0 {
                // No positive key: the first live leaf, whose key is 0, if any.
                bestSlot = (start..<end).first { leaves[$0].isLive } ?? -1
            }
            groups[group] = bestSlot < 0 ? .empty : _Entry(key: bestKey, slot: UInt32(truncatingIfNeeded: bestSlot))
        }

        /// Reads every group's maximum again and records the highest.
        @inlinable
        internal func recomputeTop() {
            var best = _Entry.empty
            for group in 0..<groupCount(for: header.pointee.slotCount) where groups[group].beats(best) {
                best = groups[group]
            }
            header.pointee.top = best
        }
    }
}

extension IndexedGroupQueue {
    /// The number of elements in the queue.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var count: Int { _storage.header.pointee.count }

    /// Whether the queue has no elements.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var isEmpty: Bool { count == 0 }

    /// The number of handle slots issued so far: every live handle's ``IndexedHeapHandle/index`` is
    /// below it.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var slotCapacity: Int { _storage.header.pointee.slotCount }

    /// The element with the highest priority (of equal ones, the lowest handle index), or `nil` if
    /// the queue is empty.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var max: (handle: Handle, priority: UInt64)? {
        let top = _storage.header.pointee.top
        guard top.slot != _Entry.empty.slot else { return nil }
        return (_handle(forSlot: Int(top.slot)), top.key)
    }

    /// Whether `handle` refers to an element that is still in this queue; never traps.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func contains(_ handle: Handle) -> Bool {
        let slot = Int(handle._slot)
        guard slot < _storage.header.pointee.slotCount else { return false }
        let leaf = _storage.leaves[slot]
        return leaf.isLive && leaf.generation == handle._generation
    }

    /// The priority of the element `handle` refers to.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func priority(of handle: Handle) -> UInt64 {
        _storage.leaves[_checkedSlot(of: handle)].key
    }

    /// The live handle whose ``IndexedHeapHandle/index`` is `index`, or `nil` if no element of this
    /// queue currently has that index.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func handle(forIndex index: Int) -> Handle? {
        guard index >= 0, index < _storage.header.pointee.slotCount else { return nil }
        let leaf = _storage.leaves[index]
        guard leaf.isLive else { return nil }
        return Handle(_slot: UInt32(truncatingIfNeeded: index), generation: leaf.generation)
    }

    /// Reserves room for `minimumCapacity` elements, so that inserting up to that many elements
    /// does not allocate.
    ///
    /// - Complexity: O(s) for the s slots issued when the storage grows, O(1) otherwise.
    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > _storage.capacity || !isKnownUniquelyReferenced(&_storage) {
            _storage = _Storage(
                copying: _storage, capacity: Swift.max(_storage.capacity, _Storage.capacity(for: minimumCapacity)))
        }
    }

    /// Inserts an element with `priority` and returns its handle.
    ///
    /// The handle reuses the slot of the most recently removed element if there is one, with a new
    /// generation; otherwise it takes the next slot.
    ///
    /// - Complexity: O(1) unless the storage grows (amortised O(1)).
    @inlinable @inline(__always)
    @discardableResult
    public mutating func insert(_ priority: UInt64) -> Handle {
        let header = _storage.header
        if header.pointee.freeCount == 0 && header.pointee.slotCount == _storage.capacity {
            _grow()
        } else {
            _makeUnique()
        }
        let storage = _storage
        let slot: Int
        if storage.header.pointee.freeCount > 0 {
            storage.header.pointee.freeCount &-= 1
            slot = Int(storage.freeSlots[storage.header.pointee.freeCount])
        } else {
            slot = storage.header.pointee.slotCount
            storage.header.pointee.slotCount &+= 1
        }
        storage.leaves[slot].key = priority
        storage.leaves[slot].isLive = true
        storage.header.pointee.count &+= 1
        let entry = _Entry(key: priority, slot: UInt32(truncatingIfNeeded: slot))
        let group = slot >> _Storage.groupShift
        if entry.beats(storage.groups[group]) {
            storage.groups[group] = entry
            if entry.beats(storage.header.pointee.top) { storage.header.pointee.top = entry }
        }
        _checkInvariants()
        return Handle(_slot: entry.slot, generation: storage.leaves[slot].generation)
    }

    /// Changes the priority of the element `handle` refers to, in either direction.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: O(1) unless the element was its group's maximum and fell: then O(64), and
    ///   O(64 + G) if it was the queue's maximum.
    @inlinable @inline(__always)
    public mutating func update(_ handle: Handle, to priority: UInt64) {
        _makeUnique()
        _update(slot: _checkedSlot(of: handle), to: priority)
    }

    /// Changes the priority of the element `handle` refers to into `transform` of its current
    /// priority: one check of the handle where reading ``priority(of:)`` and then calling
    /// ``update(_:to:)`` make two.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: as ``update(_:to:)``.
    @inlinable @inline(__always)
    public mutating func update(_ handle: Handle, with transform: (UInt64) -> UInt64) {
        _makeUnique()
        let slot = _checkedSlot(of: handle)
        _update(slot: slot, to: transform(_storage.leaves[slot].key))
    }

    /// Gives the live element in `slot` the key `priority`.
    @inlinable @inline(__always)
    internal func _update(slot: Int, to priority: UInt64) {
        let storage = _storage
        storage.leaves[slot].key = priority
        let group = slot >> _Storage.groupShift
        let groupMax = storage.groups[group]
        let entry = _Entry(key: priority, slot: UInt32(truncatingIfNeeded: slot))
        if groupMax.slot == entry.slot {
            if priority >= groupMax.key {
                // Still its group's maximum, and the queue's if it was.
                storage.groups[group].key = priority
                if storage.header.pointee.top.slot == entry.slot || entry.beats(storage.header.pointee.top) {
                    storage.header.pointee.top = entry
                }
            } else {
                _fell(slot: entry.slot, group: group)
            }
        } else if entry.beats(groupMax) {
            storage.groups[group] = entry
            if entry.beats(storage.header.pointee.top) { storage.header.pointee.top = entry }
        }
        _checkInvariants()
    }

    /// The maximum of `group`, in `slot`, fell or left: the group's maximum is found again, and the
    /// queue's if it was that too.
    @inlinable
    internal func _fell(slot: UInt32, group: Int) {
        _storage.recomputeGroup(group)
        if _storage.header.pointee.top.slot == slot { _storage.recomputeTop() }
    }

    /// Removes the element `handle` refers to and returns its priority. The handle becomes invalid.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: O(1) unless it was its group's maximum: then O(64), and O(64 + G) if it was
    ///   the queue's maximum.
    @inlinable
    @discardableResult
    public mutating func remove(_ handle: Handle) -> UInt64 {
        _makeUnique()
        return _release(slot: _checkedSlot(of: handle))
    }

    /// Removes and returns the element with the highest priority (of equal ones, the lowest handle
    /// index), or returns `nil` if the queue is empty. Its handle becomes invalid.
    ///
    /// - Complexity: O(64 + G).
    @inlinable
    public mutating func popMax() -> (handle: Handle, priority: UInt64)? {
        let top = _storage.header.pointee.top
        guard top.slot != _Entry.empty.slot else { return nil }
        _makeUnique()
        let handle = _handle(forSlot: Int(top.slot))
        _release(slot: Int(top.slot))
        return (handle, top.key)
    }

    /// Frees the live `slot` and returns its key.
    @inlinable
    @discardableResult
    internal func _release(slot: Int) -> UInt64 {
        let storage = _storage
        let key = storage.leaves[slot].key
        storage.leaves[slot] = _Leaf(key: 0, generation: storage.leaves[slot].generation &+ 1, isLive: false)
        storage.freeSlots[storage.header.pointee.freeCount] = UInt32(truncatingIfNeeded: slot)
        storage.header.pointee.freeCount &+= 1
        storage.header.pointee.count &-= 1
        let group = slot >> _Storage.groupShift
        if storage.groups[group].slot == UInt32(truncatingIfNeeded: slot) {
            _fell(slot: UInt32(truncatingIfNeeded: slot), group: group)
        }
        _checkInvariants()
        return key
    }

    /// Removes every element, invalidating every handle issued so far.
    ///
    /// - Complexity: O(s) for the s slots issued so far.
    @inlinable
    public mutating func removeAll() {
        _makeUnique()
        let storage = _storage
        for slot in 0..<storage.header.pointee.slotCount where storage.leaves[slot].isLive {
            _release(slot: slot)
        }
    }

    /// Doubles the capacity (the new storage is this queue's alone).
    @inlinable @inline(never)
    internal mutating func _grow() {
        precondition(_storage.capacity < Int(UInt32.max) / 2, "IndexedGroupQueue holds at most 2^31 elements")
        _storage = _Storage(copying: _storage, capacity: _storage.capacity &* 2)
    }

    /// Makes the storage this queue's alone, copying it if a copy of the queue shares it.
    @inlinable @inline(__always)
    internal mutating func _makeUnique() {
        if !isKnownUniquelyReferenced(&_storage) {
            _storage = _Storage(copying: _storage, capacity: _storage.capacity)
        }
    }

    /// The slot of a live `handle`; traps with a message naming it otherwise.
    @inlinable @inline(__always)
    internal func _checkedSlot(of handle: Handle) -> Int {
        let slot = Int(handle._slot)
        guard slot < _storage.header.pointee.slotCount,
            _storage.leaves[slot].generation == handle._generation, _storage.leaves[slot].isLive
        else { _invalidHandle(handle) }
        return slot
    }

    /// The handle of the live element in `slot`.
    @inlinable @inline(__always)
    internal func _handle(forSlot slot: Int) -> Handle {
        Handle(_slot: UInt32(truncatingIfNeeded: slot), generation: _storage.leaves[slot].generation)
    }

    @usableFromInline
    internal func _invalidHandle(_ handle: Handle) -> Never {
        preconditionFailure("IndexedGroupQueue: handle \(handle) does not refer to an element of this queue")
    }
}
