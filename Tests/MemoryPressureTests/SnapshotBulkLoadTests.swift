import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Issue 24: a snapshot's apps enter the kill queue in one bottom-up heap construction (and are
// ordered by age only when the policy reads band-entry order). The kill order must be the one the
// load before it gave — every app inserted on its own, in age order — for every shipped policy,
// with ties, limits (apps over them queued early) and protected apps.

@Suite("snapshot bulk load")
struct SnapshotBulkLoadTests {
    static let adjs = [0, 100, 200, 225, 500, 900, 950, -1000]
    static let priorities = [0, 30, 40, 100, 120, 160, 220]

    @Test(
        "seeded random snapshots: the bulk-loaded kill order is the one-insertion-at-a-time order, for every shipped policy",
        .singleThreadedLongRun
    )
    func matchesIncremental() throws {
        let states: [AppState] = [.suspended, .suspended, .background, .inactive, .active]
        try withEvery("seed", in: UInt64(0)..<60) { seed in
            var random = SplitMix64(seed: seed)
            var apps: [ResidentApp] = []
            var hasForeground = false
            for index in 0..<Int(random.next() % 120 + 1) {
                var state = states[Int(random.next() % UInt64(states.count))]
                if state.isForeground {
                    if hasForeground { state = .background }
                    hasForeground = true
                }
                apps.append(
                    ResidentApp(
                        id: AppID("app\(random.next() % 1000)-\(index)"), state: state,
                        footprint: .mebibytes(Int64(random.next() % 4 == 0 ? 700 : random.next() % 90 + 1)),
                        lastActive: Double(random.next() % 20),
                        oomScoreAdj: random.next() % 3 == 0
                            ? nil : Self.adjs[Int(random.next() % UInt64(Self.adjs.count))],
                        swap: .mebibytes(Int64(random.next() % 3)), pageTables: .kibibytes(Int64(random.next() % 64)),
                        priority: random.next() % 2 == 0
                            ? nil : Self.priorities[Int(random.next() % UInt64(Self.priorities.count))]))
            }
            let snapshot = Snapshot(device: Device(memory: .gibibytes(8)), apps: apps)
            for name in Policy.shippedNames {
                let policy = try Policy.shipped(name)
                let bulk = try PressureEngine(snapshot: snapshot, policy: policy)
                let oneByOne = try PressureEngine(snapshot: snapshot, policy: policy, bulkLoad: false)
                // The kill queue built as a tournament, as for a million apps.
                let tournament = try PressureEngine(
                    snapshot: snapshot, policy: policy, bulkLoad: true, tournamentThreshold: 0)
                let bulkOrder: [String] = bulk.killOrder(limit: .max).map(\.app.rawValue)
                let oneByOneOrder: [String] = oneByOne.killOrder(limit: .max).map(\.app.rawValue)
                #expect(bulkOrder == oneByOneOrder, "\(name)")
                #expect(tournament.killOrder(limit: .max).map(\.app.rawValue) == bulkOrder, "\(name), tournament")
                let protectedBulk: [String] = bulk.protectedApps().map(\.app.rawValue)
                let protectedOne: [String] = oneByOne.protectedApps().map(\.app.rawValue)
                #expect(protectedBulk == protectedOne, "\(name)")
                // And the queue keeps working: kill the whole order away.
                try bulk.apply(.tick, at: 1)
                try oneByOne.apply(.tick, at: 1)
                try tournament.apply(.tick, at: 1)
                #expect(
                    bulk.killOrder(limit: .max).map(\.app.rawValue)
                        == oneByOne.killOrder(limit: .max).map(\.app.rawValue))
                #expect(bulk.takeEvents() == tournament.takeEvents(), "\(name), tournament: the tick's events")
                #expect(
                    tournament.killOrder(limit: .max).map(\.app.rawValue)
                        == bulk.killOrder(limit: .max).map(\.app.rawValue))
            }
        }
    }
}
