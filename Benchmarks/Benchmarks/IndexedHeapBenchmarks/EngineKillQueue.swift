import IndexedHeapModule

/// Competitor (a): the engine's queue, `AdaptiveIndexedQueue` (`PressureEngine.killQueue`), keyed by
/// the packed key: an 8-ary `IndexedHeap` below 786,432 apps, an `IndexedTournament` from there on.
///
/// App `i` is the element whose handle index is `i`: the queue is built from the keys in app order,
/// and a relaunch right after a kill reuses the freed slot (slots are reused last-in first-out),
/// so `handle(forIndex:)` finds every app without a separate handle table.
struct EngineKillQueue: KillQueue {
    var queue: AdaptiveIndexedQueue

    init(keys: [UInt64], bandCount: Int) {
        queue = AdaptiveIndexedQueue(keys)
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

    @inline(__always)
    mutating func update(app: Int, with transform: (UInt64) -> UInt64) {
        queue.update(handle(app), with: transform)
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
