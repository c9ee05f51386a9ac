import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// Apps that declare a background mode stay in the background only while they use it (docs/DESIGN.md,
/// "The app lifecycle": "Apps that declare a background mode stay in background while they use
/// it"). Apple's iOS 4 "Executing Code in the Background" (iOS Application Programming Guide):
/// an audio app keeps running while it plays; when playback stops, it is suspended like any other.
@Suite("Background modes in use")
struct BackgroundModeUseTests {
    @Test("a launch uses every declared mode; stopping playback in the background suspends the app at once")
    func stoppingSuspends() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("M", mib: 30, modes: .audio))
        try engine.step(10, .home)
        #expect(engine.status(of: "M")?.state == .background)
        #expect(try engine.step(20, .useBackgroundModes(app: "M", modes: [])) == ["M background→suspended"])
    }

    @Test("an app that does not play is suspended when it leaves the foreground")
    func notPlayingSuspendsOnHome() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("M", mib: 30, modes: .audio))
        #expect(try engine.step(1, .useBackgroundModes(app: "M", modes: [])).isEmpty)
        let events = try engine.step(10, .home)
        #expect(events.last == "M background→suspended")
    }

    @Test("starting to use a mode again keeps the app running in the background")
    func resumingUse() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("M", mib: 30, modes: .audio))
        try engine.step(1, .useBackgroundModes(app: "M", modes: []))
        try engine.step(2, .useBackgroundModes(app: "M", modes: .audio))
        try engine.step(10, .home)
        #expect(engine.status(of: "M")?.state == .background)
    }

    @Test("a background task outlives the end of playback; the app is suspended when both are over")
    func taskKeepsRunning() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("M", mib: 30, modes: .audio))
        try engine.step(1, .beginBackgroundTask(app: "M", seconds: 100))
        try engine.step(10, .home)
        #expect(try engine.step(20, .useBackgroundModes(app: "M", modes: [])).isEmpty)
        try engine.step(200, .tick)
        #expect(engine.status(of: "M")?.state == .suspended)
    }

    @Test("using a mode the app did not declare, or a suspended app, is refused and changes nothing")
    func refused() throws {
        let engine = PressureEngine.scenario()
        try engine.step(0, .launch("M", mib: 30, modes: .audio))
        #expect(throws: EngineError.undeclaredBackgroundMode("M", used: .location, declared: .audio)) {
            try engine.apply(.useBackgroundModes(app: "M", modes: .location), at: 1)
        }
        try engine.step(2, .useBackgroundModes(app: "M", modes: []))
        try engine.step(3, .home)
        #expect(throws: EngineError.notRunning("M")) {
            try engine.apply(.useBackgroundModes(app: "M", modes: .audio), at: 4)
        }
        #expect(engine.status(of: "M")?.state == .suspended)
    }

    @Test("jetsam bands by the mode in use: a player that stops leaves the audio band for the idle band")
    func bandFollowsUse() throws {
        // jetsam.yaml: background audio apps in their own band (JETSAM_PRIORITY_AUDIO_AND_ACCESSORY,
        // bsd/sys/kern_memorystatus.h), killed after idle apps.
        let engine = PressureEngine.scenario(policy: try .shipped("jetsam"))
        try engine.step(0, .launch("M", mib: 30, modes: .audio))
        try engine.step(1, .home)
        try engine.step(2, .launch("I", mib: 30))
        try engine.step(3, .home)
        let playing = engine.killOrder(limit: 2).map(\.app)
        #expect(playing == ["I", "M"])
        try engine.step(4, .useBackgroundModes(app: "M", modes: []))
        let stopped = engine.killOrder(limit: 2)
        #expect(Set(stopped.map(\.app)) == ["I", "M"])
        #expect(stopped.allSatisfy { $0.state == .suspended })
        #expect(stopped.map(\.band).allSatisfy { $0 == stopped[0].band })
    }

    /// A policy whose bands tell background apps apart by the mode they use: navigation and calls
    /// go before music.
    static let byMode = """
        name: by-mode
        thresholds:
          urgent: { enter: 10%, clear: 15% }
        kill: { startLevel: urgent, target: 15% }
        bands:
          - name: suspended
            match: { states: [suspended] }
            reason: heaviest suspended app
          - name: navigating-or-calling
            match: { states: [background], backgroundModes: [location, voip] }
            reason: heaviest app navigating or on a call
          - name: playing
            match: { states: [background], backgroundModes: [audio] }
            reason: heaviest app playing audio
        """

    @Test("a band matches the modes an app uses: its band changes when it stops using one of them")
    func bandsByMode() throws {
        let policy = try Policy(yaml: Self.byMode, file: "by-mode.yaml")
        #expect(policy.bands.map { $0.matches.first?.backgroundModes } == [nil, [.location, .voip], [.audio]])
        // Written out (defaults resolved) and read back, the modes stay.
        let shown = try Policy(yaml: PolicyYAML.render(policy), file: "shown.yaml")
        #expect(shown.bands.map { $0.matches.first?.backgroundModes } == [nil, [.location, .voip], [.audio]])
        #expect(PolicyYAML.render(shown) == PolicyYAML.render(policy))
        let engine = PressureEngine.scenario(policy: policy)
        try engine.step(0, .launch("Music", mib: 30, modes: .audio))
        try engine.step(1, .launch("Maps", mib: 20, modes: [.location, .audio]))
        try engine.step(2, .launch("Mail", mib: 10))
        try engine.step(3, .home)
        // Maps uses both modes, so the first band that matches takes it.
        #expect(engine.killOrder(limit: 3).map(\.band) == ["suspended", "navigating-or-calling", "playing"])
        #expect(engine.killOrder(limit: 3).map(\.app) == ["Mail", "Maps", "Music"])
        // Maps stops navigating and keeps playing: it is a player now, and the heavier player goes first.
        try engine.step(4, .useBackgroundModes(app: "Maps", modes: .audio))
        #expect(engine.killOrder(limit: 3).map(\.band) == ["suspended", "playing", "playing"])
        #expect(engine.killOrder(limit: 3).map(\.app) == ["Mail", "Music", "Maps"])
        // An app running in the background with no mode a band names is protected.
        try engine.step(5, .useBackgroundModes(app: "Music", modes: []))
        try engine.step(6, .beginBackgroundTask(app: "Maps", seconds: 100))
        try engine.step(7, .useBackgroundModes(app: "Maps", modes: []))
        #expect(engine.status(of: "Maps")?.state == .background)
        #expect(engine.protectedApps().map(\.app) == ["Maps"])
    }

    @Test("a band's modes must be known and not empty")
    func bandModesRefused() {
        for (modes, message) in [
            ("[radio]", "key \"backgroundModes\": expected audio, location or voip, found \"radio\""),
            ("[]", "key \"backgroundModes\": expected at least one mode"),
        ] {
            let text = Self.byMode.replacingOccurrences(
                of: "backgroundModes: [audio]", with: "backgroundModes: \(modes)")
            do {
                _ = try Policy(yaml: text, file: "by-mode.yaml")
                Issue.record("accepted backgroundModes: \(modes)")
            } catch {
                #expect(error.problems.map(\.message).contains { $0.contains(message) }, "\(error.problems)")
                #expect(error.problems.first?.line == 13)
            }
        }
    }
}
