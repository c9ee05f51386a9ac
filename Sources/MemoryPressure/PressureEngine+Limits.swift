// Why the engine's books cannot overflow: every footprint is at most `maximumFootprint` (2^50
// bytes) and their sum at most `maximumTotalFootprint` (2^62 bytes). Every way a footprint grows
// (a launch, an allocation, a new or reloaded view, a snapshot or live reading) is checked here
// before anything changes; shrinking needs no check. Under these two invariants free memory
// (usable ≤ 2^50, minus a total ≤ 2^62, minus unattributed memory ≤ 2^50) and every per-app
// sum (footprint + swap + page tables, each ≤ 2^50) stay far inside Int64.

extension PressureEngine {
    /// The largest footprint one app may have: ``Bytes/maximum`` (2^50 bytes).
    public static var maximumFootprint: Bytes { .maximum }

    /// The largest sum of every app's footprint: 2^62 bytes.
    public static let maximumTotalFootprint = Bytes(1 << 62 as Int64)

    /// Throws unless app `index` may grow by `delta` bytes (delta ≥ 0) within both limits.
    ///
    /// - Complexity: O(1)
    @inline(__always)
    func checkGrowth(of index: Int, by delta: Int64) throws(EngineError) {
        let footprint = apps[index].footprint
        // The common case in two comparisons, without copying the id to a call that only uses
        // it to word an error.
        if growthIsAllowed(from: footprint, by: delta) { return }
        try checkGrowth(id: apps[cold: index].id, from: footprint, by: delta)
    }

    /// Whether an app of `footprint` bytes may change by `delta` bytes: a shrink always, a growth
    /// within both limits (every footprint change's path: two comparisons).
    ///
    /// - Complexity: O(1)
    @inline(__always)
    func growthIsAllowed(from footprint: Int64, by delta: Int64) -> Bool {
        delta <= 0
            || (delta <= Self.maximumFootprint.value &- footprint
                && delta <= Self.maximumTotalFootprint.value &- accountant.totalFootprint.value)
    }

    /// Throws unless an app of `footprint` bytes may grow by `delta` bytes within both limits.
    func checkGrowth(id: AppID, from footprint: Int64, by delta: Int64) throws(EngineError) {
        guard delta <= Self.maximumFootprint.value &- footprint else {
            throw .sizeLimit(
                id,
                "its footprint would pass the limit of \(Self.maximumFootprint.value) bytes (2^50) for one app")
        }
        guard delta <= Self.maximumTotalFootprint.value &- accountant.totalFootprint.value else {
            throw .sizeLimit(
                id,
                "the apps' footprints would pass the limit of \(Self.maximumTotalFootprint.value) bytes (2^62) in all")
        }
    }

    /// Throws unless a launch's sizes are each at most ``maximumFootprint``; returns the sum of
    /// its views and purgeable caches (which cannot overflow: each part is at most 2^50, and the
    /// sum stops growing once it passes the footprint).
    func checkedParts(of id: AppID, footprint: Bytes, purgeable: Bytes, views: [ViewSpec]) throws(EngineError) -> Int64
    {
        let limit = Self.maximumFootprint.value
        guard footprint.value <= limit, purgeable.value <= limit, views.allSatisfy({ $0.bytes.value <= limit }) else {
            throw .sizeLimit(id, "a size passes the limit of \(limit) bytes (2^50) for one app")
        }
        var parts = purgeable.value
        for view in views where parts <= footprint.value { parts += view.bytes.value }
        return parts
    }
}
