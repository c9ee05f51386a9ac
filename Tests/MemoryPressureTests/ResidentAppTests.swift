import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// `PressureEngine.add(_:)` and `update(_:)`: an app as a snapshot or a live source reports it,
/// added to a running engine or brought up to date, with no callbacks and no pressure response
/// until asked.
@Suite("Resident apps added and updated")
struct ResidentAppTests {
    @Test("add: the app joins the books and the kill order silently; pressure waits for a tick")
    func addSilently() throws {
        let engine = PressureEngine.scenario()  // 416 MiB usable under ios4
        try engine.step(0, .launch("F", mib: 100))
        _ = engine.takeEvents()
        try engine.add(ResidentApp(id: "S", state: .suspended, footprint: .mebibytes(300), lastActive: 60))
        #expect(engine.takeEvents().isEmpty)
        #expect(engine.accountant.totalFootprint == .mebibytes(400))
        #expect(engine.level == .normal)
        #expect(engine.killOrder(limit: 1).map(\.app) == ["S"])
        let events = try engine.step(1, .tick)
        #expect(events.contains { $0.hasPrefix("level normal→") })
        #expect(events.contains { $0.hasPrefix("S kill suspended") })
        #expect(engine._invariantViolation() == nil)
    }

    @Test("add refuses a known app, a second foreground app and caches larger than the footprint, changing nothing")
    func addRefusals() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 100))
        #expect(throws: EngineError.duplicateApp("F")) {
            try engine.add(ResidentApp(id: "F", state: .suspended, footprint: .mebibytes(10)))
        }
        #expect(throws: EngineError.alreadyForeground("F")) {
            try engine.add(ResidentApp(id: "G", state: .active, footprint: .mebibytes(10)))
        }
        #expect(
            throws: EngineError.footprintTooSmall(
                "H", footprint: .mebibytes(10), viewsAndCaches: .mebibytes(12))
        ) {
            try engine.add(
                ResidentApp(
                    id: "H", state: .suspended, footprint: .mebibytes(10), viewCaches: .mebibytes(8),
                    purgeable: .mebibytes(4)))
        }
        #expect(engine.allApps.map(\.id) == ["F"])
        #expect(engine.accountant.totalFootprint == .mebibytes(100))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("add from inside a callback is deferred until the callback's mutation ends")
    func addDeferred() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 330))
        var inside: Set<AppID>?
        _ = try engine.addMemoryWarningObserver(for: "F") { _ in
            try? engine.add(ResidentApp(id: "late", state: .suspended, footprint: .mebibytes(1)))
            inside = Set(engine.allApps.map(\.id))
            return .comply
        }
        try engine.step(1, .allocate("F", mib: 30))
        #expect(inside == ["F"])
        #expect(engine.status(of: "late")?.state == .suspended)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("update: new sizes, a new state and a new oom_score_adj re-rank the app; refusals change nothing")
    func updateReRanks() throws {
        let engine = try PressureEngine(
            device: Device(memory: .gibibytes(4), reserved: .gibibytes(1)), policy: .shipped("android-lmkd"))
        try engine.add(ResidentApp(id: "A", state: .suspended, footprint: .mebibytes(100), oomScoreAdj: 900))
        try engine.add(ResidentApp(id: "B", state: .suspended, footprint: .mebibytes(50), oomScoreAdj: 950))
        try engine.add(ResidentApp(id: "F", state: .active, footprint: .mebibytes(200), oomScoreAdj: 0))
        #expect(engine.killOrder(limit: 2).map(\.app) == ["B", "A"])
        try engine.update(ResidentApp(id: "A", state: .suspended, footprint: .mebibytes(120), oomScoreAdj: 999))
        #expect(engine.killOrder(limit: 2).map(\.app) == ["A", "B"])
        #expect(engine.accountant.totalFootprint == .mebibytes(370))
        // B comes to the front as F leaves it: one foreground app throughout.
        try engine.update(ResidentApp(id: "F", state: .suspended, footprint: .mebibytes(200), oomScoreAdj: 900))
        try engine.update(ResidentApp(id: "B", state: .active, footprint: .mebibytes(60), oomScoreAdj: 0))
        #expect(engine.foregroundApp == "B")
        #expect(throws: EngineError.alreadyForeground("B")) {
            try engine.update(ResidentApp(id: "A", state: .active, footprint: .mebibytes(120)))
        }
        #expect(
            throws: EngineError.footprintTooSmall("A", footprint: .mebibytes(1), viewsAndCaches: .mebibytes(2))
        ) {
            try engine.update(
                ResidentApp(id: "A", state: .suspended, footprint: .mebibytes(1), purgeable: .mebibytes(2)))
        }
        #expect(engine.status(of: "A")?.footprint == .mebibytes(120))
        #expect(engine.accountant.totalFootprint == .mebibytes(380))
        // An app the engine does not know is added.
        try engine.update(ResidentApp(id: "N", state: .suspended, footprint: .mebibytes(5), oomScoreAdj: 999))
        #expect(engine.status(of: "N")?.footprint == .mebibytes(5))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("update of a compressed app: the reading replaces its books, the compressed pool included")
    func updateCompressed() throws {
        let engine = PressureEngine.scenario(
            memory: .mebibytes(512), reserved: .mebibytes(96), policy: try .shipped("jetsam-compressor"))
        try engine.step(0, .launch("A", mib: 150))
        try engine.step(1, .open("B", mib: 150))
        let events = try engine.step(2, .open("C", mib: 100))
        // Memory ran short: reclaim compressed A (suspended longest) into the pool.
        try #require(events.contains { $0.hasPrefix("A compress") })
        let pool = engine.accountant.compressedPool
        try engine.update(ResidentApp(id: "A", state: .suspended, footprint: .mebibytes(40)))
        #expect(engine.status(of: "A")?.footprint == .mebibytes(40))
        // A's share of the pool is gone with the reading: what stays is B's, if reclaim took B too.
        let others = events.contains { $0.hasPrefix("B compress") }
        #expect(others ? engine.accountant.compressedPool < pool : engine.accountant.compressedPool == .zero)
        #expect(engine._invariantViolation() == nil)
    }
}
