import IndexedHeapModule

/// The engine's queue: a `BandedHeap` keyed by the packed key.
///
/// Its bands are the keys' top 20 bits: the workload's band (12 bits) and the footprint's top 8
/// bits, which only footprints of 16 GiB and more set; so each of the workload's bands is one
/// `BandedHeap` band, kept unsorted (a store per update, lmkd's lists without the pointers) while
/// it holds up to `BandedHeap.smallBandLimit` apps and as a heap beyond.
///
/// App `i` is the element whose handle index is `i`, as in ``IndexedHeapKillQueue``.
struct BandedHeapKillQueue: KillQueue {
    var queue: BandedHeap

    init(keys: [UInt64], bandCount: Int) {
        queue = BandedHeap(keys)
        queue.reserveCapacity(keys.count)
    }

    @inline(__always)
    private func handle(_ app: Int) -> IndexedHeapHandle {
        guard let handle = queue.handle(forIndex: app) else { preconditionFailure("app \(app) is not live") }
        return handle
    }

    @inline(__always)
    func key(of app: Int) -> UInt64 {
        queue.priority(of: handle(app))
    }

    @inline(__always)
    mutating func update(app: Int, to key: UInt64) {
        queue.update(handle(app), to: key)
    }

    mutating func killHeaviest() -> Int {
        guard let (_, key) = queue.popMax() else { preconditionFailure("no app to kill") }
        return KillKey.app(key)
    }

    mutating func relaunch(app: Int, key: UInt64) {
        let handle = queue.insert(key)
        precondition(handle.index == app, "relaunch did not reuse the victim's slot")
    }

    mutating func reportTop(_ k: Int) -> UInt64 {
        var checksum: UInt64 = 0
        queue.forEachTop(k) { _, key in checksum = mix(checksum, key) }
        return checksum
    }
}
