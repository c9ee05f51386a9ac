// Access to the per-app records: the hot record in `apps`, the rest in `extras`.

extension PressureEngine {
    /// The extras of app `index` (empty if it has none).
    @inline(__always)
    func extras(_ index: Int) -> AppExtras {
        extras[Int32(truncatingIfNeeded: index)] ?? AppExtras()
    }

    /// App `index`'s swapped-out bytes.
    @inline(__always)
    func swapBytes(of index: Int) -> Int64 { index < swapBytesBySlot.count ? swapBytesBySlot[index] : 0 }

    /// App `index`'s page-table bytes.
    @inline(__always)
    func pageTableBytes(of index: Int) -> Int64 {
        index < pageTableBytesBySlot.count ? pageTableBytesBySlot[index] : 0
    }

    /// Sets app `index`'s swapped-out and page-table bytes, keeping ``appSwap`` the sum of the
    /// apps' swap; the per-slot arrays are made on the first non-zero value.
    ///
    /// - Complexity: O(1) amortized; O(slots) the first time.
    func setSwapAndPageTables(_ index: Int, swap: Int64, pageTables: Int64) {
        appSwap &+= swap &- swapBytes(of: index)
        // Each table is swapped out of the engine, changed as a local, and swapped back. Changed in
        // place, an array stored in the engine stays open for writing across calls the compiler
        // cannot see into (growth, copy-on-write), and that makes every access to it anywhere a
        // dynamic exclusivity check: 12 % of a 100,000-app snapshot's whole `kill-order`.
        let covered = Swift.max(apps.count, index + 1)
        var table: [Int64] = []
        if swap != 0 || index < swapBytesBySlot.count {
            Swift.swap(&table, &swapBytesBySlot)
            Self.store(swap, at: index, in: &table, covering: covered, reserving: apps.capacity)
            Swift.swap(&table, &swapBytesBySlot)
        }
        if pageTables != 0 || index < pageTableBytesBySlot.count {
            Swift.swap(&table, &pageTableBytesBySlot)
            Self.store(pageTables, at: index, in: &table, covering: covered, reserving: apps.capacity)
            Swift.swap(&table, &pageTableBytesBySlot)
        }
    }

    /// Stores `value` at `index` of `table`, grown with zeros to `covered` slots (with room for
    /// `reserved` made when it starts empty).
    private static func store(
        _ value: Int64, at index: Int, in table: inout [Int64], covering covered: Int, reserving reserved: Int
    ) {
        if index >= table.count {
            if table.isEmpty { table.reserveCapacity(Swift.max(reserved, covered)) }
            table.append(contentsOf: repeatElement(0, count: covered - table.count))
        }
        table[index] = value
    }

    /// Changes the extras of app `index` in place; an entry left empty is removed.
    @discardableResult
    func withExtras<R>(_ index: Int, _ body: (inout AppExtras) throws -> R) rethrows -> R {
        let key = Int32(truncatingIfNeeded: index)
        let result = try body(&extras[key, default: AppExtras()])
        if extras[key]?.isEmpty == true { extras[key] = nil }
        return result
    }

    /// The memory limit that applies to app `index` in its current state (0: none): the active
    /// limit while it executes (foreground, or background with an assertion — a background mode
    /// in use or a task), the inactive one while suspended, as XNU's
    /// `memstat_proc_is_active_locked()` judges a managed process active while it holds assertions.
    @inline(__always)
    func currentLimit(of index: Int) -> Int64 {
        guard apps[index].flags.contains(.hasLimit) else { return 0 }
        let extras = extras(index)
        return apps[index].state.isExecuting ? extras.limitActive : extras.limitInactive
    }
}
