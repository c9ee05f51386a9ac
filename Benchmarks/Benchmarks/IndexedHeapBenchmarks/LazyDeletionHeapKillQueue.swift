import HeapModule

/// Competitor (b): swift-collections' `Heap` (a min-max heap without handles) with lazy deletion.
///
/// Every app has a version number. An update bumps it and pushes a new (key, version) entry; the
/// entries of older versions stay in the heap and are skipped when they reach the top. When stale
/// entries outnumber live ones the heap is compacted in place (`removeAll(where:)`, which keeps
/// its storage), so memory stays bounded by twice the number of apps.
struct LazyDeletionHeapKillQueue: KillQueue {
    struct Entry: Comparable {
        var key: UInt64
        var version: UInt32

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.key < rhs.key || (lhs.key == rhs.key && lhs.version < rhs.version)
        }
    }

    struct App {
        var key: UInt64
        /// The version of the app's live entry; bumped by every update and by a kill.
        var version: UInt32
    }

    var heap: Heap<Entry>
    var apps: [App]
    /// Scratch space for top-k reports (entries popped, then pushed back).
    var scratch: [Entry]

    init(keys: [UInt64], bandCount: Int) {
        apps = keys.map { App(key: $0, version: 0) }
        heap = Heap(keys.map { Entry(key: $0, version: 0) })
        heap.reserveCapacity(2 * keys.count + 2)
        scratch = []
        scratch.reserveCapacity(128)
    }

    @inline(__always)
    private func isLive(_ entry: Entry) -> Bool {
        apps[KillKey.app(entry.key)].version == entry.version
    }

    @inline(__always)
    func key(of app: Int) -> UInt64 { apps[app].key }

    @inline(__always)
    mutating func update(app: Int, to key: UInt64) {
        apps[app].key = key
        apps[app].version &+= 1
        heap.insert(Entry(key: key, version: apps[app].version))
        if heap.count > 2 * apps.count { compact() }
    }

    /// Drops every stale entry, in place.
    @inline(never)
    mutating func compact() {
        let apps = self.apps
        heap.removeAll { apps[KillKey.app($0.key)].version != $0.version }
    }

    mutating func killHeaviest() -> Int {
        while let entry = heap.popMax() {
            if isLive(entry) {
                let app = KillKey.app(entry.key)
                apps[app].version &+= 1
                return app
            }
        }
        preconditionFailure("no app to kill")
    }

    mutating func relaunch(app: Int, key: UInt64) {
        update(app: app, to: key)
    }

    mutating func reportTop(_ k: Int) -> UInt64 {
        var checksum: UInt64 = 0
        scratch.removeAll(keepingCapacity: true)
        while scratch.count < k, let entry = heap.popMax() {
            guard isLive(entry) else { continue }  // a stale entry met on the way is dropped for good
            checksum = mix(checksum, entry.key)
            scratch.append(entry)
        }
        for entry in scratch { heap.insert(entry) }
        return checksum
    }
}
