/// A max-heap whose elements are addressed by stable handles, so any element's priority can be
/// changed or the element removed in O(log n), and the maximum read in O(1).
///
/// It is built for workloads where priorities change far more often than the maximum is removed,
/// such as a kill queue whose keys follow every app's memory footprint:
///
///     var queue = IndexedHeap<UInt64>()
///     let mail = queue.insert(38 << 20)
///     let maps = queue.insert(120 << 20)
///     queue.update(mail, to: 200 << 20)        // mail grew
///     queue.max?.handle == mail                // true
///     queue.top(2).map(\.handle) == [mail, maps] // a report that leaves the heap unchanged
///
/// The heap is an 8-ary implicit heap on contiguous storage with a position table indexed by
/// handle, so a sift moves nodes within one array and an update finds its node in one load.
/// Apart from growing capacity, no operation allocates.
///
/// `Priority` is any `Comparable` type; every method is `@inlinable`, so a client that uses a
/// packed `UInt64` key (for example band, then footprint, then a tie-breaker) gets code where a
/// comparison is one integer compare. Elements with equal priorities come out in an order that is
/// unspecified but deterministic: the same sequence of operations always gives the same order.
///
/// Passing a handle whose element has been removed to a method that requires a live handle
/// (``remove(_:)``, ``update(_:to:)``, ``priority(of:)``) is a programming error: it traps with a
/// message naming the handle. Use ``contains(_:)`` to test a handle first. Handles carry no heap
/// identity: one issued by another heap is only caught when its slot or generation does not match
/// a live element of this heap, so do not mix handles between heaps.
@frozen
public struct IndexedHeap<Priority: Comparable> {
    /// The type of the handles this heap issues.
    public typealias Handle = IndexedHeapHandle

    /// One heap node: a priority and the slot of the handle that owns it.
    @frozen @usableFromInline
    internal struct _Node {
        @usableFromInline internal var priority: Priority
        @usableFromInline internal var slot: UInt32

        @inlinable @inline(__always)
        internal init(priority: Priority, slot: UInt32) {
            self.priority = priority
            self.slot = slot
        }
    }

    /// One entry of the position table: where a slot's node is, and the slot's generation.
    @frozen @usableFromInline
    internal struct _Slot {
        /// The node's position in `_nodes`, or `_Slot.free`.
        @usableFromInline internal var position: UInt32
        /// Bumped every time the slot is freed, so stale handles are detected.
        @usableFromInline internal var generation: UInt32

        @usableFromInline internal static var free: UInt32 { .max }

        @inlinable @inline(__always)
        internal init(position: UInt32, generation: UInt32) {
            self.position = position
            self.generation = generation
        }
    }

    /// The nodes in heap order: the children of position `i` are `4i + 1 ... 4i + 4`.
    @usableFromInline
    internal var _nodes: ContiguousArray<_Node>

    /// The position table, indexed by handle slot.
    @usableFromInline
    internal var _slots: ContiguousArray<_Slot>

    /// Slots whose elements were removed, reused last-in first-out by later insertions.
    @usableFromInline
    internal var _freeSlots: ContiguousArray<UInt32>

    /// Creates an empty heap.
    ///
    /// - Complexity: O(1)
    @inlinable
    public init() {
        _nodes = []
        _slots = []
        _freeSlots = []
    }

    /// Creates a heap holding `priorities`, in O(n) (bottom-up heap construction).
    ///
    /// The element built from the `i`-th priority of the sequence gets the handle whose
    /// ``IndexedHeapHandle/index`` is `i`; ``handle(forIndex:)`` returns it.
    ///
    /// - Complexity: O(n), where n is the number of priorities.
    @inlinable
    public init<S: Sequence>(_ priorities: S) where S.Element == Priority {
        _nodes = []
        _nodes.reserveCapacity(priorities.underestimatedCount)
        for priority in priorities {
            _nodes.append(_Node(priority: priority, slot: UInt32(truncatingIfNeeded: _nodes.count)))
        }
        precondition(_nodes.count < Int(_Slot.free), "IndexedHeap holds at most 2^32 - 1 elements")
        // An empty heap keeps the empty array: in Swift 6.3.1 `unsafeUninitializedCapacity:` with a
        // capacity of 0 writes its count into the shared empty-array storage, which
        // ThreadSanitizer reports as a race between two heaps built at once (the benign race
        // swiftlang/swift#14778 and #27808 had removed from other paths).
        _slots =
            _nodes.isEmpty
            ? []
            : ContiguousArray(unsafeUninitializedCapacity: _nodes.count) { buffer, initialized in
                for index in 0..<buffer.count {
                    buffer.initializeElement(
                        at: index, to: _Slot(position: UInt32(truncatingIfNeeded: index), generation: 0))
                }
                initialized = buffer.count
            }
        _freeSlots = []
        _heapify()
        _checkInvariants()
    }
}

extension IndexedHeap: Sendable where Priority: Sendable {}
extension IndexedHeap._Node: Sendable where Priority: Sendable {}
extension IndexedHeap._Slot: Sendable {}

extension IndexedHeap {
    /// The number of elements in the heap.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var count: Int { _nodes.count }

    /// Whether the heap has no elements.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var isEmpty: Bool { _nodes.isEmpty }

    /// The number of handle slots allocated so far: every live handle's
    /// ``IndexedHeapHandle/index`` is below it.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var slotCapacity: Int { _slots.count }

    /// The element with the highest priority, or `nil` if the heap is empty.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var max: (handle: Handle, priority: Priority)? {
        guard let root = _nodes.first else { return nil }
        return (_handle(forSlot: root.slot), root.priority)
    }

    /// Whether `handle` refers to an element that is still in this heap.
    ///
    /// Unlike the methods that require a live handle, this never traps: a removed handle, or one
    /// whose slot has since been reused, returns `false`.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func contains(_ handle: Handle) -> Bool {
        let slot = Int(handle._slot)
        guard slot < _slots.count else { return false }
        let entry = _slots[slot]
        return entry.generation == handle._generation && entry.position != _Slot.free
    }

    /// The priority of the element `handle` refers to.
    ///
    /// - Precondition: `handle` refers to an element in this heap (see ``contains(_:)``).
    /// - Complexity: O(1)
    @inlinable
    public func priority(of handle: Handle) -> Priority {
        _nodes[_position(of: handle)].priority
    }

    /// The live handle whose ``IndexedHeapHandle/index`` is `index`, or `nil` if no element of
    /// this heap currently has that index.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func handle(forIndex index: Int) -> Handle? {
        guard index >= 0, index < _slots.count else { return nil }
        let entry = _slots[index]
        guard entry.position != _Slot.free else { return nil }
        return Handle(_slot: UInt32(truncatingIfNeeded: index), generation: entry.generation)
    }

    /// Reserves room for `minimumCapacity` elements, so that inserting up to that many
    /// elements does not allocate.
    ///
    /// - Complexity: O(n) when the storage grows, O(1) otherwise.
    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        _nodes.reserveCapacity(minimumCapacity)
        _slots.reserveCapacity(minimumCapacity)
        _freeSlots.reserveCapacity(minimumCapacity)
    }

    /// Inserts an element with `priority` and returns its handle.
    ///
    /// The handle reuses the slot of the most recently removed element if there is one, with a
    /// new generation; otherwise it takes the next slot.
    ///
    /// - Complexity: O(log n) comparisons; amortised O(1) allocation-free when capacity is reserved.
    @inlinable
    @discardableResult
    public mutating func insert(_ priority: Priority) -> Handle {
        let position = _nodes.count
        precondition(position < Int(_Slot.free) - 1, "IndexedHeap holds at most 2^32 - 2 elements")
        let slot: UInt32
        let generation: UInt32
        if let reused = _freeSlots.popLast() {
            slot = reused
            generation = _slots[Int(reused)].generation
        } else {
            slot = UInt32(truncatingIfNeeded: _slots.count)
            generation = 0
            _slots.append(_Slot(position: UInt32(truncatingIfNeeded: position), generation: 0))
        }
        let node = _Node(priority: priority, slot: slot)
        _nodes.append(node)
        _siftUp(node, from: position)
        _checkInvariants()
        return Handle(_slot: slot, generation: generation)
    }

    /// Changes the priority of the element `handle` refers to, in either direction.
    ///
    /// An update that leaves the element's place in the order unchanged (including an update to
    /// the priority it already has) only compares it with its parent and children and stores it.
    ///
    /// - Precondition: `handle` refers to an element in this heap (see ``contains(_:)``).
    /// - Complexity: O(log n) comparisons; O(1) if the element does not have to move.
    @inlinable
    public mutating func update(_ handle: Handle, to priority: Priority) {
        _update(at: _position(of: handle), slot: handle._slot, to: priority)
    }

    /// Changes the priority of the element `handle` refers to into `transform` of its current
    /// priority: one lookup of the element where reading ``priority(of:)`` and then calling
    /// ``update(_:to:)`` make two.
    ///
    /// - Precondition: `handle` refers to an element in this heap (see ``contains(_:)``).
    /// - Complexity: O(log n) comparisons; O(1) if the element does not have to move.
    @inlinable @inline(__always)
    public mutating func update(_ handle: Handle, with transform: (Priority) -> Priority) {
        let position = _position(of: handle)
        _update(at: position, slot: handle._slot, to: transform(_nodes[position].priority))
    }

    /// Gives the element at `position`, whose slot is `slot`, the priority `priority`.
    @inlinable @inline(__always)
    internal mutating func _update(at position: Int, slot: UInt32, to priority: Priority) {
        let direction = _nodes.withUnsafeBufferPointer { nodes in
            Self._direction(of: priority, at: position, nodes: nodes)
        }
        if direction == 0 {
            // The common case for small changes: one store, the position table is untouched.
            _nodes[position].priority = priority
        } else {
            _move(_Node(priority: priority, slot: slot), from: position, direction: direction)
        }
        _checkInvariants()
    }

    /// Removes the element `handle` refers to and returns its priority. The handle becomes invalid.
    ///
    /// - Precondition: `handle` refers to an element in this heap (see ``contains(_:)``).
    /// - Complexity: O(log n) comparisons.
    @inlinable
    @discardableResult
    public mutating func remove(_ handle: Handle) -> Priority {
        let position = _position(of: handle)
        let removed = _nodes[position].priority
        _release(slot: handle._slot)
        let last = _nodes.removeLast()
        if position < _nodes.count {
            _place(last, at: position)
        }
        _checkInvariants()
        return removed
    }

    /// Removes and returns the element with the highest priority, or returns `nil` if the heap is
    /// empty. Its handle becomes invalid.
    ///
    /// - Complexity: O(log n) comparisons.
    @inlinable
    public mutating func popMax() -> (handle: Handle, priority: Priority)? {
        guard let root = _nodes.first else { return nil }
        let handle = _handle(forSlot: root.slot)
        _release(slot: root.slot)
        let last = _nodes.removeLast()
        if !_nodes.isEmpty {
            _siftDown(last, from: 0)
        }
        _checkInvariants()
        return (handle, root.priority)
    }

    /// Removes every element, invalidating every handle issued so far.
    ///
    /// - Complexity: O(n) for the slots that are freed.
    @inlinable
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        for node in _nodes {
            _release(slot: node.slot)
        }
        _nodes.removeAll(keepingCapacity: keepCapacity)
        _checkInvariants()
    }

    /// The elements in no particular order (the storage order), without copying.
    ///
    /// - Complexity: O(1) to create; O(n) to iterate.
    @inlinable
    public var unordered: some Collection<(handle: Handle, priority: Priority)> {
        _nodes.lazy.map { (_handle(forSlot: $0.slot), $0.priority) }
    }
}
