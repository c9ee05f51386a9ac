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
}
