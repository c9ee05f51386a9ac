/// A max-priority queue of `UInt64` keys addressed by stable handles, with the same interface as
/// ``IndexedHeap`` but a different shape: every element stays in a fixed leaf (its handle's slot),
/// and a 16-ary tournament tree above the leaves records, for every group of 16 leaves, 256
/// leaves, and so on, the highest key below it and whose it is.
///
/// It is built for kill queues, where almost every operation is a small change of one app's key
/// (its footprint drifts) and the maximum is read far more often than it is removed:
///
///     var queue = IndexedTournament()
///     let mail = queue.insert(38 << 20)
///     let maps = queue.insert(120 << 20)
///     queue.update(mail, to: 200 << 20)         // mail grew
///     queue.max?.handle == mail                 // true
///     queue.top(2).map(\.handle) == [mail, maps] // a report that leaves the queue unchanged
///
/// Costs, with n elements and L = ⌈log₁₆ n⌉ levels:
/// - ``update(_:to:)`` writes the leaf and compares the new key with its group's maximum. Nothing
///   else is touched unless the key overtakes that maximum (then it is written into the ancestors
///   it beats) or the element *was* that maximum and fell (then the group's 16 entries are
///   compared again, and the next level's if its maximum came from there too). A key that changes
///   a little therefore costs one leaf write and one comparison in 15 cases out of 16, where a
///   heap compares with a parent or up to eight children and may move nodes.
/// - ``max`` is O(1): the root names the element.
/// - ``popMax()``, ``remove(_:)``: O(16 L) comparisons (the removed element's groups are
///   recomputed on its path).
/// - ``forEachTop(_:_:)`` walks the tree from the root, visiting a group only while its maximum
///   still beats the k-th best key found so far.
///
/// Elements with equal keys come out lowest handle index first (``IndexedHeapHandle/index``),
/// so the order is fully determined by the keys and the handles: a kill queue whose keys are
/// unique (a tie-breaker in the low bits) picks exactly the victims an ``IndexedHeap`` would.
///
/// Slots are reused last-in first-out, exactly as ``IndexedHeap`` reuses them, so the same
/// sequence of insertions and removals issues the same handle indices in both. Passing a removed
/// handle to a method that requires a live one traps with a message naming the handle; use
/// ``contains(_:)`` to test it first.
///
/// The engine's kill queue (``AdaptiveIndexedQueue``) is this structure when it is built from
/// 786,432 apps or more, and an ``IndexedHeap`` otherwise: measured side by side on the mixed kill-queue
/// workload (Benchmarks/README.md, "Mixed kill-queue workload"), this structure is faster with a
/// million elements (an update finds its leaf and its group from the handle, one wait for memory
/// where the heap has two) and slower from 100 to 100,000, where the heap's update is cheaper and
/// recomputing a group reads 16 leaves.
///
/// The design is a tournament (winner) tree, Knuth, *The Art of Computer Programming* vol. 3,
/// §5.4.1 ("replacement selection"), with a fan-out of 16 so a group's entries share four cache
/// lines and the tree over a million leaves has five levels.
@frozen
public struct IndexedTournament {
    /// The type of the handles this queue issues.
    public typealias Handle = IndexedHeapHandle
    /// The type of the keys: a higher key is a higher priority.
    public typealias Priority = UInt64

    /// One entry of the tree: the highest key of a group and the slot it belongs to, or
    /// ``_Entry/empty`` (key 0, slot `UInt32.max`) when the group holds no element.
    @frozen @usableFromInline
    internal struct _Entry: Equatable, Sendable {
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

    /// One leaf: the key of the element in this slot, and whether there is one.
    @frozen @usableFromInline
    internal struct _Leaf: Sendable {
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

    /// log₂ of the fan-out.
    @inlinable @inline(__always)
    internal static var _shift: Int { 4 }

    /// The fan-out: how many entries one group of the tree covers.
    @inlinable @inline(__always)
    internal static var _fanOut: Int { 1 << _shift }

    /// The leaves, indexed by slot (handle index).
    @usableFromInline
    internal var _leaves: ContiguousArray<_Leaf>

    /// Every level of the tree above the leaves, the lowest first and the root last: level `l`
    /// (1 = the groups of 16 leaves) occupies `_levelStart[l - 1] ..< _levelStart[l]`.
    @usableFromInline
    internal var _nodes: ContiguousArray<_Entry>

    /// Where each level starts in `_nodes`, and one past the end.
    @usableFromInline
    internal var _levelStart: ContiguousArray<Int>

    /// How many leaves the tree is built for: a power of two, at least the fan-out.
    @usableFromInline
    internal var _leafCapacity: Int

    /// Slots whose elements were removed, reused last-in first-out by later insertions.
    @usableFromInline
    internal var _freeSlots: ContiguousArray<UInt32>

    /// The number of live elements.
    @usableFromInline
    internal var _count: Int

    /// Creates an empty queue.
    ///
    /// - Complexity: O(1)
    @inlinable
    public init() {
        _leaves = []
        _nodes = [.empty]
        _levelStart = [0, 1]
        _leafCapacity = Self._fanOut
        _freeSlots = []
        _count = 0
    }

    /// Creates a queue holding `priorities`, in O(n).
    ///
    /// The element built from the `i`-th priority of the sequence gets the handle whose
    /// ``IndexedHeapHandle/index`` is `i`; ``handle(forIndex:)`` returns it.
    ///
    /// - Complexity: O(n), where n is the number of priorities.
    @inlinable
    public init<S: Sequence>(_ priorities: S) where S.Element == UInt64 {
        self.init()
        _leaves.reserveCapacity(priorities.underestimatedCount)
        for priority in priorities {
            _leaves.append(_Leaf(key: priority, generation: 0, isLive: true))
        }
        precondition(_leaves.count < Int(UInt32.max), "IndexedTournament holds at most 2^32 - 2 elements")
        _count = _leaves.count
        _rebuild(leafCapacity: Self._capacity(for: _leaves.count))
        _checkInvariants()
    }
}

extension IndexedTournament: Sendable {}

extension IndexedTournament {
    /// The number of elements in the queue.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var count: Int { _count }

    /// Whether the queue has no elements.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var isEmpty: Bool { _count == 0 }

    /// The number of handle slots allocated so far: every live handle's
    /// ``IndexedHeapHandle/index`` is below it.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var slotCapacity: Int { _leaves.count }

    /// The element with the highest priority (of equal ones, the lowest handle index), or `nil`
    /// if the queue is empty.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var max: (handle: Handle, priority: UInt64)? {
        let root = _nodes[_nodes.count &- 1]
        guard root.slot != _Entry.empty.slot else { return nil }
        return (_handle(forSlot: root.slot), root.key)
    }

    /// Whether `handle` refers to an element that is still in this queue.
    ///
    /// Unlike the methods that require a live handle, this never traps: a removed handle, or one
    /// whose slot has since been reused, returns `false`.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func contains(_ handle: Handle) -> Bool {
        let slot = Int(handle._slot)
        guard slot < _leaves.count else { return false }
        let leaf = _leaves[slot]
        return leaf.isLive && leaf.generation == handle._generation
    }

    /// The priority of the element `handle` refers to.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: O(1)
    @inlinable
    public func priority(of handle: Handle) -> UInt64 {
        _leaves[_checkedSlot(of: handle)].key
    }

    /// The live handle whose ``IndexedHeapHandle/index`` is `index`, or `nil` if no element of
    /// this queue currently has that index.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func handle(forIndex index: Int) -> Handle? {
        guard index >= 0, index < _leaves.count else { return nil }
        let leaf = _leaves[index]
        guard leaf.isLive else { return nil }
        return Handle(_slot: UInt32(truncatingIfNeeded: index), generation: leaf.generation)
    }

    /// Reserves room for `minimumCapacity` elements, so that inserting up to that many
    /// elements does not allocate.
    ///
    /// - Complexity: O(n) when the storage grows, O(1) otherwise.
    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        _leaves.reserveCapacity(minimumCapacity)
        _freeSlots.reserveCapacity(minimumCapacity)
        if minimumCapacity > _leafCapacity {
            _rebuild(leafCapacity: Self._capacity(for: minimumCapacity))
        }
    }

    /// Inserts an element with `priority` and returns its handle.
    ///
    /// The handle reuses the slot of the most recently removed element if there is one, with a
    /// new generation; otherwise it takes the next slot.
    ///
    /// - Complexity: O(L) comparisons for L levels, O(1) unless the key beats its group's
    ///   maximum; amortised O(1) allocation-free when capacity is reserved.
    @inlinable
    @discardableResult
    public mutating func insert(_ priority: UInt64) -> Handle {
        let slot: UInt32
        if let reused = _freeSlots.popLast() {
            slot = reused
            _leaves[Int(slot)].key = priority
            _leaves[Int(slot)].isLive = true
        } else {
            precondition(_leaves.count < Int(UInt32.max) - 1, "IndexedTournament holds at most 2^32 - 2 elements")
            slot = UInt32(truncatingIfNeeded: _leaves.count)
            _leaves.append(_Leaf(key: priority, generation: 0, isLive: true))
            if _leaves.count > _leafCapacity {
                // The new leaf is already in `_leaves`, so the rebuilt tree includes it.
                _count &+= 1
                _rebuild(leafCapacity: _leafCapacity &* 2)
                _checkInvariants()
                return Handle(_slot: slot, generation: 0)
            }
        }
        _count &+= 1
        let entry = _Entry(key: priority, slot: slot)
        if entry.beats(_nodes[Int(slot) >> Self._shift]) {
            _propagate(from: slot, entry)
        }
        _checkInvariants()
        return Handle(_slot: slot, generation: _leaves[Int(slot)].generation)
    }

    /// Changes the priority of the element `handle` refers to, in either direction.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: O(1) unless the element overtakes its group's maximum or was that maximum
    ///   and fell; then O(16 L) comparisons at most, for L levels.
    @inlinable
    public mutating func update(_ handle: Handle, to priority: UInt64) {
        _update(handle, slot: _checkedSlot(of: handle), to: priority)
    }

    /// Changes the priority of the element `handle` refers to into `transform` of its current
    /// priority: one check of the handle where reading ``priority(of:)`` and then calling
    /// ``update(_:to:)`` make two.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: as ``update(_:to:)``.
    @inlinable @inline(__always)
    public mutating func update(_ handle: Handle, with transform: (UInt64) -> UInt64) {
        let slot = _checkedSlot(of: handle)
        _update(handle, slot: slot, to: transform(_leaves[slot].key))
    }

    /// Gives the live element `handle`, whose leaf is `slot`, the key `priority`.
    @inlinable @inline(__always)
    internal mutating func _update(_ handle: Handle, slot: Int, to priority: UInt64) {
        _leaves[slot].key = priority
        let entry = _Entry(key: priority, slot: handle._slot)
        // The common case, inline: the key neither beats its group's maximum nor was it.
        let group = _nodes[slot >> Self._shift]
        if entry.beats(group) || group.slot == handle._slot {
            _propagate(from: handle._slot, entry)
        }
        _checkInvariants()
    }

    /// Removes the element `handle` refers to and returns its priority. The handle becomes invalid.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: O(16 L) comparisons for L levels.
    @inlinable
    @discardableResult
    public mutating func remove(_ handle: Handle) -> UInt64 {
        let slot = _checkedSlot(of: handle)
        let removed = _leaves[slot].key
        _release(slot: handle._slot)
        _checkInvariants()
        return removed
    }

    /// Removes and returns the element with the highest priority (of equal ones, the lowest handle
    /// index), or returns `nil` if the queue is empty. Its handle becomes invalid.
    ///
    /// - Complexity: O(16 L) comparisons for L levels.
    @inlinable
    public mutating func popMax() -> (handle: Handle, priority: UInt64)? {
        let root = _nodes[_nodes.count &- 1]
        guard root.slot != _Entry.empty.slot else { return nil }
        let handle = _handle(forSlot: root.slot)
        _release(slot: root.slot)
        _checkInvariants()
        return (handle, root.key)
    }

    /// Removes every element, invalidating every handle issued so far.
    ///
    /// - Complexity: O(s) for the s slots issued so far.
    @inlinable
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        for slot in _leaves.indices where _leaves[slot].isLive {
            _leaves[slot].isLive = false
            _leaves[slot].key = 0
            _leaves[slot].generation &+= 1
            _freeSlots.append(UInt32(truncatingIfNeeded: slot))
        }
        _count = 0
        for position in _nodes.indices { _nodes[position] = .empty }
        _checkInvariants()
    }

    /// The elements in no particular order (slot order), without copying.
    ///
    /// - Complexity: O(1) to create; O(s) to iterate, for the s slots issued so far.
    @inlinable
    public var unordered: some Collection<(handle: Handle, priority: UInt64)> {
        _leaves.indices.lazy.filter { _leaves[$0].isLive }.map {
            (Handle(_slot: UInt32(truncatingIfNeeded: $0), generation: _leaves[$0].generation), _leaves[$0].key)
        }
    }
}
