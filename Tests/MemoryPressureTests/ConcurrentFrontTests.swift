import MemoryPressure
import MemoryPressureFormats
import Synchronization
import Testing
import TestSupport

/// Many tasks share one engine through its concurrent fronts; the accountant's totals must be
/// exact at the end. Run under ThreadSanitizer by `scripts/sanitizers.sh` (CI).
@Suite("Concurrent front: SharedPressureEngine and PressureEngineActor")
struct ConcurrentFrontTests {
    static let workers = 8
    static let tenantsPerWorker = 4
    static let steps = 2_000

    /// A device large enough that no pressure arises: every change must land exactly.
    static let roomyDevice = Device(memory: .gibibytes(64), reserved: .gibibytes(1))

    static func tenant(_ worker: Int, _ k: Int) -> AppID { AppID("w\(worker)-t\(k)") }

    /// Launches every tenant; each keeps executing in the background with audio, so each can
    /// allocate and free.
    static func launchAll(_ apply: (Action, Double) throws -> Void) throws {
        var time = 0.0
        for worker in 0..<workers {
            for k in 0..<tenantsPerWorker {
                time += 1
                try apply(.launch(tenant(worker, k), mib: 8, modes: [.audio]), time)
                try apply(.useBackgroundModes(app: tenant(worker, k), modes: [.audio]), time)
            }
        }
        try apply(.home, time + 1)
    }

    /// Worker `worker`'s seeded random footprint changes, as batches of 1 to 8, and the net bytes
    /// they add to each of its tenants.
    static func changes(worker: Int, references: [AppReference]) -> (batches: [[FootprintChange]], net: [Int64]) {
        var random = SplitMix64(seed: UInt64(worker) &* 0x9E37_79B9 &+ 17)
        var held = [Int64](repeating: 0, count: references.count)
        var batches: [[FootprintChange]] = []
        var made = 0
        while made < steps {
            var batch: [FootprintChange] = []
            for _ in 0..<Int(random.next() % 8 + 1) {
                let k = Int(random.next() % UInt64(references.count))
                let size = Int64(random.next() % 65_536) + 1
                let delta = held[k] >= size && random.next() % 2 == 0 ? -size : size
                held[k] += delta
                batch.append(FootprintChange(references[k], by: Bytes(delta)))
                made += 1
            }
            batches.append(batch)
        }
        return (batches, held)
    }

    @Test("8 threads × 2,000 changes through the lock: exact totals, events in order")
    func sharedStress() async throws {
        let shared = try SharedPressureEngine(device: Self.roomyDevice, policy: .ios4, eventBuffer: 1 << 16)
        try Self.launchAll { action, time in try shared.apply(action, at: time) }
        // The same launches on a bare engine: how many events the front must deliver.
        let bare = PressureEngine.scenario(memory: Self.roomyDevice.memory, reserved: Self.roomyDevice.reserved)
        try Self.launchAll { action, time in try bare.apply(action, at: time) }
        let launchEvents = bare.takeEvents().count
        let start = shared.accountant.totalFootprint
        let references = (0..<Self.workers).map { worker in
            (0..<Self.tenantsPerWorker).map { shared.reference(to: Self.tenant(worker, $0))! }
        }
        let consumer = Task {
            var count = 0
            var last = -Double.infinity
            var ordered = true
            for await event in shared.events {
                ordered = ordered && event.time >= last
                last = event.time
                count += 1
            }
            return (count, ordered)
        }
        let net = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for worker in 0..<Self.workers {
                group.addTask {
                    let (batches, net) = Self.changes(worker: worker, references: references[worker])
                    for (n, batch) in batches.enumerated() {
                        // Alternate single calls and batches, so both paths race.
                        if n % 2 == 0 {
                            try shared.changeFootprints(batch)
                        } else {
                            for change in batch { try shared.changeFootprint(of: change.app, by: change.delta) }
                        }
                    }
                    return net
                }
            }
            var all: [Int64] = []
            for try await part in group { all += part }
            return all
        }
        let expected = start.value + net.reduce(0, +)
        #expect(shared.accountant.totalFootprint.value == expected)
        shared.withEngine { engine in
            for worker in 0..<Self.workers {
                for k in 0..<Self.tenantsPerWorker {
                    _ = engine.status(of: Self.tenant(worker, k))
                }
            }
            #expect(engine._invariantViolation() == nil)
        }
        #expect(shared.level == .normal)
        #expect(shared.droppedEvents == 0)
        // Ending the stream lets the consumer finish after the buffered events.
        shared.finishEvents()
        let (received, ordered) = await consumer.value
        #expect(received == launchEvents)
        #expect(ordered)
    }

    @Test("a callback re-entering the front on its own thread is deferred, not deadlocked")
    func reentryThroughTheFront() throws {
        let shared = try SharedPressureEngine(
            device: Device(memory: .mebibytes(512), reserved: .mebibytes(96)), policy: .ios4)
        try shared.apply(.launch("F", mib: 330), at: 0)
        let calls = Atomic<Int>(0)
        try shared.withEngine { (engine) throws(EngineError) in
            _ = try engine.addMemoryWarningObserver(for: "F") { _ in
                calls.add(1, ordering: .relaxed)
                try? shared.apply(.free(app: "F", bytes: .mebibytes(40), purgeable: false))
                return .comply
            }
        }
        try shared.apply(.allocate("F", mib: 30), at: 1)
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(shared.withEngine { $0.status(of: "F")!.footprint } == .mebibytes(320))
        #expect(shared.level == .normal)
    }

    @Test("8 tasks × 2,000 changes through the actor: exact totals")
    func actorStress() async throws {
        let actor = try PressureEngineActor(device: Self.roomyDevice, policy: .ios4, eventBuffer: 0)
        var time = 0.0
        for worker in 0..<Self.workers {
            for k in 0..<Self.tenantsPerWorker {
                time += 1
                try await actor.apply(.launch(Self.tenant(worker, k), mib: 8, modes: [.audio]), at: time)
                try await actor.apply(.useBackgroundModes(app: Self.tenant(worker, k), modes: [.audio]), at: time)
            }
        }
        try await actor.apply(.home, at: time + 1)
        let launched = time + 1
        let start = await actor.accountant.totalFootprint
        var references: [[AppReference]] = []
        for worker in 0..<Self.workers {
            var row: [AppReference] = []
            for k in 0..<Self.tenantsPerWorker { row.append(await actor.reference(to: Self.tenant(worker, k))!) }
            references.append(row)
        }
        let fixed = references
        let net = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for worker in 0..<Self.workers {
                group.addTask {
                    let (batches, net) = Self.changes(worker: worker, references: fixed[worker])
                    for (n, batch) in batches.enumerated() {
                        if n % 2 == 0 {
                            try await actor.changeFootprints(batch, at: launched)
                        } else {
                            for change in batch {
                                try await actor.changeFootprint(of: change.app, by: change.delta, at: launched)
                            }
                        }
                    }
                    return net
                }
            }
            var all: [Int64] = []
            for try await part in group { all += part }
            return all
        }
        #expect(await actor.accountant.totalFootprint.value == start.value + net.reduce(0, +))
        #expect(await actor.withEngine { $0._invariantViolation() } == nil)
        // No consumer and no buffer: every event was dropped, none kept.
        #expect(await actor.droppedEvents > 0)
    }

    @Test("a batch stops at the failed element; the ones before it took effect")
    func batchStopsAtFailure() throws {
        let shared = try SharedPressureEngine(device: Self.roomyDevice, policy: .ios4)
        let batch = [
            TimedAction(.launch("A", mib: 10), at: 0),
            TimedAction(.allocate("A", mib: 1), at: 1),
            TimedAction(.allocate("Nobody", mib: 1), at: 2),
            TimedAction(.allocate("A", mib: 1), at: 3),
        ]
        #expect(throws: BatchError(completed: 2, error: .unknownApp("Nobody"))) { try shared.apply(batch) }
        #expect(shared.withEngine { $0.status(of: "A")!.footprint } == .mebibytes(11))
        let a = shared.reference(to: "A")!
        #expect(
            throws: BatchError(
                completed: 1, error: .freesMoreThanHeld("A", requested: .mebibytes(20), held: .mebibytes(12)))
        ) {
            try shared.changeFootprints([
                FootprintChange(a, by: .mebibytes(1)), FootprintChange(a, by: .mebibytes(-20)),
            ])
        }
        #expect(shared.accountant.totalFootprint == .mebibytes(12))
    }
}

@Suite("Concurrent front: events lost after the stream ends are counted")
struct ConcurrentFrontEventTests {
    @Test("after finishEvents every event is counted as dropped")
    func droppedAfterFinish() throws {
        let shared = try SharedPressureEngine(
            device: Device(memory: .mebibytes(512), reserved: .mebibytes(96)), policy: .ios4, eventBuffer: 8)
        shared.finishEvents()
        try shared.apply(.launch("A", mib: 10), at: 0)
        #expect(shared.droppedEvents == 4)  // notRunning→inactive, didFinishLaunching, inactive→active, didBecomeActive
    }
}

/// The fronts' calls that the stress tests above do not make: an engine set up before the actor
/// owns it, a batch of actions through the actor, its event stream read to the end, the level
/// and the kill order read through each front, and footprint changes at a given time.
@Suite("Concurrent front: every call")
struct ConcurrentFrontCallTests {
    /// 200 MiB usable under ios4: level 1 below 30 MiB free, kills from level 2 (below 20 MiB).
    static let small = Device(memory: .mebibytes(256), reserved: .mebibytes(56))

    @Test("the actor owns a prepared engine, applies a batch in one hop, and streams its events in order")
    func actorCalls() async throws {
        let engine = try PressureEngine(device: Self.small, policy: .ios4)
        try engine.apply(.launch("A", mib: 60), at: 0)
        let actor = PressureEngineActor(wrapping: engine, eventBuffer: 256)
        try await actor.apply([
            TimedAction(.open("B", mib: 60), at: 1), TimedAction(.open("C", mib: 50), at: 2),
            TimedAction(.allocate("C", mib: 5), at: 3),
        ])
        // 175 MiB of 200 held, 12.5 % free: the warning level, no kill yet. A and B (suspended, as
        // heavy as each other: by id) go first, C (in front) last.
        #expect(await actor.level == .warning)
        #expect(await actor.killOrder(limit: 5).map(\.app) == ["A", "B", "C"])
        actor.finishEvents()
        var kinds: [String] = []
        var last = -1.0
        for await event in actor.events {
            #expect(event.time >= last)
            last = event.time
            kinds.append(String(event.jsonLine.split(separator: "\"")[5]))
        }
        // A's launch, logged before the actor took the engine, comes first (notRunning → inactive,
        // didFinishLaunching, inactive → active, didBecomeActive), then the batch's: C's growth
        // crosses into the warning level and C is warned.
        #expect(kinds.prefix(4) == ["state", "callback", "state", "callback"])
        #expect(kinds.suffix(2) == ["level", "callback"])
        #expect(last == 3)
        #expect(await actor.droppedEvents == 0)
    }

    @Test("the lock: footprint changes at a given time, one by one and in a batch; level and kill order")
    func sharedCalls() throws {
        let shared = try SharedPressureEngine(device: Self.small, policy: .ios4)
        try shared.apply(.launch("A", mib: 60), at: 0)
        try shared.apply(.open("B", mib: 60), at: 1)
        let b = try #require(shared.reference(to: "B"))
        try shared.changeFootprint(of: b, by: .mebibytes(40), at: 2)
        #expect(shared.level == .normal)
        // 175 MiB of 200 held, 12.5 % free: the warning level; kills wait for the urgent one.
        try shared.changeFootprints(
            [FootprintChange(b, by: .mebibytes(20)), FootprintChange(b, by: .mebibytes(-5))], at: 3)
        #expect(shared.accountant.totalFootprint == .mebibytes(175))
        #expect(shared.level == .warning)
        // A suspended, then B in front (ios4 kills it last, once it ignored both warnings).
        #expect(shared.killOrder(limit: 5).map(\.app) == ["A", "B"])
    }
}
