/// A max-priority queue of `UInt64` keys addressed by stable handles that is an 8-ary
/// ``IndexedHeap`` or an ``IndexedTournament``, chosen by the number of keys it is built from.
///
/// The two structures have the same interface, issue the same handles for the same sequence of
/// insertions and removals, and agree on every maximum and report of distinct keys; they differ
/// in speed. On the mixed kill-queue workload (Benchmarks/README.md, "Mixed kill-queue
/// workload") the heap is 1.3–1.5× faster than the tournament at 1,000 to 250,000 keys and as
/// fast or faster at 500,000, and the tournament is faster at a million (in 11 of 12 runs on four
/// spreads: 54–80 ns an operation against the heap's 59–83), where a heap update waits for two
/// dependent cache misses (the position table, then the node with its parent) and a tournament
/// update for one (the leaf and its group's maximum are found from the handle alone). So a queue built from at least
/// ``tournamentThreshold`` keys is a tournament, and any other is a heap; the choice is made once,
/// when the queue is built, and a queue that grows by insertions stays what it was.
///
///     var queue = AdaptiveIndexedQueue([38 << 20, 120 << 20])   // two keys: a heap
///     let mail = queue.handle(forIndex: 0)!
///     queue.update(mail, to: 200 << 20)
///     queue.max?.handle == mail                                  // true
///
/// Every operation forwards to the structure in use after one branch on a flag that never
/// changes, so it costs what that structure's operation costs. Passing a removed handle to a
/// method that requires a live one traps with a message naming the handle; use ``contains(_:)``
/// to test it first.
@frozen
public struct AdaptiveIndexedQueue {
    /// The type of the handles this queue issues.
    public typealias Handle = IndexedHeapHandle

    /// The number of keys from which a queue built from a sequence is a tournament: 786,432
    /// (3 × 2^18), between 500,000 keys, where the heap was measured as fast or faster on every
    /// spread, and a million, where the tournament was faster.
    public static let tournamentThreshold = 3 << 18

    @usableFromInline internal var _heap: IndexedHeap<UInt64>
    @usableFromInline internal var _tournament: IndexedTournament
    /// Whether the tournament is in use (set once, when the queue is built).
    @usableFromInline internal let _isTournament: Bool

    /// Creates an empty queue: a heap.
    ///
    /// - Complexity: O(1)
    @inlinable
    public init() {
        _heap = IndexedHeap()
        _tournament = IndexedTournament()
        _isTournament = false
    }

    /// Creates a queue holding `keys`, in O(n): a tournament from `tournamentThreshold` keys on, a
    /// heap below.
    ///
    /// The element built from the `i`-th key gets the handle whose ``IndexedHeapHandle/index`` is
    /// `i`; ``handle(forIndex:)`` returns it.
    ///
    /// - Parameters:
    ///   - keys: the keys.
    ///   - tournamentThreshold: the number of keys from which the queue is a tournament (at
    ///     least 0; ``tournamentThreshold`` by default).
    /// - Complexity: O(n)
    @inlinable
    public init(_ keys: [UInt64], tournamentThreshold: Int = Self.tournamentThreshold) {
        precondition(tournamentThreshold >= 0, "AdaptiveIndexedQueue: tournamentThreshold must not be negative")
        _isTournament = keys.count >= tournamentThreshold
        _heap = _isTournament ? IndexedHeap() : IndexedHeap(keys)
        _tournament = _isTournament ? IndexedTournament(keys) : IndexedTournament()
    }
}

extension AdaptiveIndexedQueue: Sendable {}

extension AdaptiveIndexedQueue {
    /// Whether the queue is an ``IndexedTournament`` (otherwise an ``IndexedHeap``).
    ///
    /// - Complexity: O(1)
    @inlinable
    public var isTournament: Bool { _isTournament }

    /// The number of elements.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var count: Int { _isTournament ? _tournament.count : _heap.count }

    /// Whether the queue has no elements.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public var isEmpty: Bool { _isTournament ? _tournament.isEmpty : _heap.isEmpty }

    /// The element with the highest key, or `nil` if the queue is empty.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var max: (handle: Handle, priority: UInt64)? { _isTournament ? _tournament.max : _heap.max }

    /// Whether `handle` refers to an element that is still in this queue; never traps.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func contains(_ handle: Handle) -> Bool {
        _isTournament ? _tournament.contains(handle) : _heap.contains(handle)
    }

    /// The key of the element `handle` refers to.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func priority(of handle: Handle) -> UInt64 {
        _isTournament ? _tournament.priority(of: handle) : _heap.priority(of: handle)
    }

    /// The live handle whose ``IndexedHeapHandle/index`` is `index`, or `nil`.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func handle(forIndex index: Int) -> Handle? {
        _isTournament ? _tournament.handle(forIndex: index) : _heap.handle(forIndex: index)
    }

    /// Reserves room for `minimumCapacity` elements.
    ///
    /// - Complexity: O(n) when the storage grows, O(1) otherwise.
    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        if _isTournament {
            _tournament.reserveCapacity(minimumCapacity)
        } else {
            _heap.reserveCapacity(minimumCapacity)
        }
    }

    /// Inserts an element with `priority` and returns its handle (the most recently freed slot
    /// first, as both structures do).
    ///
    /// - Complexity: O(log n) comparisons in a heap; O(16 L) for L levels in a tournament.
    @inlinable
    @discardableResult
    public mutating func insert(_ priority: UInt64) -> Handle {
        _isTournament ? _tournament.insert(priority) : _heap.insert(priority)
    }

    /// Changes the key of the element `handle` refers to.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: O(log n) comparisons in a heap, O(1) if the element does not move; in a
    ///   tournament O(1) unless the key overtakes or was its group's maximum.
    @inlinable @inline(__always)
    public mutating func update(_ handle: Handle, to priority: UInt64) {
        if _isTournament { _tournament.update(handle, to: priority) } else { _heap.update(handle, to: priority) }
    }

    /// Changes the key of the element `handle` refers to into `transform` of its current key,
    /// through one check of the handle.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: as ``update(_:to:)``.
    @inlinable @inline(__always)
    public mutating func update(_ handle: Handle, with transform: (UInt64) -> UInt64) {
        if _isTournament { _tournament.update(handle, with: transform) } else { _heap.update(handle, with: transform) }
    }

    /// Removes the element `handle` refers to and returns its key. The handle becomes invalid.
    ///
    /// - Precondition: `handle` refers to an element in this queue (see ``contains(_:)``).
    /// - Complexity: O(log n) comparisons in a heap; O(16 L) in a tournament.
    @inlinable
    @discardableResult
    public mutating func remove(_ handle: Handle) -> UInt64 {
        _isTournament ? _tournament.remove(handle) : _heap.remove(handle)
    }

    /// Removes and returns the element with the highest key, or `nil` if the queue is empty.
    ///
    /// - Complexity: as ``remove(_:)``.
    @inlinable
    public mutating func popMax() -> (handle: Handle, priority: UInt64)? {
        _isTournament ? _tournament.popMax() : _heap.popMax()
    }

    /// Calls `body` with the `k` highest elements, highest first, without changing the queue.
    ///
    /// - Complexity: O(k log k) comparisons in a heap; in a tournament, the groups whose maximum
    ///   can still make the report.
    @inlinable
    public func forEachTop(_ k: Int, _ body: (_ handle: Handle, _ priority: UInt64) throws -> Void) rethrows {
        if _isTournament { try _tournament.forEachTop(k, body) } else { try _heap.forEachTop(k, body) }
    }

    /// The `k` highest elements, highest first, without changing the queue.
    ///
    /// - Complexity: as ``forEachTop(_:_:)``; allocates the result.
    @inlinable
    public func top(_ k: Int) -> [(handle: Handle, priority: UInt64)] {
        _isTournament ? _tournament.top(k) : _heap.top(k)
    }

    /// A description of the first broken invariant of the structure in use, or `nil`.
    ///
    /// - Complexity: O(n)
    public func _invariantViolation() -> String? {
        _isTournament ? _tournament._invariantViolation() : _heap._invariantViolation()
    }
}
