import Foundation
import MemoryPressure
import Testing
import TestSupport

/// Long runs: records of apps that ended are reclaimed, slots reused, stale references detected,
/// and the event log bounded (`PressureEngine+Reclaim.swift`, `EventRetention.swift`).
@Suite("Long runs: reclaimed records, stale references, bounded events")
struct LongRunTests {
    @Test("forget reclaims the record: the id is unknown, the slot is reused, references go stale")
    func forgetReclaims() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        try engine.step(1, .launch("B", mib: 40))
        let a = try #require(engine.reference(to: "A"))
        let b = try #require(engine.reference(to: "B"))
        engine.forget("A")
        _ = engine.takeEvents()
        // Generations are stored from the first reclaim on: a reference made before it to an app
        // that was not reclaimed stays current.
        #expect(engine.isCurrent(b))
        #expect(engine.status(of: "A") == nil)
        #expect(engine.id(of: a) == nil)
        #expect(!engine.isCurrent(a))
        #expect(throws: EngineError.staleReference(a)) { try engine.changeFootprint(of: a, by: .mebibytes(1), at: 2) }
        try engine.step(3, .launch("C", mib: 40))
        let c = try #require(engine.reference(to: "C"))
        #expect(c.index == a.index)
        #expect(c.generation == a.generation &+ 1)
        #expect(engine.storageStatistics.slots == 2)
        #expect(engine.allApps.map(\.id) == ["C", "B"])
        // A new slot after the first reclaim starts at generation 0, like every slot before it.
        try engine.step(4, .launch("D", mib: 40))
        let d = try #require(engine.reference(to: "D"))
        #expect(d.index == 2 && d.generation == 0 && engine.isCurrent(d) && engine.isCurrent(b))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("with retainsEndedApps off, killed and terminated apps' records are reclaimed")
    func endedAppsReclaimed() throws {
        let engine = PressureEngine.scenario(memory: .mebibytes(512), reserved: .mebibytes(96))
        engine.retainsEndedApps = false
        try engine.step(0, .launch("A", mib: 100))
        try engine.step(1, .launch("B", mib: 100))
        try engine.step(2, .userKill(app: "A"))
        #expect(engine.status(of: "A") == nil)
        #expect(engine.storageStatistics.freeSlots == 1)
        // Pressure kills reclaim too: C needs more than is free, so B (suspended) is killed.
        try engine.step(3, .launch("C", mib: 330))
        #expect(engine.status(of: "B") == nil)
        #expect(engine.storageStatistics.records == 1)
        #expect(engine._invariantViolation() == nil)
    }

    /// How many distinct ids the churn test sends through one engine: 10 million when
    /// `MEMORYPRESSURE_CHURN` says so (CI's release run), 200,000 otherwise.
    static var churnCount: Int {
        if let value = ProcessInfo.processInfo.environment["MEMORYPRESSURE_CHURN"], let count = Int(value), count > 0 {
            return count
        }
        return 200_000
    }

    @Test("distinct ids churn through one engine with bounded storage")
    func churn() throws {
        let engine = PressureEngine.scenario(memory: .mebibytes(512), reserved: .mebibytes(96))
        engine.retainsEndedApps = false
        engine.eventRetention = .newest(64)
        var peak = engine.storageStatistics
        var time = 0.0
        for i in 0..<Self.churnCount {
            let id = AppID("tenant-\(i)")
            time += 1
            // Each tenant launches with 60 MiB: after five or so, pressure kills the oldest
            // suspended ones; every 7th is killed by the user instead.
            try engine.apply(.launch(id, mib: 60, views: i % 3 == 0 ? [("v", 1)] : []), at: time)
            if i % 7 == 6, i > 0 {
                let previous = AppID("tenant-\(i - 1)")
                if engine.status(of: previous)?.state.isResident == true {
                    try engine.apply(.userKill(app: previous), at: time)
                }
            }
            if i % 1024 == 0 {
                let stats = engine.storageStatistics
                peak.slots = max(peak.slots, stats.slots)
                peak.appsWithExtras = max(peak.appsWithExtras, stats.appsWithExtras)
                peak.pendingEvents = max(peak.pendingEvents, stats.pendingEvents)
            }
        }
        let stats = engine.storageStatistics
        #expect(stats.slots <= 16)
        #expect(peak.slots <= 16)
        #expect(peak.appsWithExtras <= 16)
        #expect(peak.pendingEvents <= 128)
        #expect(stats.records == engine.residentCount)
        #expect(engine.droppedEvents > Self.churnCount)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("event retention: newest(n) keeps the last n and counts the rest; none keeps nothing")
    func eventRetention() throws {
        let all = PressureEngine.scenario()
        let newest = PressureEngine.scenario()
        newest.eventRetention = .newest(3)
        let none = PressureEngine.scenario()
        none.eventRetention = .none
        for engine in [all, newest, none] {
            for (t, app) in ["A", "B", "C", "D"].enumerated() {
                try engine.apply(.launch(AppID(app), mib: 20), at: Double(t))
            }
        }
        let every = all.takeEvents()
        #expect(newest.takeEvents() == Array(every.suffix(3)))
        #expect(newest.droppedEvents == every.count - 3)
        #expect(none.takeEvents().isEmpty)
        #expect(none.droppedEvents == every.count)
        // Changing the retention trims at once.
        try all.apply(.home, at: 10)
        let afterHome = all.storageStatistics.pendingEvents
        all.eventRetention = .newest(1)
        #expect(all.takeEvents().count == 1)
        #expect(all.droppedEvents == afterHome - 1)
    }
}
