import MemoryPressure
import Testing
import TestSupport

/// A mutation requested from inside a callback is deferred until the current mutation has
/// finished (`PressureEngine+Reentrancy.swift`); the books stay exact throughout.
@Suite("Re-entrancy: mutations from callbacks are deferred")
struct ReentrancyTests {
    /// App code that frees memory through the engine when warned.
    final class Freer: ApplicationDelegate {
        let engine: PressureEngine
        var sawMutating = false
        var freedAt: [Double] = []
        init(engine: PressureEngine) { self.engine = engine }
        func applicationDidReceiveMemoryWarning(_ app: AppID, level: Int) -> MemoryWarningResponse {
            sawMutating = engine.isMutating
            // Deferred: returns at once, applied after the warning's mutation.
            try? engine.apply(.free(app: app, bytes: .mebibytes(50), purgeable: false), at: engine.now)
            freedAt.append(engine.now)
            return .comply
        }
    }

    @Test("an observer's apply(.free) runs after the warning's mutation, not inside it")
    func freeFromWarningIsDeferred() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 330))
        let freer = Freer(engine: engine)
        try engine.setDelegate(freer, for: "F")
        let before = engine.status(of: "F")!.footprint
        let events = try engine.step(1, .allocate("F", mib: 30))
        #expect(freer.sawMutating)
        #expect(engine.isMutating == false)
        // The warning is logged before the level falls back: the free came after the warning.
        let warning = try #require(events.firstIndex(of: "F warning 1"))
        let back = try #require(events.firstIndex(of: "level warning→normal"))
        #expect(warning < back)
        #expect(engine.status(of: "F")!.footprint == before + .mebibytes(30) - .mebibytes(50))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a deferred action that fails is reported by the outer call, whose own action took effect")
    func deferredFailureIsReported() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 330))
        _ = try engine.addMemoryWarningObserver(for: "F") { _ in
            // Frees more than F holds: fails when applied.
            try? engine.apply(.free(app: "F", bytes: .gibibytes(4), purgeable: false), at: engine.now)
            return .comply
        }
        #expect {
            try engine.apply(.allocate("F", mib: 30), at: 1)
        } throws: { error in
            guard case .deferredActionsFailed(let failures) = error as? EngineError, failures.count == 1,
                case .freesMoreThanHeld = failures[0].error
            else { return false }
            return failures[0].action == .free(app: "F", bytes: .gibibytes(4), purgeable: false)
        }
        // The allocation itself took effect.
        #expect(engine.status(of: "F")!.footprint == .mebibytes(360))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("actions deferred by a failing action are dropped with it")
    func deferredDroppedWhenOuterFails() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        #expect(throws: EngineError.self) { try engine.apply(.launch("A", mib: 40), at: 1) }
        #expect(engine.isMutating == false)
        try engine.step(2, .allocate("A", mib: 1))
        #expect(engine.status(of: "A")!.footprint == .mebibytes(41))
    }

    /// Apple, "Extending your app's background execution time": call beginBackgroundTask from
    /// applicationDidEnterBackground(_:) and the app keeps running in the background.
    final class AsksForTime: ApplicationDelegate {
        let engine: PressureEngine
        init(engine: PressureEngine) { self.engine = engine }
        func applicationDidEnterBackground(_ app: AppID) {
            try? engine.apply(.beginBackgroundTask(app: app, seconds: 600), at: engine.now)
        }
    }

    @Test("beginBackgroundTask from didEnterBackground keeps the app in the background (Apple docs)")
    func backgroundTaskFromDidEnterBackground() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        try engine.setDelegate(AsksForTime(engine: engine), for: "A")
        let events = try engine.step(5, .home)
        #expect(events == ["A willResignActive", "A active→inactive", "A inactive→background", "A didEnterBackground"])
        #expect(engine.status(of: "A")?.state == .background)
        // The task ends at 605 s: then the app is suspended.
        #expect(try engine.step(700, .tick) == ["A background→suspended"])
    }

    /// A view-controller delegate that shows another view when one is unloaded.
    final class Reloader: ViewControllerDelegate {
        let engine: PressureEngine
        init(engine: PressureEngine) { self.engine = engine }
        func viewDidUnload(_ view: String, of app: AppID) {
            try? engine.apply(.showView(app: app, view: "replacement", bytes: .mebibytes(1)), at: engine.now)
        }
    }

    @Test("a view loaded from viewDidUnload does not corrupt the app's view list")
    func viewLoadedFromViewDidUnload() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 330, views: [("page", 8), ("old", 4)]))
        try engine.step(0, .showView(app: "F", view: "page", bytes: nil))
        try engine.setViewControllerDelegate(Reloader(engine: engine), for: "old", of: "F")
        try engine.step(1, .allocate("F", mib: 30))
        let views = try #require(engine.status(of: "F")?.views.map(\.name))
        #expect(views.contains("replacement"))
        #expect(views.contains("old"))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a footprint change through a reference from a callback is deferred too")
    func referenceChangeFromCallback() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 330))
        let reference = try #require(engine.reference(to: "F"))
        var calls = 0
        _ = try engine.addMemoryWarningObserver(for: "F") { _ in
            calls += 1
            try? engine.changeFootprint(of: reference, by: .mebibytes(-40), at: engine.now)
            return .comply
        }
        try engine.changeFootprint(of: reference, by: .mebibytes(30), at: 1)
        #expect(calls == 1)
        #expect(engine.status(of: "F")!.footprint == .mebibytes(320))
        #expect(engine.level == .normal)
        #expect(engine._invariantViolation() == nil)
    }
}

/// The review's cases: every mutator defers from a callback, exactly once, and the books stay exact.
@Suite("Re-entrancy: forget, update, batches and stale references from callbacks")
struct ReentrancyEdgeTests {
    @Test("forget from an observer is applied once after the mutation, and the record is reclaimed")
    func forgetFromCallback() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("B", mib: 40))
        try engine.step(1, .launch("F", mib: 300))
        _ = try engine.addMemoryWarningObserver(for: "F") { _ in
            engine.forget("B")
            return .comply
        }
        try engine.step(2, .allocate("F", mib: 30))
        #expect(engine.status(of: "B") == nil)
        #expect(engine.storageStatistics.freeSlots == 1)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("update and setUnattributedMemory from a callback are deferred, not applied mid-mutation")
    func liveSettersFromCallback() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 330))
        var sawLevelDuringCallback: PressureLevel?
        _ = try engine.addMemoryWarningObserver(for: "F") { _ in
            try? engine.update(ResidentApp(id: "G", state: .suspended, footprint: .mebibytes(10)))
            engine.setUnattributedMemory(.mebibytes(1))
            sawLevelDuringCallback = engine.level
            // Not yet applied while the callback runs.
            #expect(engine.status(of: "G") == nil)
            return .comply
        }
        try engine.step(1, .allocate("F", mib: 30))
        #expect(sawLevelDuringCallback != nil)
        #expect(engine.status(of: "G")?.footprint == .mebibytes(10))
        #expect(engine.accountant.unattributed == .mebibytes(1))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a batch element whose deferred work failed counts as completed: retrying never repeats it")
    func batchWithDeferredFailure() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 330))
        _ = try engine.addMemoryWarningObserver(for: "F") { _ in
            try? engine.apply(.free(app: "F", bytes: .gibibytes(4), purgeable: false), at: engine.now)
            return .comply
        }
        let batch = [TimedAction(.allocate("F", mib: 30), at: 1), TimedAction(.allocate("F", mib: 1), at: 2)]
        do {
            try engine.apply(batch)
            Issue.record("the batch should have stopped")
        } catch {
            #expect(error.completed == 1)
            guard case .deferredActionsFailed = error.error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        #expect(engine.status(of: "F")!.footprint == .mebibytes(360))
    }

    @Test("a deferred change through a reference whose app was forgotten first fails as stale")
    func deferredReferenceGoesStale() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40, modes: [.audio]))
        try engine.step(0, .useBackgroundModes(app: "A", modes: [.audio]))
        try engine.step(1, .launch("F", mib: 300))
        let a = try #require(engine.reference(to: "A"))
        _ = try engine.addMemoryWarningObserver(for: "F") { _ in
            engine.forget("A")
            try? engine.apply(.launch("A", mib: 5), at: engine.now)
            try? engine.changeFootprint(of: a, by: .mebibytes(1), at: engine.now)
            return .comply
        }
        #expect {
            try engine.apply(.allocate("F", mib: 30), at: 2)
        } throws: { error in
            guard case .deferredActionsFailed(let failures) = error as? EngineError else { return false }
            return failures.count == 1 && failures[0].error == .staleReference(a)
        }
        // The new A was not charged the old reference's change.
        #expect(engine.status(of: "A")?.footprint == .mebibytes(5))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a very large retention does not overflow")
    func hugeRetention() throws {
        let engine = PressureEngine.scenario()
        engine.eventRetention = .newest(.max - 1)
        try engine.step(0, .launch("A", mib: 10))
        #expect(engine.droppedEvents == 0)
    }
}
