import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

/// Prewarming (`prediction.prewarm`, ``Prewarm``; FALCON's prelaunch, Yan et al. MobiSys 2012;
/// iOS 15's prewarming): after each open, the app not in memory likeliest to be the next open is
/// launched into the background and suspended, when its chance q(a | f) reaches the rule's, free
/// memory stays above its floor and fewer than `unopened` prewarmed apps wait unopened.
@Suite("Prewarming")
struct PrewarmTests {
    /// `predictive` with transitions only (no time of day) and the prewarm rule `rule`.
    static func policy(chance: Double = 0.5, freeAbove: MemoryAmount = .percent(20), unopened: Int = 1) throws -> Policy
    {
        var policy = try Policy.shipped("predictive")
        policy.prediction.timeOfDay = false
        policy.prediction.prewarm = Prewarm(chance: chance, freeAbove: freeAbove, unopened: unopened)
        return policy
    }

    static func engine(_ policy: Policy) -> PressureEngine {
        PressureEngine.scenario(memory: .gibibytes(4), reserved: .zero, policy: policy)
    }

    /// One round of the habit: `mail`, then `maps` (always after mail), then `front`; then the
    /// user closes mail, maps and news from the switcher, so the next round starts with them out
    /// of memory. Returns the events of opening mail and of opening maps.
    @discardableResult
    static func round(_ engine: PressureEngine, at time: Double) throws -> (mail: [String], maps: [String]) {
        let mail = try engine.step(time, .open("mail", mib: 30))
        let maps = try engine.step(time + 10, .open("maps", mib: 40, views: [("map", 8)]))
        try engine.step(time + 20, .open("news", mib: 20))
        try engine.step(time + 30, .open("front", mib: 10))
        for app: AppID in ["maps", "news", "mail"] { try engine.step(time + 40, .userKill(app: app)) }
        return (mail, maps)
    }

    @Test(
        "the app that always followed the one just opened is launched in the background, suspended; opening it is a warm resume"
    )
    func prewarmsTheNextApp() throws {
        let engine = Self.engine(try Self.policy())
        let first = try Self.round(engine, at: 0)
        #expect(!first.mail.contains { $0.hasSuffix("prewarm 40MiB") })
        // Second round: q(maps | mail) = (1 + 3 · 1/4) / (1 + 3) ≈ 0.44 with four apps seen: below 0.5.
        let second = try Self.round(engine, at: 100)
        #expect(!second.mail.contains { $0.contains("prewarm") })
        // Third round: (2 + 3 · 1/4) / (2 + 3) = 0.55.
        let third = try Self.round(engine, at: 200)
        #expect(third.mail.contains("maps prewarm 40MiB"))
        #expect(third.mail.contains("maps notRunning→suspended"))
        #expect(!third.mail.contains("maps didFinishLaunching"))
        #expect(third.maps.contains("maps willEnterForeground") && !third.maps.contains("maps didFinishLaunching"))
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a prewarmed app holds what it last launched with: its footprint, its views offscreen")
    func launchesAsLastLaunched() throws {
        let engine = Self.engine(try Self.policy())
        for time in [0.0, 100] { try Self.round(engine, at: time) }
        try engine.step(200, .open("mail", mib: 30))
        let status = try #require(engine.status(of: "maps"))
        #expect(status.state == .suspended && status.footprint == .mebibytes(40))
        // Its views were loaded offscreen: a warning's purge can drop them.
        #expect(status.viewCaches == .mebibytes(8))
        #expect(engine._invariantViolation() == nil)
        // The prewarm counted no open: an engine that never prewarms (a chance of 1 is never
        // reached) predicts the same for the apps both hold.
        let never = Self.engine(try Self.policy(chance: 1))
        for time in [0.0, 100] { try Self.round(never, at: time) }
        try never.step(200, .open("mail", mib: 30))
        #expect(never.status(of: "maps") == nil || never.status(of: "maps")?.state == .notRunning)
        let front = engine.killOrder(limit: .max).filter { $0.app == "front" }.map(\.reason)
        #expect(!front.isEmpty && front == never.killOrder(limit: .max).filter { $0.app == "front" }.map(\.reason))
    }

    @Test("below the rule's chance nothing is prewarmed; the chance grows with the habit")
    func chanceThreshold() throws {
        // q(maps | mail) over rounds 2, 3, 4, 5: 0.44, 0.55, 0.61, 0.66 (a prior of 3 opens).
        let engine = Self.engine(try Self.policy(chance: 0.6))
        var prewarmedIn: [Int] = []
        for round in 0..<5 where try Self.round(engine, at: Double(round) * 100).mail.contains("maps prewarm 40MiB") {
            prewarmedIn.append(round + 1)
        }
        #expect(prewarmedIn == [4, 5])
    }

    @Test("a prewarm that would leave less free memory than the rule's floor is not made")
    func freeFloor() throws {
        // 4 GiB usable: 99 % leaves 41 MiB, less than maps' 40 MiB plus what the others hold.
        let engine = Self.engine(try Self.policy(freeAbove: .percent(99)))
        for round in 0..<4 {
            #expect(!(try Self.round(engine, at: Double(round) * 100).mail.contains { $0.contains("prewarm") }))
        }
        let roomy = Self.engine(try Self.policy(freeAbove: .bytes(.mebibytes(100))))
        try Self.round(roomy, at: 0)
        try Self.round(roomy, at: 100)
        #expect(try Self.round(roomy, at: 200).mail.contains("maps prewarm 40MiB"))
    }

    @Test("no more prewarmed apps wait unopened than the rule allows")
    func unopenedBound() throws {
        for unopened in [1, 2] {
            // Any chance will do: every app out of memory qualifies.
            let engine = Self.engine(try Self.policy(chance: 0.001, unopened: unopened))
            try Self.round(engine, at: 0)
            let afterMail = try engine.step(100, .open("mail", mib: 30))
            #expect(afterMail.filter { $0.contains(" prewarm ") }.count == 1, "\(unopened)")
            // The user goes elsewhere: maps waits unopened; news is prewarmed only if a second may wait.
            let afterFront = try engine.step(110, .open("front", mib: 10))
            #expect(afterFront.contains { $0.contains(" prewarm ") } == (unopened == 2), "\(unopened)")
            #expect(engine._invariantViolation() == nil)
        }
    }

    @Test("launching a prewarmed app opens it (the user never launched it); a kill ends its wait")
    func launchAndKill() throws {
        let engine = Self.engine(try Self.policy(chance: 0.001))
        try Self.round(engine, at: 0)
        try engine.step(100, .open("mail", mib: 30))
        #expect(engine.status(of: "maps")?.state == .suspended)
        let launched = try engine.step(110, .launch("maps", mib: 40))
        #expect(launched.contains("maps willEnterForeground"))
        // Once opened, it is an app the user runs: launching it again is refused as before.
        #expect(throws: EngineError.self) { try engine.step(120, .launch("maps", mib: 40)) }
        // Killed while it waits unopened, a prewarmed app frees its place for the next prewarm.
        try engine.step(130, .open("front", mib: 10))
        for app: AppID in ["maps", "news", "mail"] where engine.status(of: app)?.state == .suspended {
            try engine.step(140, .userKill(app: app))
        }
        #expect(engine._invariantViolation() == nil)
        #expect(try engine.step(150, .open("mail", mib: 30)).contains { $0.contains(" prewarm ") })
    }

    @Test("the run's metrics count prewarms, the ones opened, and their launch work")
    func metrics() throws {
        let engine = Self.engine(try Self.policy())
        var collector = MetricsCollector(launchCost: .phone)
        var time = 0.0
        for _ in 0..<3 {
            for action: Action in [
                .open("mail", mib: 30), .open("maps", mib: 40, views: [("map", 8)]), .open("news", mib: 20),
                .open("front", mib: 10), .userKill(app: "maps"), .userKill(app: "news"), .userKill(app: "mail"),
            ] {
                collector.noteAction(action)
                try engine.apply(action, at: time)
                for event in engine.takeEvents() { collector.record(event) }
                time += 10
            }
        }
        // In the third round, mail's open prewarms maps (q = 0.55) and maps' open prewarms news
        // (q(news | maps) = 0.55); the user opens both.
        let metrics = collector.metrics
        #expect(metrics.prewarms == 2 && metrics.prewarmsOpened == 2)
        #expect(metrics.bytesPrewarmed == Bytes.mebibytes(60).value)
        let cost = LaunchCost.phone
        #expect(metrics.prewarmSeconds == cost.cold(footprint: .mebibytes(40)) + cost.cold(footprint: .mebibytes(20)))
        // front resumes warm in rounds 2 and 3; of the others only mail launches cold in round 3.
        #expect(metrics.warmResumes == 4 && metrics.coldLaunches == 8)
        // User kills are not the engine's: nothing counts as a cold relaunch.
        #expect(metrics.coldRelaunches == 0)
    }

    @Test("the rule needs a predictedReuse band; its ranges are checked; it survives YAML both ways")
    func policyData() throws {
        var plain = try Policy.shipped("ios4")
        plain.prediction.prewarm = Prewarm(chance: 0.5, freeAbove: .percent(20), unopened: 1)
        #expect(plain.problems.map(\.path) == ["prediction.prewarm"])
        var policy = try Self.policy()
        #expect(policy.problems.isEmpty)
        policy.prediction.prewarm = Prewarm(chance: 0, freeAbove: .percent(120), unopened: 0)
        #expect(
            Set(policy.problems.map(\.path))
                == ["prediction.prewarm.chance", "prediction.prewarm.unopened", "prediction.prewarm.freeAbove"])
        let valid = try Self.policy(chance: 0.35, freeAbove: .percent(20), unopened: 2)
        let shown = try Policy(yaml: PolicyYAML.render(valid), file: "shown.yaml")
        #expect(shown.prediction.prewarm == valid.prediction.prewarm)
        let path = PackagePaths.path("Examples/policies/predictive-prewarm.yaml")
        let file = try Policy(yaml: try String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(file.name == "predictive-prewarm" && file.prediction.prewarm != nil && file.problems.isEmpty)
        for (text, message) in [
            ("{ chance: 2, freeAbove: 20%, unopened: 1 }", "chance"),
            ("{ chance: 0.5, freeAbove: 20%, unopened: 1, later: true }", "later"),
            ("{ chance: 0.5, unopened: 1 }", "freeAbove"),
        ] {
            let yaml = PolicyYAML.render(try Policy.shipped("predictive")).replacingOccurrences(
                of: "horizon: 5 }", with: "horizon: 5, prewarm: \(text) }")
            #expect {
                try Policy(yaml: yaml, file: "bad.yaml")
            } throws: { error in
                "\(error)".contains("prediction.prewarm") && "\(error)".contains(message)
            }
        }
    }
}
