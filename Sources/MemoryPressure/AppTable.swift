/// The engine's app records, by slot, in two blocks of memory the engine alone owns: the
/// ``AppRecord``s a footprint change reads, one 64-byte cache line each, and beside them the
/// ``AppColdRecord``s it does not.
///
/// A footprint change reads and writes a record several times; through an `Array` in a class's
/// stored property each write checked the array's uniqueness (a runtime call) and went through
/// out-of-line helpers. Here a record is reached through a pointer: reads and writes are plain
/// loads and stores, each bounds checked. The table has reference semantics — the engine never
/// hands it out, and copies of it (an iterator, say) see the same records.
struct AppTable: RandomAccessCollection {
    /// The records' memory: `count` initialized records of each kind, room for `capacity`.
    final class Storage {
        var base: UnsafeMutablePointer<AppRecord>
        var cold: UnsafeMutablePointer<AppColdRecord>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = Self.allocateRecords(Swift.max(capacity, 1))
            cold = .allocate(capacity: Swift.max(capacity, 1))
        }

        deinit {
            base.deinitialize(count: count)
            UnsafeMutableRawPointer(base).deallocate()
            cold.deinitialize(count: count)
            cold.deallocate()
        }

        /// Room for `capacity` records, each starting on a cache line (64 bytes); a block from here
        /// is given back as raw memory, as it was allocated.
        static func allocateRecords(_ capacity: Int) -> UnsafeMutablePointer<AppRecord> {
            assert(MemoryLayout<AppRecord>.stride == 64, "AppRecord is no longer one cache line")
            return UnsafeMutableRawPointer.allocate(byteCount: capacity * MemoryLayout<AppRecord>.stride, alignment: 64)
                .bindMemory(to: AppRecord.self, capacity: capacity)
        }

        /// Moves the records to blocks with room for `capacity`.
        func grow(to capacity: Int) {
            let moved = Self.allocateRecords(capacity)
            moved.moveInitialize(from: base, count: count)
            UnsafeMutableRawPointer(base).deallocate()
            base = moved
            let movedCold = UnsafeMutablePointer<AppColdRecord>.allocate(capacity: capacity)
            movedCold.moveInitialize(from: cold, count: count)
            cold.deallocate()
            cold = movedCold
            self.capacity = capacity
        }
    }

    private let storage = Storage(capacity: 0)

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }
    /// How many records fit before the table moves to larger blocks.
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

    /// The id, times and counts of slot `index`, in place.
    ///
    /// - Complexity: O(1)
    subscript(cold index: Int) -> AppColdRecord {
        @inline(__always)
        unsafeAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "app slot out of range")
            return UnsafePointer(storage.cold + index)
        }
        @inline(__always)
        nonmutating unsafeMutableAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "app slot out of range")
            return storage.cold + index
        }
    }

    /// Adds a fresh record for `id` as the last slot.
    ///
    /// - Complexity: amortized O(1)
    func append(id: AppID) {
        if storage.count == storage.capacity { storage.grow(to: Swift.max(storage.capacity * 2, 16)) }
        (storage.base + storage.count).initialize(to: AppRecord())
        (storage.cold + storage.count).initialize(to: AppColdRecord(id: id))
        storage.count += 1
    }

    /// Replaces slot `index`'s records with fresh ones for `id` (a reclaimed slot, reused).
    ///
    /// - Complexity: O(1)
    func reset(_ index: Int, id: AppID) {
        self[index] = AppRecord()
        self[cold: index] = AppColdRecord(id: id)
    }

    /// Makes room for at least `capacity` records.
    ///
    /// - Complexity: O(count) if the table moves
    func reserveCapacity(_ capacity: Int) {
        if capacity > storage.capacity { storage.grow(to: capacity) }
    }
}
