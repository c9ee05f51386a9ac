import MemoryPressure
import MemoryPressureSimulation

/// Competitor (c), faithful form: the Linux kernel's `select_bad_process`, which walks the task
/// list (`for_each_process`: a circular doubly linked list of individually allocated
/// `task_struct`s, in creation order) and, for each task, follows `task->mm` to a separately
/// allocated `mm_struct` to read its memory counters, keeping the task with the highest badness.
///
/// Here every app is a `Task` node allocated on its own, pointing at an `MM` record allocated on
/// its own that holds the app's packed key. The nodes and the records are allocated in two
/// independent seeded random orders, so the list order (app order, then relaunch order) has no
/// relation to the address order — as after hours of process churn, and as the kernel's
/// `CONFIG_SLAB_FREELIST_RANDOM` makes it from the start. A scan therefore chases one pointer per
/// task and loads one record per task. Deliberately kept in the competitor's favour: the nodes are
/// 32 bytes (a real `task_struct` is several KiB, an `mm_struct` about 1 KiB), the badness is
/// the precomputed key (no per-task arithmetic), and a footprint update writes the app's record
/// through a table of record pointers (as the running task charges `current->mm`).
///
/// Everything is allocated in `init`; a kill unlinks the victim's node and the relaunch links the
/// same node (and record) at the tail of the list, as `copy_process` does for a new task, so no
/// operation allocates.
final class TaskListScanKillQueue: KillQueue {
    struct MM {
        /// The app's packed key (the kernel would compute badness from the rss counters here).
        var key: UInt64
    }

    struct Task {
        var next: UnsafeMutablePointer<Task>
        var previous: UnsafeMutablePointer<Task>
        var mm: UnsafeMutablePointer<MM>
        var app: Int
    }

    /// The list head (the kernel's `init_task`), not an app, and its record (key 0).
    private let head: UnsafeMutablePointer<Task>
    private let headRecord: UnsafeMutablePointer<MM>
    /// The task of each app (the pid table), and its record (what `current->mm` gives the running task).
    private var tasks: [UnsafeMutablePointer<Task>]
    private var records: [UnsafeMutablePointer<MM>]
    private let top: TopKBuffer

    init(keys: [UInt64], bandCount: Int) {
        var rng = SeededGenerator(seed: 0x7A5C_0001 &+ UInt64(keys.count))
        headRecord = .allocate(capacity: 1)
        headRecord.initialize(to: MM(key: 0))
        head = .allocate(capacity: 1)
        head.initialize(to: Task(next: head, previous: head, mm: headRecord, app: -1))
        top = TopKBuffer(capacity: 128)
        // Allocate the nodes, then the records, each in its own random order of the apps.
        var taskOf = [UnsafeMutablePointer<Task>?](repeating: nil, count: keys.count)
        for app in Array(keys.indices).shuffled(using: &rng) { taskOf[app] = .allocate(capacity: 1) }
        var recordOf = [UnsafeMutablePointer<MM>?](repeating: nil, count: keys.count)
        for app in Array(keys.indices).shuffled(using: &rng) { recordOf[app] = .allocate(capacity: 1) }
        tasks = taskOf.map { $0! }
        records = recordOf.map { $0! }
        for app in keys.indices {
            records[app].initialize(to: MM(key: keys[app]))
            tasks[app].initialize(to: Task(next: head, previous: head, mm: records[app], app: app))
            linkAtTail(tasks[app])
        }
    }

    deinit {
        for task in tasks { task.deallocate() }
        for record in records { record.deallocate() }
        head.deallocate()
        headRecord.deallocate()
    }

    @inline(__always)
    private func linkAtTail(_ task: UnsafeMutablePointer<Task>) {
        let last = head.pointee.previous
        task.pointee.next = head
        task.pointee.previous = last
        last.pointee.next = task
        head.pointee.previous = task
    }

    @inline(__always)
    private func unlink(_ task: UnsafeMutablePointer<Task>) {
        task.pointee.previous.pointee.next = task.pointee.next
        task.pointee.next.pointee.previous = task.pointee.previous
    }

    @inline(__always)
    func key(of app: Int) -> UInt64 { records[app].pointee.key }

    @inline(__always)
    func update(app: Int, to key: UInt64) { records[app].pointee.key = key }

    func killHeaviest() -> Int {
        var best: UInt64 = 0
        var victim: UnsafeMutablePointer<Task>? = nil
        var task = head.pointee.next
        while task != head {
            let key = task.pointee.mm.pointee.key
            if key > best {
                best = key
                victim = task
            }
            task = task.pointee.next
        }
        guard let victim else { preconditionFailure("no app to kill") }
        unlink(victim)
        return victim.pointee.app
    }

    func relaunch(app: Int, key: UInt64) {
        records[app].pointee.key = key
        linkAtTail(tasks[app])
    }

    func reportTop(_ k: Int) -> UInt64 {
        top.reset()
        var task = head.pointee.next
        while task != head {
            top.offer(task.pointee.mm.pointee.key, limit: k)
            task = task.pointee.next
        }
        return top.checksum()
    }
}
