import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// The `predictedReuse` order of `predictive.yaml` (ReusePrediction, PressureEngine+ReusePrediction):
/// the victim is the app with the least (cold − warm seconds) / (expected opens until reuse × bytes),
/// the expected opens predicted from frequency, the hours of the clock ahead and the app opened last.
@Suite("Predicted-reuse order")
struct PredictedReuseTests {
    /// The shipped policy with the prediction model changed by `change`.
    static func policy(_ change: (inout ReusePrediction) -> Void = { _ in }) throws -> Policy {
        var policy = try Policy.shipped("predictive")
        change(&policy.prediction)
        return policy
    }

    static func engine(_ policy: Policy) -> PressureEngine {
        PressureEngine.scenario(memory: .gibibytes(4), reserved: .zero, policy: policy)
    }

    static let hour = 3600.0
    static let day = 86_400.0

    /// Three days on which `morning` is used at 08:00 and `evening` at 20:00, then, on the fourth
    /// day at 06:00, both reopened once (in that order) and `front` opened: both suspended, of one
    /// size, with four opens each.
    static func habits(_ engine: PressureEngine, mib: Int64 = 40) throws {
        for day in 0..<3 {
            let start = Double(day) * Self.day
            try engine.step(start + 8 * hour, .open("morning", mib: mib))
            try engine.step(start + 20 * hour, .open("evening", mib: mib))
        }
        try engine.step(3 * day + 6 * hour, .open("morning", mib: mib))
        try engine.step(3 * day + 6 * hour + 60, .open("evening", mib: mib))
        try engine.step(3 * day + 6 * hour + 120, .open("front", mib: 10))
    }

    @Test("without time of day or transitions, of two apps of one size the one opened less often goes first")
    func frequency() throws {
        let engine = Self.engine(
            try Self.policy {
                $0.timeOfDay = false
                $0.transitions = false
            })
        var time = 0.0
        for _ in 0..<5 {
            try engine.step(time, .open("often", mib: 40))
            try engine.step(time + 10, .open("front", mib: 10))
            time += 60
        }
        try engine.step(time, .open("once", mib: 40))
        try engine.step(time + 10, .open("front", mib: 10))
        #expect(engine.killOrder(limit: 2).map(\.app) == ["once", "often"])
    }

    @Test("with a horizon, two apps the user is sure to reopen soon are told apart by size and cost, not popularity")
    func horizon() throws {
        // `big` (400 MiB) is opened 8 times, `small` (40 MiB) 3 times, `front` after each: shares
        // of the 22 opens p(big) = 8 / 22.5 = 0.36 and p(small) = 3 / 22.5 = 0.13 (the half open
        // an unseen app counts is in the total). Relaunch costs beyond a warm resume: big 0.8 +
        // 400 × 0.025 − 0.3 = 10.5 s, small 1.5 s.
        func firstVictim(horizon: Double?) throws -> (app: AppID, reason: String) {
            let engine = Self.engine(
                try Self.policy {
                    $0.timeOfDay = false
                    $0.transitions = false
                    $0.horizon = horizon
                })
            var time = 0.0
            for app in ["big", "small", "big", "big", "small", "big", "big", "small", "big", "big", "big"] {
                try engine.step(time, .open(AppID(app), mib: app == "big" ? 400 : 40))
                try engine.step(time + 10, .open("front", mib: 10))
                time += 60
            }
            let first = try #require(engine.killOrder(limit: 1).first)
            return (first.app, first.reason)
        }
        // Loss per byte = cost / (expected opens until reuse × bytes), the opens 1 / p: big 10.5 /
        // (2.8 × 400) = 0.0094 s per MiB, small 1.5 / (7.5 × 40) = 0.0050: the popular big app stays.
        #expect(try firstVictim(horizon: nil).app == "small")
        // Within 20 opens both are nearly sure to be reopened, 1 − (1 − p)^20 = 1.00 and 0.94: loss
        // per byte = cost × chance / bytes, big 0.026, small 0.035: big frees the most per second
        // of relaunch, and goes.
        let withHorizon = try firstVictim(horizon: 20)
        #expect(withHorizon.app == "big")
        #expect(withHorizon.reason.contains("reopened within 20 opens "), "\(withHorizon.reason)")
        // A horizon of one open is the chance of being the very next open, p: popularity decides
        // again (0.0093 against 0.0050).
        #expect(try firstVictim(horizon: 1).app == "small")
    }

    @Test("of two apps opened alike, the larger goes first: it frees more per second of relaunch")
    func costPerByte() throws {
        let engine = Self.engine(try Self.policy())
        try engine.step(0, .open("small", mib: 10))
        try engine.step(1, .open("large", mib: 200))
        try engine.step(2, .open("front", mib: 10))
        #expect(engine.killOrder(limit: 1).first?.app == "large")
    }

    @Test("time of day (FALCON): in the morning the evening app goes first, in the evening the morning one")
    func timeOfDay() throws {
        let engine = Self.engine(try Self.policy { $0.transitions = false })
        try Self.habits(engine)
        // 06:00 on day 4: the next three hours held `morning`'s opens on every earlier day.
        #expect(engine.killOrder(limit: 2).map(\.app) == ["evening", "morning"])
        let reason = try #require(engine.killOrder(limit: 1).first?.reason)
        #expect(reason.hasPrefix("suspended app least likely to be reopened soon per byte (next open "))
        #expect(reason.contains("opens until reuse") && reason.contains("relaunch costs 1.5 s"))
        // The clock alone moves the keys (no open in between): at 18:00 the next hours are `evening`'s.
        try engine.step(3 * Self.day + 18 * Self.hour, .tick)
        #expect(engine.killOrder(limit: 2).map(\.app) == ["morning", "evening"])
        // Without the signal, the two are alike but for recency: `evening` was opened last, so it stays.
        let flat = Self.engine(
            try Self.policy {
                $0.transitions = false
                $0.timeOfDay = false
            })
        try Self.habits(flat)
        try flat.step(3 * Self.day + 7 * Self.hour, .tick)
        #expect(flat.killOrder(limit: 2).map(\.app) == ["morning", "evening"])
        try flat.step(3 * Self.day + 18 * Self.hour, .tick)
        #expect(flat.killOrder(limit: 2).map(\.app) == ["morning", "evening"])
    }

    @Test("kills re-score the band first: the victim is the one the clock's prediction says, not the last key")
    func killsRescore() throws {
        let engine = Self.engine(try Self.policy { $0.transitions = false })
        try Self.habits(engine, mib: 400)
        #expect(engine.killOrder(limit: 1).first?.app == "evening")  // keys computed at 06:00
        // At 18:00 the front app grows until kills start (jetsam's rule: critical, below 5 % free
        // of 4 GiB, 204.8 MiB); one kill of 400 MiB brings free memory back above the 5 % target.
        let grow = engine.free.value - Bytes.mebibytes(180).value
        let events = try engine.step(
            3 * Self.day + 18 * Self.hour, .allocate(app: "front", bytes: Bytes(grow), purgeable: false))
        let kills = events.filter { $0.contains(" kill ") }
        #expect(kills.count == 1)
        #expect(kills.first?.hasPrefix("morning kill") == true, "\(kills)")
    }

    @Test("transitions (PREPP): the app that usually follows the one opened last stays")
    func transitions() throws {
        func order(_ transitions: Bool) throws -> [AppID] {
            let engine = Self.engine(
                try Self.policy {
                    $0.timeOfDay = false
                    $0.transitions = transitions
                })
            var time = 0.0
            // calendar → mail → maps → news, five times: each app opened five times.
            for _ in 0..<5 {
                for app in ["calendar", "mail", "maps", "news"] {
                    try engine.step(time, .open(AppID(app), mib: 40))
                    time += 60
                }
            }
            try engine.step(time, .open("calendar", mib: 40))
            return engine.killOrder(limit: 3).map(\.app)
        }
        // After calendar, mail has always come next: it is kept. Without transitions, the least
        // recently opened of equals (mail, the earliest of the last round) goes first.
        #expect(try order(true).last == "mail")
        #expect(try order(false).first == "mail")
    }

    @Test("the lifecycle promises of ios4 hold: suspended before background, the foreground last")
    func lifecycle() throws {
        let engine = Self.engine(try Self.policy())
        try engine.step(0, .open("player", mib: 20, modes: .audio))
        try engine.step(1, .open("idle", mib: 20))
        try engine.step(2, .open("front", mib: 20))
        let order = engine.killOrder(limit: 3)
        #expect(order.map(\.app) == ["idle", "player", "front"])
        #expect(order.map(\.state) == [.suspended, .background, .active])
    }

    @Test("a reclaimed record's slot starts with no history: a new app in it is not the old one")
    func reclaimedSlot() throws {
        let engine = Self.engine(
            try Self.policy {
                $0.timeOfDay = false
                $0.transitions = false
            })
        engine.retainsEndedApps = false
        for step in 0..<6 {
            try engine.step(Double(step) * 10, .open("busy", mib: 40))
            try engine.step(Double(step) * 10 + 5, .open("front", mib: 10))
        }
        try engine.step(100, .userKill(app: "busy"))
        try engine.step(110, .open("fresh", mib: 40))
        try engine.step(120, .open("other", mib: 40))
        try engine.step(130, .open("front", mib: 10))
        // fresh and other were each opened once, so they are alike but for recency; had fresh
        // inherited busy's six opens, other would go first.
        let order = engine.killOrder(limit: 2)
        #expect(order.map(\.app) == ["fresh", "other"])
        let expected = order.map { $0.reason.split(separator: "opens until reuse ").last?.prefix(while: { $0 != "," }) }
        #expect(expected[0] != nil && expected[0] == expected[1], "\(order.map(\.reason))")
        #expect(engine._invariantViolation() == nil)
    }

    @Test("the sequence model stays bounded: a row keeps 32 successors, and a reclaimed app leaves no entry")
    func boundedTransitions() throws {
        let engine = Self.engine(try Self.policy { $0.timeOfDay = false })
        engine.retainsEndedApps = false
        var time = 0.0
        // hub, then 100 different apps, each followed by hub again: hub's row would hold 100.
        for app in 0..<100 {
            try engine.step(time, .open("hub", mib: 1))
            try engine.step(time + 1, .open(AppID("app-\(app)"), mib: 1))
            time += 2
        }
        #expect(engine._invariantViolation() == nil)
        // Ending apps reclaims their records (and their transitions, both ways).
        for app in 0..<50 { try engine.step(time, .userKill(app: AppID("app-\(app)"))) }
        try engine.step(time + 1, .open("hub", mib: 1))
        for app in 100..<140 {
            try engine.step(time + 2, .open(AppID("app-\(app)"), mib: 1))
            try engine.step(time + 3, .open("hub", mib: 1))
            time += 2
        }
        #expect(engine._invariantViolation() == nil)
    }

    @Test("policy files set the prediction model; every key optional, each range checked, written back by policy show")
    func policyFiles() throws {
        let text = try #require(Policy.shippedSource("predictive"))
        let custom = text.replacingOccurrences(
            of:
                "prediction: { halfLife: 604800, prior: 3, timeOfDay: true, hoursAhead: 3, transitions: true, horizon: 5 }",
            with: "prediction: { hoursAhead: 6, transitions: false }")
        #expect(custom != text)
        let loaded = try Policy(yaml: custom, file: "custom.yaml").prediction
        #expect(loaded.hoursAhead == 6 && !loaded.transitions && loaded.halfLife == 604_800 && loaded.prior == 3)
        #expect(loaded.horizon == nil, "without the key, the expected opens until reuse price a kill")
        #expect(try Policy.shipped("predictive").prediction.horizon == 5)
        for (bad, message) in [
            ("hoursAhead: 25", "prediction.hoursAhead"), ("halfLife: 1", "prediction.halfLife"),
            ("prior: -1", "prediction.prior"), ("timeOfDay: 3", "prediction.timeOfDay"), ("colour: 1", "colour"),
            ("horizon: 0.5", "prediction.horizon"), ("horizon: 1001", "prediction.horizon"),
        ] {
            let broken = text.replacingOccurrences(of: "hoursAhead: 3, transitions: true, horizon: 5", with: bad)
            #expect(throws: PolicyErrors.self, "\(bad)") { try Policy(yaml: broken, file: "bad.yaml") }
            do {
                _ = try Policy(yaml: broken, file: "bad.yaml")
            } catch {
                #expect(error.problems.first.map { "\($0)".contains(message) } == true, "\(error)")
            }
        }
        let shipped = try Policy.shipped("predictive")
        let shown = try Policy(yaml: PolicyYAML.render(shipped), file: "show.yaml")
        #expect(shown.prediction == shipped.prediction && shown.relaunch == shipped.relaunch)
    }
}

/// How `predictedReuse` prices a relaunch: at the size the app launched with, while the bytes a
/// kill frees are its size now.
@Suite("Predicted-reuse pricing")
struct PredictedReusePricingTests {
    @Test("an app that grew since its launch is cheaper to lose per byte than one launched at that size")
    func launchSize() throws {
        var policy = try Policy.shipped("predictive")
        policy.prediction.timeOfDay = false
        policy.prediction.transitions = false
        let engine = PressureEngine.scenario(memory: .gibibytes(4), reserved: .zero, policy: policy)
        try engine.step(0, .open("grown", mib: 20))
        try engine.step(1, .allocate("grown", mib: 80))  // 100 MiB now, a relaunch loads 20
        try engine.step(2, .open("big", mib: 100))  // 100 MiB, and a relaunch loads 100
        try engine.step(3, .open("front", mib: 10))
        // Both free 100 MiB and were opened once; relaunching grown costs 0.8 + 0.5 − 0.3 = 1 s,
        // big 0.8 + 2.5 − 0.3 = 3 s: grown goes first (big was also opened later).
        let order = engine.killOrder(limit: 2)
        #expect(order.map(\.app) == ["grown", "big"])
        #expect(order.first?.reason.contains("relaunch costs 1 s") == true, "\(order.map(\.reason))")
    }
}

/// The prediction's `killInsteadOfCompressingAbove`: reclaim kills an app unlikely to be reopened
/// soon instead of compressing it.
@Suite("Predicted reuse: kill instead of compressing")
struct KillInsteadOfCompressingTests {
    /// CompressionTests' compressor (reclaim below 100 MiB free, up to 150 MiB) with its band
    /// ordered by predicted reuse (frequency only) and the switch at `limit` opens.
    static func policy(limit: Double?) throws -> Policy {
        var policy = try CompressionTests.policy()
        for index in policy.bands.indices { policy.bands[index].order = .predictedReuse }
        policy.prediction.timeOfDay = false
        policy.prediction.transitions = false
        policy.prediction.killInsteadOfCompressingAbove = limit
        return policy
    }

    /// A opened once, then B and C five times each (100 MiB each), C in front: 100 MiB free; C
    /// then grows by 20 MiB, so reclaim starts with A, the least recently used.
    static func run(_ policy: Policy) throws -> [Event] {
        let engine = CompressionTests.engine(policy)
        try engine.apply(.open(AppLaunch(id: "A", footprint: .mebibytes(100))), at: 0)
        var time = 1.0
        for _ in 0..<5 {
            for id in ["B", "C"] {
                try engine.apply(.open(AppLaunch(id: AppID(id), footprint: .mebibytes(100))), at: time)
                time += 1
            }
        }
        _ = engine.takeEvents()
        try engine.apply(.allocate(app: "C", bytes: .mebibytes(20), purgeable: false), at: time)
        #expect(engine._invariantViolation() == nil)
        return engine.takeEvents()
    }

    @Test("above the limit (A: 11 expected opens until reuse, limit 5) reclaim kills A; B is not touched")
    func killsUnlikely() throws {
        let events = try Self.run(try Self.policy(limit: 5))
        let kills = events.compactMap { event -> (AppID, String)? in
            if case .kill(let app, _, let reason, _, _) = event.kind { return (app, reason) }
            return nil
        }
        #expect(kills.map(\.0) == ["A"])
        #expect(kills.first?.1.hasPrefix(ReusePrediction.killInsteadOfCompressingReason + ": ") == true)
        #expect(!events.contains { if case .compress = $0.kind { return true } else { return false } })
    }

    @Test("without the switch, or with a limit above A's, reclaim compresses A and B as before")
    func compressesOtherwise() throws {
        for limit in [nil, 50.0] {
            let events = try Self.run(try Self.policy(limit: limit))
            let compressed = events.compactMap { event -> AppID? in
                if case .compress(let app, _, _, _, _) = event.kind { return app }
                return nil
            }
            #expect(compressed == ["A", "B"], "limit \(String(describing: limit))")
            #expect(!events.contains { if case .kill = $0.kind { return true } else { return false } })
        }
    }

    @Test("the switch needs compression and a predictedReuse band; its range is checked")
    func validation() throws {
        var plain = try Policy.shipped("predictive")
        plain.prediction.killInsteadOfCompressingAbove = 10
        #expect(plain.problems.map(\.path) == ["prediction.killInsteadOfCompressingAbove"])
        var out = try Self.policy(limit: 0.5)
        #expect(out.problems.map(\.path) == ["prediction.killInsteadOfCompressingAbove"])
        out.prediction.killInsteadOfCompressingAbove = 10
        #expect(out.problems.isEmpty)
        for file in ["jetsam-compressor-predicted", "jetsam-compressor-kill-unlikely"] {
            let path = PackagePaths.path("Examples/policies/\(file).yaml")
            let policy = try Policy(yaml: try String(contentsOfFile: path, encoding: .utf8), file: path)
            #expect(policy.name == file && policy.compression != nil)
            #expect(policy.prediction.killInsteadOfCompressingAbove == (file.hasSuffix("unlikely") ? 100 : nil))
        }
    }
}

/// `compression.order`: which idle app reclaim compresses first — the least recently used (the
/// kernels' LRU lists), the least likely to be reopened soon (`predictedReuse`), or the host's
/// scores (`externalScore`, the oracle's foresight).
@Suite("Compression order")
struct CompressionOrderTests {
    /// KillInsteadOfCompressingTests' policy (no switch) with reclaim in `order`.
    static func policy(_ order: MemoryCompression.Order) throws -> Policy {
        var policy = try KillInsteadOfCompressingTests.policy(limit: nil)
        policy.compression?.order = order
        return policy
    }

    /// B opened five times (with C between), then A once, then C in front: B is the least recently
    /// used, A the least often opened. C's growth of 20 MiB starts reclaim; the first app it
    /// compresses is returned.
    static func firstCompressed(_ policy: Policy, scores: ((AppID, Bytes, Double) -> Double)? = nil) throws -> AppID? {
        let engine = CompressionTests.engine(policy)
        engine.externalScore = scores
        var time = 0.0
        for _ in 0..<5 {
            for id in ["B", "C"] {
                try engine.apply(.open(AppLaunch(id: AppID(id), footprint: .mebibytes(100))), at: time)
                time += 1
            }
        }
        try engine.apply(.open(AppLaunch(id: "A", footprint: .mebibytes(100))), at: time)
        try engine.apply(.open(AppLaunch(id: "C", footprint: .mebibytes(100))), at: time + 1)
        _ = engine.takeEvents()
        try engine.apply(.allocate(app: "C", bytes: .mebibytes(20), purgeable: false), at: time + 2)
        #expect(engine._invariantViolation() == nil)
        return engine.takeEvents().lazy.compactMap { event -> AppID? in
            if case .compress(let app, _, _, _, _) = event.kind { return app }
            return nil
        }.first
    }

    @Test("least recently used: B, frontmost longest ago, goes first")
    func leastRecentlyUsed() throws {
        #expect(try Self.firstCompressed(try Self.policy(.leastRecentlyUsed)) == "B")
    }

    @Test("predicted reuse: A, opened once against B's five, goes first, with a horizon or without")
    func predictedReuse() throws {
        var policy = try Self.policy(.predictedReuse)
        #expect(try Self.firstCompressed(policy) == "A")
        policy.prediction.horizon = 5
        #expect(try Self.firstCompressed(policy) == "A")
    }

    @Test("external scores: the highest goes first, re-read at each reclaim")
    func externalScore() throws {
        let policy = try Self.policy(.externalScore)
        #expect(try Self.firstCompressed(policy, scores: { app, _, _ in app == "B" ? 2 : 1 }) == "B")
        #expect(try Self.firstCompressed(policy, scores: { app, _, _ in app == "A" ? 2 : 1 }) == "A")
    }

    @Test("predictedReuse needs a band ordered by it; externalScore is not accepted in a file")
    func validation() throws {
        var policy = try Self.policy(.predictedReuse)
        #expect(policy.problems.isEmpty)
        for index in policy.bands.indices { policy.bands[index].order = .largestFirst }
        #expect(policy.problems.map(\.path) == ["compression.order"])
        let path = PackagePaths.path("Examples/policies/jetsam-compressor-predicted-reclaim.yaml")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let loaded = try Policy(yaml: text, file: path)
        #expect(loaded.compression?.order == .predictedReuse)
        let shown = PolicyYAML.render(loaded)
        #expect(shown.contains("  order: predictedReuse\n"))
        #expect(try Policy(yaml: shown, file: "shown").compression?.order == .predictedReuse)
        let external = text.replacingOccurrences(of: "  order: predictedReuse ", with: "  order: externalScore ")
        #expect(throws: PolicyErrors.self) { try Policy(yaml: external, file: "external.yaml") }
        // A band order the switch needs, missing: refused when the file is loaded, at the key.
        let unread = text.replacingOccurrences(of: "    order: predictedReuse", with: "    order: firstInFirstOut")
        do {
            _ = try Policy(yaml: unread, file: "unread.yaml")
            Issue.record("expected compression.order to be refused")
        } catch {
            #expect(error.problems.map(\.path) == ["compression.order"])
            let line = text.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.hasPrefix("  order: predictedReuse") }.map { $0 + 1 }
            #expect(error.problems.first?.line == line, "\(error.problems)")
        }
    }
}
