import IndexedHeapModule

/// Runs the same seeded operation streams on all six kill queues and traps unless they pick the
/// same victims in the same order and give the same top-10 reports; also checks the heap's
/// invariants afterwards. Run at startup, before any figure is measured.
func selfCheckKillQueues() {
    for (apps, operations, seed) in [(1, 2_000, UInt64(1)), (17, 5_000, 2), (1_000, 60_000, 3), (5_000, 30_000, 4)] {
        let workload = KillQueueWorkload(apps: apps, operations: operations, seed: seed)
        let heap = victims(IndexedHeapKillQueue.self, workload)
        let lazy = victims(LazyDeletionHeapKillQueue.self, workload)
        let taskList = victims(TaskListScanKillQueue.self, workload)
        let adjSlots = victims(AdjSlotListsKillQueue.self, workload)
        let linear = victims(LinearScanKillQueue.self, workload)
        let bands = victims(BandListsKillQueue.self, workload)
        // fatalError rather than precondition: its message survives -O.
        if heap.victims.isEmpty { fatalError("self-check: no victim at all for \(apps) apps") }
        let others = [
            ("Heap with lazy deletion", lazy), ("task-list scan", taskList), ("adj-slot lists", adjSlots),
            ("linear scan (packed array)", linear), ("band lists (packed arrays)", bands),
        ]
        for (name, other) in others {
            if other.victims != heap.victims || other.checksum != heap.checksum {
                fatalError("self-check: \(name) and IndexedHeap pick different victims for \(apps) apps (seed \(seed))")
            }
        }
        var queue = IndexedHeapKillQueue(keys: workload.initialKeys)
        var checksum: UInt64 = 0
        _ = workload.operations.withUnsafeBufferPointer { queue.run($0, from: 0, count: $0.count, checksum: &checksum) }
        if let violation = queue.heap._invariantViolation() { fatalError("self-check: \(violation)") }
    }
}

private func victims<Queue: KillQueue>(_: Queue.Type, _ workload: KillQueueWorkload) -> (
    victims: [Int], checksum: UInt64
) {
    var queue = Queue(keys: workload.initialKeys)
    var victims: [Int] = []
    var checksum: UInt64 = 0
    // Twice round the stream, so the second pass runs on a well-mixed state.
    var cursor = 0
    workload.operations.withUnsafeBufferPointer { operations in
        cursor = queue.run(operations, from: cursor, count: 2 * operations.count, checksum: &checksum) {
            victims.append($0)
        }
    }
    checksum = mix(checksum, queue.reportTop(Swift.min(100, workload.initialKeys.count)))
    return (victims, checksum)
}
