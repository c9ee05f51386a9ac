import MemoryPressure
import MemoryPressureSimulation

/// Competitor (d), faithful form: Android lmkd's `procadjslot_list` and `kill_heaviest_task`.
///
/// lmkd keeps one circular doubly linked list per `oom_score_adj` slot of individually allocated
/// `struct proc` nodes (`calloc` in `register_oom_adj_proc`); a new adj is `proc_unslot` +
/// `proc_slot` (unlink, then `adjslot_insert` at the head of the new slot's list); and
/// `find_and_kill_process` walks the slots from the highest, where `kill_heaviest_task` walks the
/// whole list of the first non-empty slot, reads each process's RSS and kills the largest.
///
/// Here every app is a `Proc` node allocated on its own (in a seeded random order of the apps, so
/// list order and address order are unrelated, as after churn and as Android's scudo allocator,
/// which shuffles its free lists, makes them from the start), holding the app's packed key; the
/// bands of the workload are the slots (for the Android distribution, adj + 1000: lmkd's 2,001
/// slots, walked from the highest as `find_and_kill_process` walks them from `OOM_SCORE_ADJ_MAX`). Deliberately kept in the competitor's favour: the RSS is
/// the key stored in the node (lmkd reads `/proc/<pid>/statm` for every candidate, a system call
/// each), and a footprint update writes the node through a table indexed by app (lmkd's pid hash).
///
/// Everything is allocated in `init`; a kill unlinks the victim's node and the relaunch links the
/// same node into its new slot, so no operation allocates.
final class AdjSlotListsKillQueue: KillQueue {
    struct Proc {
        var next: UnsafeMutablePointer<Proc>
        var previous: UnsafeMutablePointer<Proc>
        var key: UInt64
        var app: Int
    }

    /// The list head of each slot (band), not apps.
    private let heads: UnsafeMutablePointer<Proc>
    /// The node of each app (lmkd's `pidhash`).
    private var procs: [UnsafeMutablePointer<Proc>]
    private let top: TopKBuffer
    private let bandCount: Int

    init(keys: [UInt64], bandCount: Int) {
        self.bandCount = bandCount
        var rng = SeededGenerator(seed: 0xAD75_1075 &+ UInt64(keys.count))
        heads = .allocate(capacity: bandCount)
        for band in 0..<bandCount {
            let head = heads + band
            head.initialize(to: Proc(next: head, previous: head, key: 0, app: -1))
        }
        top = TopKBuffer(capacity: 128)
        var procOf = [UnsafeMutablePointer<Proc>?](repeating: nil, count: keys.count)
        for app in Array(keys.indices).shuffled(using: &rng) { procOf[app] = .allocate(capacity: 1) }
        procs = procOf.map { $0! }
        for app in keys.indices {
            let proc = procs[app]
            proc.initialize(to: Proc(next: proc, previous: proc, key: keys[app], app: app))
            insertAtHead(proc)
        }
    }

    deinit {
        for proc in procs { proc.deallocate() }
        heads.deallocate()
    }

    /// `adjslot_insert`: links `proc` first in the list of its key's band.
    @inline(__always)
    private func insertAtHead(_ proc: UnsafeMutablePointer<Proc>) {
        let head = heads + KillKey.band(proc.pointee.key)
        let first = head.pointee.next
        proc.pointee.next = first
        proc.pointee.previous = head
        first.pointee.previous = proc
        head.pointee.next = proc
    }

    /// `adjslot_remove`.
    @inline(__always)
    private func unlink(_ proc: UnsafeMutablePointer<Proc>) {
        proc.pointee.previous.pointee.next = proc.pointee.next
        proc.pointee.next.pointee.previous = proc.pointee.previous
    }

    @inline(__always)
    func key(of app: Int) -> UInt64 { procs[app].pointee.key }

    @inline(__always)
    func update(app: Int, to key: UInt64) {
        let proc = procs[app]
        let moves = KillKey.band(key) != KillKey.band(proc.pointee.key)
        if moves { unlink(proc) }
        proc.pointee.key = key
        if moves { insertAtHead(proc) }
    }

    func killHeaviest() -> Int {
        var band = bandCount - 1
        while band >= 0, heads[band].next == heads + band { band -= 1 }
        precondition(band >= 0, "no app to kill")
        let head = heads + band
        var heaviest = head.pointee.next
        var proc = heaviest.pointee.next
        while proc != head {
            if proc.pointee.key > heaviest.pointee.key { heaviest = proc }
            proc = proc.pointee.next
        }
        unlink(heaviest)
        return heaviest.pointee.app
    }

    func relaunch(app: Int, key: UInt64) {
        let proc = procs[app]
        proc.pointee.key = key
        insertAtHead(proc)
    }

    func reportTop(_ k: Int) -> UInt64 {
        top.reset()
        var band = bandCount - 1
        // Every key of a band is above every key of a lower band: stop once k keys are found.
        while band >= 0, !top.isFull(k) {
            let head = heads + band
            var proc = head.pointee.next
            while proc != head {
                top.offer(proc.pointee.key, limit: k)
                proc = proc.pointee.next
            }
            band -= 1
        }
        return top.checksum()
    }
}
