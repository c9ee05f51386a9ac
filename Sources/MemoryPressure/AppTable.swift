/// The engine's app records, by slot, in one block of memory the engine alone owns.
///
/// A footprint change reads and writes a record several times; through an `Array` in a class's
/// stored property each write checked the array's uniqueness (a runtime call) and went through
/// out-of-line helpers. Here a record is reached through a pointer: reads and writes are plain
/// loads and stores, each bounds checked. The table has reference semantics — the engine never
/// hands it out, and copies of it (an iterator, say) see the same records.
struct AppTable: RandomAccessCollection {
    /// The records' memory: `count` initialized records at `base`, room for `capacity`.
    final class Storage {
        var base: UnsafeMutablePointer<AppRecord>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = UnsafeMutablePointer<AppRecord>.allocate(capacity: Swift.max(capacity, 1))
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }

        /// Moves the records to a block with room for `capacity`.
        func grow(to capacity: Int) {
            let moved = UnsafeMutablePointer<AppRecord>.allocate(capacity: capacity)
            moved.moveInitialize(from: base, count: count)
            base.deallocate()
            base = moved
            self.capacity = capacity
        }
    }

    private let storage = Storage(capacity: 0)

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }
    /// How many records fit before the table moves to a larger block.
    var capacity: Int { storage.capacity }

    /// The record of slot `index`, in place.
    ///
    /// - Complexity: O(1)
    subscript(index: Int) -> AppRecord {
        @inline(__always)
        unsafeAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "app slot out of range")
            return UnsafePointer(storage.base + index)
        }
        @inline(__always)
        nonmutating unsafeMutableAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "app slot out of range")
            return storage.base + index
        }
    }

    /// Adds `record` as the last slot.
    ///
    /// - Complexity: amortized O(1)
    func append(_ record: AppRecord) {
        if storage.count == storage.capacity { storage.grow(to: Swift.max(storage.capacity * 2, 16)) }
        (storage.base + storage.count).initialize(to: record)
        storage.count += 1
    }

    /// Makes room for at least `capacity` records.
    ///
    /// - Complexity: O(count) if the table moves
    func reserveCapacity(_ capacity: Int) {
        if capacity > storage.capacity { storage.grow(to: capacity) }
    }
}
