import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// The default device: 512 MiB with 96 MiB reserved, so 416 MiB usable. Under ios4, level 1 starts
// below 62.4 MiB free (cleared above 83.2), level 2 below 41.6 (cleared above 62.4), critical below
// 20.8 (cleared above 41.6); kills restore 62.4 MiB.

@Suite("Warnings, purges and kills (docs/DESIGN.md, Memory)")
struct PressureTests {
    @Test("warnings reach the running apps and never suspended ones")
    func warningsReachRunningAppsOnly() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("S", mib: 100))
        try engine.step(1, .open("M", mib: 30, modes: .audio))
        try engine.step(2, .open("F", mib: 200))
        let events = try engine.step(3, .allocate("F", mib: 30))
        #expect(events.first == "level normal→warning")
        #expect(events.contains("F warning 1"))
        #expect(events.contains("M warning 1"))
        #expect(!events.contains { $0.hasPrefix("S ") })
        #expect(events.firstIndex(of: "F warning 1")! < events.firstIndex(of: "M warning 1")!)
    }

    @Test("offscreen views are released on a warning, onscreen views never; a released view reloads when shown")
    func offscreenViewsReleasedAndReloaded() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 330, views: [("page", 8), ("tabs", 6), ("history", 4)]))
        let events = try engine.step(1, .allocate("F", mib: 30))
        #expect(
            events == [
                "level normal→warning", "F warning 1",
                "F view page didReceiveMemoryWarning",
                "F view tabs didReceiveMemoryWarning", "F view tabs viewDidUnload",
                "F view history didReceiveMemoryWarning", "F view history viewDidUnload",
                "F purge offscreenViews 10MiB",
            ])
        let views = try #require(engine.status(of: "F")).views
        #expect(views.map(\.isLoaded) == [true, false, false])
        #expect(try #require(engine.status(of: "F")).footprint == .mebibytes(350))
        let show = try engine.step(2, .showView(app: "F", view: "tabs", bytes: nil))
        #expect(show == ["F view tabs viewDidLoad"])
        #expect(try #require(engine.status(of: "F")).footprint == .mebibytes(356))
        #expect(try engine.step(3, .showView(app: "F", view: "page", bytes: nil)) == [])
        #expect(engine._invariantViolation() == nil)
    }

    @Test("purgeable caches are released on a warning")
    func purgeableCachesReleased() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 350, purgeableMiB: 12))
        let events = try engine.step(1, .allocate("F", mib: 10))
        #expect(events == ["level normal→warning", "F warning 1", "F purge purgeableCaches 12MiB"])
    }

    @Test("the system drops suspended apps' offscreen views at level 2, with no callback")
    func systemPurgeOfSuspendedApps() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("S", mib: 100, views: [("main", 4), ("settings", 10)]))
        try engine.step(1, .open("F", mib: 230))
        let events = try engine.step(2, .allocate("F", mib: 50))
        #expect(events.contains("S purge suspendedOffscreenViews 10MiB"))
        #expect(!events.contains { $0.hasPrefix("S view") || $0.hasPrefix("S warning") })
    }

    @Test("the heaviest suspended app dies first, with no notice")
    func heaviestSuspendedFirst() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("S1", mib: 60))
        try engine.step(1, .open("S2", mib: 120))
        try engine.step(2, .open("S3", mib: 90))
        try engine.step(3, .open("F", mib: 100))
        let events = try engine.step(4, .allocate("F", mib: 10))
        let kills = events.filter { $0.contains(" kill ") }
        #expect(kills == ["S2 kill suspended none 120MiB"])
        #expect(events.contains("S2 suspended→notRunning"))
        #expect(!events.contains("S2 willTerminate"))
    }

    @Test("background-running apps are killed after suspended ones, and get willTerminate")
    func backgroundAppsAfterSuspendedWithNotice() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("M", mib: 150, modes: .audio))
        try engine.step(1, .open("S", mib: 20))
        try engine.step(2, .open("F", mib: 200))
        let events = try engine.step(3, .allocate("F", mib: 30))
        let kills = events.filter { $0.contains(" kill ") }
        #expect(kills == ["S kill suspended none 20MiB", "M kill background willTerminate 150MiB"])
        let kill = try #require(events.firstIndex(of: "M kill background willTerminate 150MiB"))
        #expect(events[kill + 1] == "M willTerminate")
        #expect(events[kill + 2] == "M background→notRunning")
    }

    @Test("the foreground app survives while it has not ignored both warnings")
    func foregroundSurvivesWhileComplying() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 300))
        let events = try engine.step(1, .allocate("F", mib: 110))
        #expect(events.contains("level urgent→critical"))
        #expect(!events.contains { $0.contains(" kill ") })
        #expect(engine.status(of: "F")?.state == .active)
        #expect(engine.level == .critical)
    }

    @Test("the foreground app that ignored both warnings dies last, after everything else")
    func foregroundDiesLastAfterIgnoringWarnings() throws {
        let engine = PressureEngine.scenario(memory: .mebibytes(256), reserved: .mebibytes(56))
        try engine.step(0, .launch("N", mib: 20))
        try engine.step(10, .open("V", mib: 120, ignoresWarnings: true))
        let first = try engine.step(20, .allocate("V", mib: 31))
        #expect(first == ["level normal→warning", "V warning 1"])
        let second = try engine.step(30, .allocate("V", mib: 25))
        let kills = second.filter { $0.contains(" kill ") }
        #expect(kills == ["N kill suspended none 20MiB", "V kill active none 176MiB"])
        #expect(engine.foregroundApp == nil)
        #expect(engine.level == .normal)
    }

    @Test("an ignoring foreground app is not killed while a suspended app can be")
    func ignoringForegroundSparedWhileOthersKillable() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("S", mib: 100))
        try engine.step(1, .open("F", mib: 250, ignoresWarnings: true))
        let events = try engine.step(2, .allocate("F", mib: 50))
        #expect(events.filter { $0.contains(" kill ") } == ["S kill suspended none 100MiB"])
        #expect(engine.status(of: "F")?.state == .active)
    }

    @Test("kills stop as soon as free memory is back at the target")
    func killsStopAtTarget() throws {
        let engine = PressureEngine.scenario()
        for index in 0..<10 {
            try engine.step(Double(index), .open(AppID("S\(index)"), mib: 10))
        }
        try engine.step(10, .open("F", mib: 250))
        let target = Int64((Double(engine.device.usable.value) * 0.15).rounded())
        let events = try engine.step(11, .allocate("F", mib: 60))
        let kills = events.filter { $0.contains(" kill ") }
        // 416 − 350 = 66 MiB free before; the allocation leaves 6 MiB free: six 10 MiB kills reach
        // 66 MiB ≥ 62.4 MiB, five would not.
        #expect(kills.count == 6)
        #expect(engine.free.value >= target)
        #expect(engine.free.value - Int64(10 << 20) < target)
        // Ties on size go to the app that appeared first.
        #expect(kills.first == "S0 kill suspended none 10MiB")
    }

    @Test("levels have hysteresis: a level is left only above its clear threshold")
    func hysteresis() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 300))
        try engine.step(1, .allocate("F", mib: 60))  // 56 MiB free: warning
        #expect(engine.level == .warning)
        try engine.step(2, .free(app: "F", bytes: .mebibytes(14), purgeable: false))  // 70 MiB: still warning
        #expect(engine.level == .warning)
        let events = try engine.step(3, .free(app: "F", bytes: .mebibytes(20), purgeable: false))  // 90 MiB
        #expect(events == ["level warning→normal"])
        #expect(engine.level == .normal)
    }

    @Test("app delegates, observers and view-controller delegates can release more or ignore")
    func delegatesAndObservers() throws {
        final class Recorder: ApplicationDelegate, ViewControllerDelegate {
            var calls: [String] = []
            func applicationDidFinishLaunching(_ app: AppID) { calls.append("launched") }
            func applicationDidReceiveMemoryWarning(_ app: AppID, level: Int) -> MemoryWarningResponse {
                calls.append("warning \(level)")
                return .releaseMore(.mebibytes(5))
            }
            func didReceiveMemoryWarning(_ view: String, of app: AppID, level: Int) -> MemoryWarningResponse {
                calls.append("view \(view)")
                return .ignore
            }
            func viewDidUnload(_ view: String, of app: AppID) { calls.append("unloaded \(view)") }
        }
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("F", mib: 330, views: [("page", 8), ("keep", 6), ("drop", 4)]))
        let recorder = Recorder()
        try engine.setDelegate(recorder, for: "F")
        try engine.setViewControllerDelegate(recorder, for: "keep", of: "F")
        var observed: [Int] = []
        let token = try engine.addMemoryWarningObserver(for: "F") { level in
            observed.append(level)
            return .releaseMore(.mebibytes(2))
        }
        let events = try engine.step(1, .allocate("F", mib: 30))
        #expect(recorder.calls == ["warning 1", "view keep"])
        #expect(observed == [1])
        #expect(events.contains("F view drop viewDidUnload"))
        #expect(!events.contains("F view keep viewDidUnload"))
        #expect(events.contains("F purge offscreenViews 4MiB"))
        #expect(events.contains("F purge handlerReleased 7MiB"))
        engine.removeObserver(token)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("the kill order is read without changing the engine")
    func killOrderReport() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("A", mib: 60))
        try engine.step(1, .open("B", mib: 120))
        try engine.step(2, .open("M", mib: 30, modes: .voip))
        try engine.step(3, .open("F", mib: 40))
        let order = engine.killOrder(limit: 10)
        #expect(order.map(\.app) == ["B", "A", "M", "F"])
        #expect(order.map(\.rank) == [1, 2, 3, 4])
        #expect(order.map(\.notice) == [.none, .none, .willTerminate, .none])
        #expect(order[0].reason == "heaviest suspended app")
        #expect(engine.killOrder(limit: 2).map(\.app) == ["B", "A"])
        #expect(engine.killOrder(limit: 10) == order)
    }
}

@Suite("Levels a policy does not use")
struct UnusedLevelTests {
    @Test("a policy with only a critical level goes straight from normal to critical and back")
    func onlyCritical() throws {
        let engine = PressureEngine.scenario(
            memory: .mebibytes(256), reserved: .mebibytes(56), policy: try .shipped("linux-oom"))
        try engine.step(0, .launch("A", mib: 150))
        // 200 MiB usable; linux-oom enters critical below 1 % (2 MiB) free and kills.
        let events = try engine.step(1, .allocate("A", mib: 49))
        #expect(events.first == "level normal→critical")
        #expect(!events.contains { $0.hasPrefix("level normal→warning") || $0.contains("→urgent") })
        #expect(events.contains("A kill active none 199MiB"))
        #expect(events.last == "level critical→normal")
    }
}
