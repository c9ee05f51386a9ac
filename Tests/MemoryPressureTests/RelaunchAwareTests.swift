import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// The `expectedRelaunchCost` order of `relaunch-aware.yaml` (RelaunchModel in Policy.swift): the
/// victim is the app with the least decayed count of opens × (cold − warm seconds) / bytes.
@Suite("Relaunch-aware order")
struct RelaunchAwareTests {
    static func engine() throws -> PressureEngine {
        PressureEngine.scenario(memory: .gibibytes(4), reserved: .zero, policy: try .shipped("relaunch-aware"))
    }

    @Test("of two apps of one size, the one opened less often goes first")
    func frequency() throws {
        let engine = try Self.engine()
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

    @Test("of two apps opened alike, the larger goes first: it frees more per second of relaunch")
    func costPerByte() throws {
        let engine = try Self.engine()
        try engine.step(0, .open("small", mib: 10))
        try engine.step(1, .open("large", mib: 200))
        try engine.step(2, .open("front", mib: 10))
        // Equal opens, large opened later (slightly more weight), yet 200 MiB cost 5.3 s to
        // relaunch against 1.05 s for 10 MiB: per byte, large is far cheaper to lose.
        #expect(engine.killOrder(limit: 1).first?.app == "large")
    }

    @Test("recent use outweighs old use: an app used long ago goes before one just used")
    func recency() throws {
        let engine = try Self.engine()
        for step in 0..<3 {
            try engine.step(Double(step), .open("old", mib: 40));
            try engine.step(Double(step) + 0.5, .open("x", mib: 5))
        }
        try engine.step(86_400, .open("new", mib: 40))
        try engine.step(86_401, .open("front", mib: 10))
        // Three opens a day ago weigh 3 × 2^-3 (8-hour half-life) = 0.375 < one open now.
        #expect(engine.killOrder(limit: 3).map(\.app).first == "old")
    }

    @Test("time passing alone changes no key: the order is invariant under the common decay")
    func invariantUnderDecay() throws {
        let engine = try Self.engine()
        try engine.step(0, .open("a", mib: 30))
        try engine.step(5, .open("b", mib: 60))
        try engine.step(9, .open("a", mib: 30))
        try engine.step(12, .open("c", mib: 20))
        try engine.step(15, .open("front", mib: 10))
        let before = engine.killOrder(limit: 4).map(\.app)
        try engine.step(200_000, .tick)
        #expect(engine.killOrder(limit: 4).map(\.app) == before)
    }

    @Test("the lifecycle promises of ios4 hold: suspended before background, the foreground last")
    func lifecycle() throws {
        let engine = try Self.engine()
        try engine.step(0, .open("player", mib: 20, modes: .audio))
        try engine.step(1, .open("idle", mib: 20))
        try engine.step(2, .open("front", mib: 20))
        let order = engine.killOrder(limit: 3)
        #expect(order.map(\.app) == ["idle", "player", "front"])
        #expect(order.map(\.state) == [.suspended, .background, .active])
    }

    @Test("a policy file may order any band by expected relaunch cost and set the model; externalScore is refused")
    func policyFiles() throws {
        let text = try #require(Policy.shippedSource("relaunch-aware"))
        let custom = text.replacingOccurrences(of: "halfLife: 28800", with: "halfLife: 3600")
        #expect(try Policy(yaml: custom, file: "custom.yaml").relaunch.halfLife == 3600)
        let external = text.replacingOccurrences(
            of: "order: expectedRelaunchCost\n    ties: id\n    reason: suspended",
            with: "order: externalScore\n    ties: id\n    reason: suspended")
        #expect(external != text)
        #expect(throws: PolicyErrors.self) { try Policy(yaml: external, file: "external.yaml") }
    }
}
