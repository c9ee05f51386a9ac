import MemoryPressure
import Testing
import TestSupport

/// One scenario per row of docs/DESIGN.md's lifecycle table, with the callbacks in exactly that order.
@Suite("Lifecycle (docs/DESIGN.md table)")
struct LifecycleTests {
    @Test("tap icon (cold): notRunning → didFinishLaunching, didBecomeActive → active")
    func coldLaunch() throws {
        let engine = PressureEngine.scenario()
        let events = try engine.step(0, .launch("A", mib: 40))
        #expect(events == ["A notRunning→inactive", "A didFinishLaunching", "A inactive→active", "A didBecomeActive"])
        #expect(engine.status(of: "A")?.state == .active)
    }

    @Test("interruption arrives: active → willResignActive → inactive")
    func interruptionArrives() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        #expect(try engine.step(5, .interrupt) == ["A willResignActive", "A active→inactive"])
        #expect(engine.status(of: "A")?.state == .inactive)
    }

    @Test("sleep button: active → willResignActive → inactive")
    func sleepButton() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        #expect(try engine.step(5, .lock) == ["A willResignActive", "A active→inactive"])
    }

    @Test("interruption ignored: inactive → didBecomeActive → active")
    func interruptionIgnored() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        try engine.step(5, .interrupt)
        #expect(try engine.step(9, .interruptEnd(answered: false)) == ["A inactive→active", "A didBecomeActive"])
    }

    @Test("device woken: inactive → didBecomeActive → active")
    func deviceWoken() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        try engine.step(5, .lock)
        #expect(try engine.step(600, .unlock) == ["A inactive→active", "A didBecomeActive"])
    }

    @Test("interruption answered: inactive → didEnterBackground → background (then suspended)")
    func interruptionAnswered() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        try engine.step(5, .interrupt)
        #expect(
            try engine.step(7, .interruptEnd(answered: true)) == [
                "A inactive→background", "A didEnterBackground", "A background→suspended",
            ])
        #expect(engine.foregroundApp == nil)
    }

    @Test("Home pressed: active → willResignActive, didEnterBackground → background")
    func homePressed() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40, modes: .location))
        #expect(
            try engine.step(30, .home) == [
                "A willResignActive", "A active→inactive", "A inactive→background", "A didEnterBackground",
            ])
        #expect(engine.status(of: "A")?.state == .background)
    }

    @Test("another app opened: the foreground app goes to the background first")
    func anotherAppOpened() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        #expect(
            try engine.step(20, .open("B", mib: 80)) == [
                "A willResignActive", "A active→inactive", "A inactive→background", "A didEnterBackground",
                "A background→suspended",
                "B notRunning→inactive", "B didFinishLaunching", "B inactive→active", "B didBecomeActive",
            ])
    }

    @Test("background work ends (no background mode, no task): background → suspended with no callback")
    func backgroundWorkEnds() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 25))
        try engine.step(5, .beginBackgroundTask(app: "A", seconds: 600))
        let home = try engine.step(10, .home)
        #expect(home.last == "A didEnterBackground")
        #expect(engine.status(of: "A")?.state == .background)
        #expect(try engine.step(604, .tick) == [])
        #expect(try engine.step(606, .tick) == ["A background→suspended"])
    }

    @Test("an app with a background mode stays in the background")
    func backgroundModeStays() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 30, modes: .audio))
        try engine.step(10, .home)
        try engine.step(86_400, .tick)
        #expect(engine.status(of: "A")?.state == .background)
    }

    @Test("tap icon (warm) from suspended and from background: willEnterForeground, didBecomeActive")
    func warmResume() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        try engine.step(10, .launch("M", mib: 30, modes: .audio))
        try engine.step(20, .open("B", mib: 50))
        #expect(engine.status(of: "A")?.state == .suspended)
        #expect(engine.status(of: "M")?.state == .background)
        let fromSuspended = try engine.step(30, .open("A", mib: 40))
        #expect(
            Array(fromSuspended.suffix(4)) == [
                "A willEnterForeground", "A suspended→inactive", "A inactive→active", "A didBecomeActive",
            ])
        let fromBackground = try engine.step(40, .open("M", mib: 30))
        #expect(
            Array(fromBackground.suffix(4)) == [
                "M willEnterForeground", "M background→inactive", "M inactive→active", "M didBecomeActive",
            ])
    }

    @Test("killed while suspended: no notice at all")
    func killedWhileSuspended() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        try engine.step(10, .open("B", mib: 50))
        #expect(try engine.step(20, .userKill(app: "A")) == ["A suspended→notRunning"])
        #expect(engine.status(of: "A")?.footprint == .zero)
    }

    @Test("killed while executing in background: willTerminate")
    func killedWhileInBackground() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("M", mib: 30, modes: .audio))
        try engine.step(10, .open("B", mib: 50))
        #expect(try engine.step(20, .userKill(app: "M")) == ["M willTerminate", "M background→notRunning"])
    }

    @Test("Home with exitsOnSuspend: willResignActive, willTerminate → notRunning")
    func exitsOnSuspend() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("L", mib: 20, exitsOnSuspend: true))
        #expect(
            try engine.step(15, .home) == [
                "L willResignActive", "L active→inactive", "L willTerminate", "L inactive→notRunning",
            ])
        #expect(engine.free == engine.device.usable)
    }

    @Test("a cold relaunch after a kill goes through didFinishLaunching again")
    func coldRelaunch() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        try engine.step(10, .open("B", mib: 50))
        try engine.step(20, .userKill(app: "A"))
        let relaunch = try engine.step(30, .open("A", mib: 40))
        #expect(relaunch.contains("A didFinishLaunching"))
        #expect(!relaunch.contains("A willEnterForeground"))
    }

    @Test("notifications for a suspended app are coalesced and delivered on resume")
    func coalescedNotifications() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        try engine.step(10, .open("B", mib: 50))
        #expect(try engine.step(20, .notify(name: "timeChange")) == ["B notification timeChange×1"])
        try engine.step(21, .notify(name: "timeChange"))
        try engine.step(22, .notify(name: "locale"))
        let resume = try engine.step(30, .open("A", mib: 40))
        #expect(
            Array(resume.suffix(6)) == [
                "A willEnterForeground", "A suspended→inactive", "A notification timeChange×2",
                "A notification locale×1", "A inactive→active", "A didBecomeActive",
            ])
    }

    @Test("impossible transitions are typed errors that change nothing")
    func impossibleTransitions() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 40))
        let before = engine.allApps
        #expect(throws: EngineError.alreadyRunning("A", state: .active)) {
            try engine.apply(.launch("A", mib: 40), at: 1)
        }
        #expect(throws: EngineError.alreadyForeground("A")) { try engine.apply(.open("A", mib: 40), at: 1) }
        #expect(throws: EngineError.unknownApp("Z")) { try engine.apply(.userKill(app: "Z"), at: 1) }
        #expect(throws: EngineError.cannotKillForeground("A")) { try engine.apply(.userKill(app: "A"), at: 1) }
        #expect(throws: EngineError.noInterruption) { try engine.apply(.interruptEnd(answered: false), at: 1) }
        #expect(throws: EngineError.timeWentBackwards(now: 0, given: -1)) { try engine.apply(.tick, at: -1) }
        try engine.step(2, .open("B", mib: 10))
        try engine.step(3, .userKill(app: "A"))
        let afterKill = engine.allApps
        #expect(throws: EngineError.notRunning("A")) { try engine.apply(.allocate("A", mib: 1), at: 4) }
        #expect(throws: EngineError.notRunning("A")) { try engine.apply(.userKill(app: "A"), at: 4) }
        #expect(engine.allApps == afterKill)
        #expect(before.count == 1)
        #expect(engine.takeEvents().isEmpty)
        try engine.step(5, .lock)
        #expect(throws: EngineError.deviceLocked(action: "press Home")) { try engine.apply(.home, at: 6) }
    }
}
