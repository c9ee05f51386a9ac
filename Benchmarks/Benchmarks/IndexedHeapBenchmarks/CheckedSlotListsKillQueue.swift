import MemoryPressure
import MemoryPressureSimulation

/// Competitor (d) once more, with the engine's handle checks: Android lmkd's adj-slot lists
/// (``AdjSlotListsKillQueue``: one list per slot, a drift is one store, a kill walks the highest
/// non-empty slot for the heaviest app), reached the way the engine reaches an app in its queue.
///
/// The engine keeps a handle (slot, generation) per app (`killHandle`) and its queue checks every
/// handle it is given before use: the slot is in range, the generation is the slot's, the slot is
/// live (`IndexedHeap._position(of:)`). Here the nodes live in one allocation indexed by slot,
/// linked by 32-bit slot numbers, each carrying its generation and liveness; every app's handle is
/// kept in a table by app; every access makes the same three checks. A kill bumps the victim's
/// generation, so its old handle goes stale. The storage is owned by one object, so there is no
/// copy-on-write check (the engine's queue, a value type, pays one).
///
/// This measures what validating handles costs on the cheapest structure for this workload: the
/// difference from ``AdjSlotListsKillQueue``, whose table holds raw node pointers used unchecked.
final class CheckedSlotListsKillQueue: KillQueue {
    struct Node {
        var key: UInt64
        var next: Int32
        var previous: Int32
        var generation: UInt32
        var live: Bool
    }

    private let nodes: UnsafeMutablePointer<Node>
    private let handles: UnsafeMutablePointer<UInt64>
    private let capacity: Int
    private let bandCount: Int
    private let top: TopKBuffer

    init(keys: [UInt64], bandCount: Int) {
        self.bandCount = bandCount
        capacity = keys.count
        nodes = .allocate(capacity: keys.count + bandCount)
        handles = .allocate(capacity: keys.count)
        for band in 0..<bandCount {
            let head = Int32(keys.count + band)
            (nodes + Int(head)).initialize(to: Node(key: 0, next: head, previous: head, generation: 0, live: false))
        }
        top = TopKBuffer(capacity: 128)
        for app in keys.indices {
            (nodes + app).initialize(to: Node(key: keys[app], next: 0, previous: 0, generation: 1, live: true))
            handles[app] = UInt64(app) | 1 << 32
            insertAtHead(app)
        }
    }

    deinit {
        nodes.deallocate()
        handles.deallocate()
    }

    @inline(__always)
    private func slot(_ app: Int) -> Int {
        let handle = handles[app]
        let slot = Int(truncatingIfNeeded: handle & 0xFFFF_FFFF)
        precondition(
            slot < capacity && nodes[slot].generation == UInt32(truncatingIfNeeded: handle >> 32) && nodes[slot].live,
            "stale handle")
        return slot
    }

    @inline(__always)
    private func insertAtHead(_ slot: Int) {
        let head = capacity &+ KillKey.band(nodes[slot].key)
        let first = Int(nodes[head].next)
        nodes[slot].next = Int32(truncatingIfNeeded: first)
        nodes[slot].previous = Int32(truncatingIfNeeded: head)
        nodes[first].previous = Int32(truncatingIfNeeded: slot)
        nodes[head].next = Int32(truncatingIfNeeded: slot)
    }

    @inline(__always)
    private func unlink(_ slot: Int) {
        let next = Int(nodes[slot].next)
        let previous = Int(nodes[slot].previous)
        nodes[previous].next = Int32(truncatingIfNeeded: next)
        nodes[next].previous = Int32(truncatingIfNeeded: previous)
    }

    @inline(__always)
    func key(of app: Int) -> UInt64 { nodes[slot(app)].key }

    @inline(__always)
    func update(app: Int, to key: UInt64) { store(key, at: slot(app)) }

    /// One handle check, then the read and the write (the engine's `update(_:with:)`).
    @inline(__always)
    func update(app: Int, with transform: (UInt64) -> UInt64) {
        let slot = slot(app)
        store(transform(nodes[slot].key), at: slot)
    }

    /// Writes `key` into the node at `slot`, moving it to the head of its new slot's list when the
    /// band changes (`proc_unslot` + `proc_slot`).
    @inline(__always)
    private func store(_ key: UInt64, at slot: Int) {
        let moves = KillKey.band(key) != KillKey.band(nodes[slot].key)
        if moves { unlink(slot) }
        nodes[slot].key = key
        if moves { insertAtHead(slot) }
    }

    func killHeaviest() -> Int {
        var band = bandCount - 1
        while band >= 0, nodes[capacity + band].next == Int32(capacity + band) { band -= 1 }
        precondition(band >= 0, "no app to kill")
        let head = capacity + band
        var heaviest = Int(nodes[head].next)
        var slot = Int(nodes[heaviest].next)
        while slot != head {
            if nodes[slot].key > nodes[heaviest].key { heaviest = slot }
            slot = Int(nodes[slot].next)
        }
        unlink(heaviest)
        nodes[heaviest].live = false
        nodes[heaviest].generation &+= 1
        return KillKey.app(nodes[heaviest].key)
    }

    func relaunch(app: Int, key: UInt64) {
        let slot = app
        nodes[slot].key = key
        nodes[slot].live = true
        handles[app] = UInt64(slot) | UInt64(nodes[slot].generation) << 32
        insertAtHead(slot)
    }

    func reportTop(_ k: Int) -> UInt64 {
        top.reset()
        var band = bandCount - 1
        while band >= 0, !top.isFull(k) {
            let head = capacity + band
            var slot = Int(nodes[head].next)
            while slot != head {
                top.offer(nodes[slot].key, limit: k)
                slot = Int(nodes[slot].next)
            }
            band -= 1
        }
        return top.checksum()
    }
}
