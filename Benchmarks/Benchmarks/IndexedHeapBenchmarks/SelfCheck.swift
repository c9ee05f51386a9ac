import IndexedHeapModule

/// Runs the same seeded operation streams on all eight kill queues, for every distribution, and
/// traps unless they pick the same victims in the same order and give the same top-10 reports;
/// also checks the heap's and the tournament's invariants afterwards. Run at startup, before any
/// figure is measured (each benchmark runs in its own process, so this is kept to a few
/// milliseconds).
func selfCheckKillQueues() {
    var cases: [(KillQueueDistribution, Int, Int, UInt64)] = [
        (.uniform, 1, 2_000, 1), (.uniform, 17, 5_000, 2), (.uniform, 1_000, 60_000, 3), (.uniform, 5_000, 30_000, 4),
    ]
    for distribution in KillQueueDistribution.allCases where distribution != .uniform {
        cases += [(distribution, 17, 3_000, 5), (distribution, 1_500, 30_000, 6)]
    }
    for (distribution, apps, operations, seed) in cases {
        let workload = KillQueueWorkload(distribution, apps: apps, operations: operations, seed: seed)
        let heap = victims(EngineKillQueue.self, workload)
        // fatalError rather than precondition: its message survives -O.
        if heap.victims.isEmpty { fatalError("self-check: no victim at all for \(apps) apps") }
        let others = [
            ("IndexedTournament", victims(TournamentKillQueue.self, workload)),
            ("Heap with lazy deletion", victims(LazyDeletionHeapKillQueue.self, workload)),
            ("task-list scan", victims(TaskListScanKillQueue.self, workload)),
            ("adj-slot lists", victims(AdjSlotListsKillQueue.self, workload)),
            ("adj-slot lists, checked handles", victims(CheckedSlotListsKillQueue.self, workload)),
            ("linear scan (packed array)", victims(LinearScanKillQueue.self, workload)),
            ("band lists (packed arrays)", victims(BandListsKillQueue.self, workload)),
        ]
        for (name, other) in others {
            if other.victims != heap.victims || other.checksum != heap.checksum {
                fatalError(
                    "self-check: \(name) and the engine's queue pick different victims for \(apps) apps, "
                        + "\(distribution) (seed \(seed))")
            }
        }
        var engineQueue = EngineKillQueue(keys: workload.initialKeys, bandCount: distribution.bandCount)
        var tournament = TournamentKillQueue(keys: workload.initialKeys, bandCount: distribution.bandCount)
        var checksum: UInt64 = 0
        workload.operations.withUnsafeBufferPointer {
            _ = engineQueue.run($0, from: 0, count: $0.count, checksum: &checksum)
            _ = tournament.run($0, from: 0, count: $0.count, checksum: &checksum)
        }
        if let violation = engineQueue.queue._invariantViolation() { fatalError("self-check: \(violation)") }
        if let violation = tournament.queue._invariantViolation() { fatalError("self-check: \(violation)") }
    }
}

private func victims<Queue: KillQueue>(_: Queue.Type, _ workload: KillQueueWorkload) -> (
    victims: [Int], checksum: UInt64
) {
    var queue = Queue(keys: workload.initialKeys, bandCount: workload.distribution.bandCount)
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
