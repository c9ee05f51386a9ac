/// Competitor (c), idealized (packed array): no index at all. Updates are a store; every victim
/// selection and every report scans all apps, the way the Linux kernel's `select_bad_process`
/// walks every task and keeps the one with the highest badness — but over one packed array of
/// keys, which streams at memory bandwidth, where the kernel chases a linked list of tasks and
/// their `mm`s (that is ``TaskListScanKillQueue``).
struct LinearScanKillQueue: KillQueue {
    /// The key of every app; 0 for an app that is not live (real keys are never 0: footprints are ≥ 1 MiB).
    var keys: [UInt64]
    let top: TopKBuffer

    init(keys: [UInt64], bandCount: Int) {
        self.keys = keys
        top = TopKBuffer(capacity: 128)
    }

    @inline(__always)
    func key(of app: Int) -> UInt64 { keys[app] }

    @inline(__always)
    mutating func update(app: Int, to key: UInt64) { keys[app] = key }

    mutating func killHeaviest() -> Int {
        let victim = keys.withUnsafeBufferPointer { keys in
            var best: UInt64 = 0
            var bestApp = -1
            for app in keys.indices where keys[app] > best {
                best = keys[app]
                bestApp = app
            }
            return bestApp
        }
        precondition(victim >= 0, "no app to kill")
        keys[victim] = 0
        return victim
    }

    mutating func relaunch(app: Int, key: UInt64) { keys[app] = key }

    mutating func reportTop(_ k: Int) -> UInt64 {
        top.reset()
        keys.withUnsafeBufferPointer { keys in
            for key in keys where key != 0 { top.offer(key, limit: k) }
        }
        return top.checksum()
    }
}
