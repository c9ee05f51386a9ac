import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// systemd-oomd's swap rule (systemd v252, src/oom/): `monitor_swap_contexts_handler()` acts only
/// when available memory and free swap are both under 10 % (`SwapUsedLimit=90%`), and
/// `oomd_kill_by_swap_usage()` kills the cgroup with the most swap (`compare_swap_usage()`),
/// skipping every cgroup with at most `THRESHOLD_SWAP_USED_PERCENT` (5 %) of swap total.
@Suite("systemd-oomd: the swap rule")
struct SystemdOomdTests {
    /// `systemd-oomd` with a 100 MiB zram and no file pages, on a 1 GiB device (1000 MiB usable).
    static func policy(minimumSwapPercent: Double = 5) throws -> Policy {
        var policy = try Policy.shipped("systemd-oomd")
        policy.compression?.capacity = .bytes(.mebibytes(100))
        policy.compression?.fileBacked = 0
        policy.bands[0].minimumSwapPercent = minimumSwapPercent
        return policy
    }

    static func engine(_ policy: Policy) -> PressureEngine {
        PressureEngine.scenario(memory: .gibibytes(1), reserved: .mebibytes(24), policy: policy)
    }

    /// A (100 MiB) and B (300 MiB) idle, C (100 MiB) in front.
    static func apps(_ engine: PressureEngine) throws {
        try engine.step(0, .launch(AppLaunch(id: "A", footprint: .mebibytes(100))))
        try engine.step(1, .home)
        try engine.step(2, .launch(AppLaunch(id: "B", footprint: .mebibytes(300))))
        try engine.step(3, .home)
        try engine.step(4, .launch(AppLaunch(id: "C", footprint: .mebibytes(100))))
    }

    static func kills(_ events: [String]) -> [String] {
        events.filter { $0.contains(" kill ") }
    }

    @Test("with zram free, oomd waits however little memory is available (monitor_swap_contexts_handler)")
    func waitsWhileSwapIsFree() throws {
        let engine = Self.engine(try Self.policy())
        try Self.apps(engine)
        let events = try engine.step(5, .allocate(app: "C", bytes: .mebibytes(450), purgeable: false))
        #expect(Self.kills(events).isEmpty, "\(events)")
        #expect(engine.free == .mebibytes(50))
        #expect(engine.swapFree == .mebibytes(100))
    }

    @Test("once memory and zram are both low, the app with the most swap dies, not the largest (compare_swap_usage)")
    func killsTheMostSwapped() throws {
        let engine = Self.engine(try Self.policy())
        try Self.apps(engine)
        // 540 MiB leaves −40 MiB: kswapd swaps A (60 MiB) and 40 MiB of B into zram, which is then
        // full. B is three times A's size and holds more memory, but A holds more swap.
        let events = try engine.step(5, .allocate(app: "C", bytes: .mebibytes(540), purgeable: false))
        #expect(events.prefix(2) == ["A compress 60MiB into 30MiB", "B compress 40MiB into 20MiB"], "\(events)")
        let kills = Self.kills(events)
        #expect(kills.first?.hasPrefix("A kill") == true, "\(events)")
        #expect(engine._invariantViolation() == nil)

        // earlyoom, on the same machine and the same actions, kills by oom_score: C, in front with 640 MiB.
        var earlyoom = try Policy.shipped("earlyoom-zram")
        earlyoom.compression?.capacity = .bytes(.mebibytes(100))
        earlyoom.compression?.fileBacked = 0
        let other = Self.engine(earlyoom)
        try Self.apps(other)
        let otherKills = Self.kills(try other.step(5, .allocate(app: "C", bytes: .mebibytes(540), purgeable: false)))
        #expect(otherKills.first?.hasPrefix("C kill") == true, "\(otherKills)")
    }

    @Test(
        "an app with at most the floor of swap is never picked, even when nothing else is (THRESHOLD_SWAP_USED_PERCENT)"
    )
    func swapFloor() throws {
        // A floor of 60 % of the 100 MiB zram: A's 60 MiB is at the floor, not above it.
        let atFloor = Self.engine(try Self.policy(minimumSwapPercent: 60))
        try Self.apps(atFloor)
        let events = try atFloor.step(5, .allocate(app: "C", bytes: .mebibytes(540), purgeable: false))
        #expect(Self.kills(events).isEmpty, "\(events)")
        let order = atFloor.killOrder(limit: 3)
        #expect(order.first?.app == "A")
        #expect(order.first?.reason == "most swap: 60.0 MiB in swap; not killed: at most 60.0 MiB in swap", "\(order)")

        // One percent lower, A is above the floor and dies; B (40 MiB) stays under it.
        let above = Self.engine(try Self.policy(minimumSwapPercent: 59))
        try Self.apps(above)
        let kills = Self.kills(try above.step(5, .allocate(app: "C", bytes: .mebibytes(540), purgeable: false)))
        #expect(kills.count == 1 && kills.first?.hasPrefix("A kill") == true, "\(kills)")
    }

    @Test("a swap floor needs a policy that swaps; out of range is refused")
    func floorValidation() throws {
        var policy = try Policy.shipped("earlyoom")
        policy.bands[0].minimumSwapPercent = 5
        #expect(policy.problems.map(\.message).contains { $0.contains("needs a \"compression\" section that swaps") })
        var swapping = try Self.policy()
        swapping.bands[0].minimumSwapPercent = 101
        #expect(swapping.problems.map(\.path) == ["bands[0].minimumSwapPercent"])

        let text = try #require(Policy.shippedSource("earlyoom"))
            .replacingOccurrences(
                of: "    order: oomScore\n", with: "    order: swapUsage\n    minimumSwapPercent: 5\n")
        #expect(throws: PolicyErrors.self) { try Policy(yaml: text, file: "floor.yaml") }
        do {
            _ = try Policy(yaml: text, file: "floor.yaml")
        } catch {
            let message = error.problems.first.map { "\($0)" } ?? ""
            #expect(message.contains("floor.yaml:"), "\(message)")
            #expect(message.contains("minimumSwapPercent"), "\(message)")
        }
    }
}
