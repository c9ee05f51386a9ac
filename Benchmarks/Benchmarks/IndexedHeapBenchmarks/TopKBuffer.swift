/// The `k` largest keys seen since the last reset, largest first, in storage allocated once: what a
/// scanning competitor uses to produce a top-k report without allocating.
final class TopKBuffer {
    private let storage: UnsafeMutablePointer<UInt64>
    private(set) var count = 0

    /// Allocates room for `capacity` keys once.
    init(capacity: Int) {
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Forgets every key.
    func reset() { count = 0 }

    /// Whether `limit` keys are kept already.
    @inline(__always)
    func isFull(_ limit: Int) -> Bool { count >= limit }

    /// Offers `key`, keeping the `limit` largest keys seen since the last reset (`limit` ≤ capacity).
    @inline(__always)
    func offer(_ key: UInt64, limit: Int) {
        if count >= limit {
            guard key > storage[count &- 1] else { return }
            count &-= 1
        }
        var position = count
        while position > 0, storage[position &- 1] < key {
            storage[position] = storage[position &- 1]
            position &-= 1
        }
        storage[position] = key
        count &+= 1
    }

    /// An order-sensitive checksum of the keys kept, largest first.
    func checksum() -> UInt64 {
        var checksum: UInt64 = 0
        for index in 0..<count { checksum = mix(checksum, storage[index]) }
        return checksum
    }
}
