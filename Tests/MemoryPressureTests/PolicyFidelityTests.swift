import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Issue 12: each policy decides exactly as the system it is named after. One scenario per rule,
// each naming its source (file and function); the expected outcome is derived here from the
// source's rule, not read back from the engine.

/// A snapshot app, sizes in MiB.
private func app(
    _ id: String, _ state: AppState, mib: Int64, lastActive: Double = 0, modes: BackgroundModes = [],
    adj: Int? = nil, priority: Int? = nil, swapMiB: Int64 = 0
) -> ResidentApp {
    ResidentApp(
        id: AppID(id), state: state, footprint: .mebibytes(mib), lastActive: lastActive, backgroundModes: modes,
        oomScoreAdj: adj, swap: .mebibytes(swapMiB), priority: priority)
}

/// An app of `bytes` bytes.
private func app(_ id: String, _ state: AppState, bytes: Int64, lastActive: Double = 0, priority: Int? = nil)
    -> ResidentApp
{
    ResidentApp(id: AppID(id), state: state, footprint: Bytes(bytes), lastActive: lastActive, priority: priority)
}

private func engine(_ policy: String, _ device: Device, _ apps: [ResidentApp]) throws -> PressureEngine {
    try PressureEngine(snapshot: Snapshot(device: device, apps: apps), policy: try Policy.shipped(policy))
}

extension PressureEngine {
    fileprivate var ids: [String] { killOrder(limit: .max).map(\.app.rawValue) }

    /// Evaluates pressure at `time` and returns the kills: (app, notice).
    fileprivate func killsOnTick(_ time: Double) throws -> [(app: String, notice: Event.KillNotice)] {
        try apply(.tick, at: time)
        return takeEvents().compactMap { event in
            guard case .kill(let app, _, _, let notice, _) = event.kind else { return nil }
            return (app.rawValue, notice)
        }
    }
}

private let mebibyte: Int64 = 1 << 20

// MARK: - earlyoom (rfjakob/earlyoom main.c lowmem_sig(), kill.c is_larger())

@Suite("earlyoom: main.c lowmem_sig() and kill.c is_larger()")
struct EarlyOOMFidelityTests {
    /// 1000 MiB of memory (no reserve) so that 10 % and 5 % are whole bytes, with `swap` of swap.
    static func device(swap: Int64, swapFree: Int64?) -> Device {
        Device(
            memory: .mebibytes(1000), reserved: .zero, swap: .mebibytes(swap), swapFree: swapFree.map(Bytes.mebibytes))
    }

    /// Apps leaving `freeMiB` free: a big victim and a small one.
    static func apps(freeMiB: Int64) -> [ResidentApp] {
        [app("big", .background, mib: 1000 - freeMiB - 100), app("small", .background, mib: 100)]
    }

    @Test("lowmem_sig(): 7 % available with all swap free is no action at all (swap counts)")
    func plentyOfSwapMeansNoAction() throws {
        let engine = try engine("earlyoom", Self.device(swap: 1000, swapFree: 1000), Self.apps(freeMiB: 70))
        #expect(engine.levelForFreeMemory == .normal)
        #expect(try engine.killsOnTick(1).isEmpty)
        #expect(engine.level == .normal)
    }

    @Test("lowmem_sig(): 3 % available with 8 % swap free is SIGTERM (the SIGKILL swap limit is 5 %)")
    func swapAboveKillLimitIsTerm() throws {
        let engine = try engine("earlyoom", Self.device(swap: 1000, swapFree: 80), Self.apps(freeMiB: 30))
        #expect(engine.swapFree == .mebibytes(80))
        #expect(engine.levelForFreeMemory == .urgent)
        let kills = try engine.killsOnTick(1)
        #expect(kills.map(\.app) == ["big"])
        #expect(kills.map(\.notice) == [.willTerminate])  // SIGTERM
    }

    @Test("lowmem_sig(): 3 % available and 4 % swap free is SIGKILL")
    func bothBelowKillLimits() throws {
        let engine = try engine("earlyoom", Self.device(swap: 1000, swapFree: 40), Self.apps(freeMiB: 30))
        #expect(engine.levelForFreeMemory == .critical)
        #expect(try engine.killsOnTick(1).map(\.notice) == [.none])  // SIGKILL
    }

    @Test(
        "main.c poll_loop(): lowmem_sig() is asked again before each kill — a SIGKILL that brings memory back above 5 % makes the next signal SIGTERM"
    )
    func signalIsChosenPerKill() throws {
        // No swap (the swap condition holds); 1000 MiB, 30 MiB available: SIGKILL. The first
        // victim frees 40 MiB (7 %: above the SIGKILL line, at or below the SIGTERM line), so the
        // second gets SIGTERM; it frees 50 MiB (12 %) and the loop stops.
        let apps = [
            app("first", .background, mib: 40, adj: 900),
            app("second", .background, mib: 50, adj: 500),
            app("third", .background, mib: 1000 - 30 - 40 - 50, adj: -1000),
        ]
        let engine = try engine("earlyoom", Self.device(swap: 0, swapFree: nil), apps)
        #expect(engine.levelForFreeMemory == .critical)
        let kills = try engine.killsOnTick(1)
        #expect(kills.map(\.app) == ["first", "second"])
        #expect(kills.map(\.notice) == [.none, .willTerminate])  // SIGKILL, then SIGTERM
        #expect(engine.free == .mebibytes(120))
    }

    @Test("meminfo.c parse_meminfo(): without swap SwapFreePercent is 0, so the swap condition holds")
    func noSwapConditionHolds() throws {
        let engine = try engine("earlyoom", Self.device(swap: 0, swapFree: nil), Self.apps(freeMiB: 70))
        #expect(engine.levelForFreeMemory == .urgent)
        #expect(try engine.killsOnTick(1).map(\.notice) == [.willTerminate])
    }

    @Test("a killed app's swap is freed with it: free swap rises and lowmem_sig() stops at the swap limit")
    func killedAppsSwapIsFreed() throws {
        // 1000 MiB of swap, 95 MiB free: 905 MiB in use, 200 MiB of it the small app's own.
        let apps = [
            app("hog", .background, mib: 10, swapMiB: 200),  // oom_score counts swap: it goes first
            app("big", .background, mib: 1000 - 30 - 10 - 100, adj: -1000),  // never picked
            app("small", .background, mib: 100),
        ]
        let engine = try engine("earlyoom", Self.device(swap: 1000, swapFree: 95), apps)
        #expect(engine.levelForFreeMemory == .urgent)
        #expect(engine.ids.first == "hog")
        // Killing hog frees 10 MiB of memory (4 %) and 200 MiB of swap (29.5 % free): no more action.
        #expect(try engine.killsOnTick(1).map(\.app) == ["hog"])
        #expect(engine.swapFree == .mebibytes(295))
        #expect(engine.level == .normal)
    }

    @Test("lowmem_sig() compares at or below: exactly 10 % available is SIGTERM, one byte more is nothing")
    func atOrBelow() throws {
        let tenPercent = 100 * mebibyte
        let at = try engine(
            "earlyoom", Self.device(swap: 0, swapFree: nil),
            [app("a", .background, bytes: 1000 * mebibyte - tenPercent)])
        #expect(at.free.value == tenPercent)
        #expect(at.levelForFreeMemory == .urgent)
        let above = try engine(
            "earlyoom", Self.device(swap: 0, swapFree: nil),
            [app("a", .background, bytes: 1000 * mebibyte - tenPercent - 1)])
        #expect(above.levelForFreeMemory == .normal)
        // The kill loop stops once available memory is above the limit, not at it.
        let policy = try Policy.shipped("earlyoom")
        #expect(policy.comparison == .atOrBelow)
    }

    /// `/proc/<pid>/oom_score` (fs/proc/base.c) for an app on a device of `totalPages` pages.
    static func oomScore(mib: Int64, adj: Int64, totalPages: Int64) -> Int64 {
        let points = mib * 256 + adj * (totalPages / 1000)
        return (1000 + points * 1000 / totalPages) * 2 / 3
    }

    @Test("kill.c is_larger(): --avoid adds -300 with no clamp, so -26 beats -100 whatever the RSS")
    func avoidIsNotClamped() throws {
        let totalPages: Int64 = 262_144  // 1 GiB, no swap
        let small = Self.oomScore(mib: 10, adj: -600, totalPages: totalPages) - 300
        let large = Self.oomScore(mib: 50, adj: -750, totalPages: totalPages) - 300
        #expect(small == -26 && large == -100)
        var policy = try Policy.shipped("earlyoom")
        policy.preferences = [NamePreference(pattern: "^avoided", score: -300)]
        let engine = try PressureEngine(
            snapshot: Snapshot(
                device: Device(memory: .gibibytes(1)),
                apps: [
                    app("avoided-large", .background, mib: 50, adj: -750),
                    app("avoided-small", .background, mib: 10, adj: -600),
                ]), policy: policy)
        // Clamped to 0 both would tie, and the tie would go to the larger RSS.
        #expect(engine.ids == ["avoided-small", "avoided-large"])
        #expect(engine.killOrder(limit: .max).map(\.reason) == ["oom_score -26", "oom_score -100"])
    }

    @Test("kill.c find_largest_process(): equal oom_score and equal RSS keep the first scanned (pid order)")
    func equalScoreAndRSSKeepFirst() throws {
        let apps = [app("zeta", .background, mib: 30), app("alpha", .background, mib: 30)]
        let engine = try engine("earlyoom", Device(memory: .gibibytes(1)), apps)
        #expect(engine.ids == ["zeta", "alpha"])
    }
}

// MARK: - Android lmkd

@Suite("android-lmkd: lmkd.cpp find_and_kill_process(), ProcessList.updateOomLevels(), OomAdjuster")
struct LMKDFidelityTests {
    /// ProcessList.updateOomLevels() with Java's float arithmetic: KB, then pages as LMK_TARGET sends them.
    static func minfree(low: Int32, high: Int32, memoryMiB: Int64) -> Int64 {
        var scale = Float(memoryMiB - 350) / Float(700 - 350)
        scale = min(max(scale, 0), 1)
        let kib = Int64(Int32(Float(low) + Float(high - low) * scale))
        return kib * 1024 / 4096 * 4096
    }

    static let low: [Int32] = [49152, 43008, 36864, 24576, 18432, 12288]  // adj 950, 900, 250, 200, 100, 0
    static let high: [Int32] = [184320, 147456, 129024, 110592, 92160, 73728]

    @Test(
        "ProcessList.updateOomLevels(): 72/90/108/126/144/180 MiB at 700 MB or more, the low table at 350 MB, scaled between",
        arguments: [350, 512, 700, 1024, 3072] as [Int64])
    func minfreeScalesWithMemory(memoryMiB: Int64) throws {
        let policy = try Policy.shipped("android-lmkd")
        let device = Device(memory: .mebibytes(memoryMiB))
        // The perceptible-medium band (201–249) is killable from the level of PERCEPTIBLE_APP_ADJ (200).
        let resolved = policy.bands.filter { $0.name != "perceptible-medium" }.map {
            $0.killBelow?.resolved(on: device).value
        }
        let expected = zip(Self.low, Self.high).map { Self.minfree(low: $0, high: $1, memoryMiB: memoryMiB) }
        #expect(resolved == expected)
        if memoryMiB >= 700 { #expect(resolved == [180, 144, 126, 108, 90, 72].map { $0 * mebibyte }) }
        if memoryMiB == 350 { #expect(resolved == [48, 42, 36, 24, 18, 12].map { $0 * mebibyte }) }
    }

    @Test("lmkd.cpp minfree branch: below 144 MiB only adj ≥ 900 dies, and kills stop once free is back at 144")
    func perCutoffLevels() throws {
        // 1 GiB, no reserve; 130 MiB free.
        let apps = [
            app("cached-first", .suspended, mib: 10, adj: 950),
            app("cached", .suspended, mib: 10, lastActive: 50, adj: 905),
            app("cached-2", .suspended, mib: 10, lastActive: 10, adj: 905),
            app("service", .background, mib: 10, adj: 500),
            app("front", .active, mib: 1024 - 130 - 40),
        ]
        let engine = try engine("android-lmkd", Device(memory: .gibibytes(1)), apps)
        #expect(engine.free == .mebibytes(130))
        // 950 first (its level is 180), then the oldest 905 (level 144): 150 MiB free, at 144 kills stop.
        #expect(try engine.killsOnTick(1).map(\.app) == ["cached-first", "cached"])
        #expect(engine.free == .mebibytes(150))
        #expect(engine.status(of: "service")?.state == .background)
        #expect(engine.status(of: "cached-2")?.state == .suspended)
    }

    @Test(
        "lmkd.cpp find_and_kill_process(): at or below PERCEPTIBLE_APP_ADJ the heaviest of a slot, above it the oldest")
    func heaviestAtOrBelowPerceptible() throws {
        let apps = [
            app("svc-old-small", .background, mib: 10, lastActive: 300, adj: 500),
            app("svc-new-big", .background, mib: 90, lastActive: 10, adj: 500),
            app("prc-old-small", .background, mib: 10, lastActive: 300, adj: 200),
            app("prc-new-big", .background, mib: 90, lastActive: 10, adj: 200),
            app("vis-old-small", .background, mib: 10, lastActive: 300, adj: 100),
            app("vis-new-big", .background, mib: 90, lastActive: 10, adj: 100),
        ]
        let engine = try engine("android-lmkd", Device(memory: .gibibytes(2)), apps)
        #expect(
            engine.ids == [
                "svc-old-small", "svc-new-big", "prc-new-big", "prc-old-small", "vis-new-big", "vis-old-small",
            ])
        #expect(engine.killOrder(limit: .max)[2].reason.hasPrefix("heaviest in its adj slot"))
    }

    @Test(
        "lmkd.cpp find_and_kill_process(): `if (i <= PERCEPTIBLE_APP_ADJ)` — slot 225 (PERCEPTIBLE_MEDIUM_APP_ADJ) is still proc_adj_tail(), the oldest"
    )
    func perceptibleMediumIsOldestFirst() throws {
        let apps = [
            app("med-old-small", .background, mib: 10, lastActive: 300, adj: 225),
            app("med-new-big", .background, mib: 90, lastActive: 10, adj: 225),
            app("prc-old-small", .background, mib: 10, lastActive: 300, adj: 200),
            app("prc-new-big", .background, mib: 90, lastActive: 10, adj: 200),
            app("edge-old-small", .background, mib: 10, lastActive: 300, adj: 201),
            app("edge-new-big", .background, mib: 90, lastActive: 10, adj: 201),
        ]
        let engine = try engine("android-lmkd", Device(memory: .gibibytes(2)), apps)
        // Slots from 1000 down: 225 (oldest first), 201 (oldest first), then 200 (heaviest first).
        #expect(
            engine.ids == [
                "med-old-small", "med-new-big", "edge-old-small", "edge-new-big", "prc-new-big", "prc-old-small",
            ])
        let order = engine.killOrder(limit: .max)
        #expect(order[0].reason.hasPrefix("oldest in its adj slot (above PERCEPTIBLE_APP_ADJ"))
        #expect(order[4].reason.hasPrefix("heaviest in its adj slot"))
        // Both are killable from the same minfree level: the one that sets min_score_adj to 200.
        let policy = try Policy.shipped("android-lmkd")
        let medium = try #require(policy.bands.first { $0.name == "perceptible-medium" })
        let perceptible = try #require(policy.bands.first { $0.name == "perceptible" })
        #expect(medium.killBelow == perceptible.killBelow)
    }

    @Test("lmkd.cpp proc_get_heaviest(): of equal sizes, the newest in the slot (adjslot_insert puts it at the head)")
    func heaviestTiesGoToNewest() throws {
        let apps = [
            app("b-new", .background, mib: 40, lastActive: 10, adj: 200),
            app("a-old", .background, mib: 40, lastActive: 300, adj: 200),
            app("c-newest", .background, mib: 40, lastActive: 1, adj: 200),
        ]
        let engine = try engine("android-lmkd", Device(memory: .gibibytes(2)), apps)
        #expect(engine.ids == ["c-newest", "b-new", "a-old"])
    }

    @Test("OomAdjuster.computeOomAdjLSP(): background audio is a foreground service, PERCEPTIBLE_APP_ADJ 200")
    func backgroundAudioIsPerceptible() throws {
        let apps = [
            app("music", .background, mib: 100, modes: .audio),
            app("plain-service", .background, mib: 20),  // 500: a plain background app
        ]
        let engine = try engine("android-lmkd", Device(memory: .gibibytes(1)), apps)
        #expect(engine.ids == ["plain-service", "music"])
        #expect(engine.killOrder(limit: .max)[1].reason.contains("oom_score_adj 200"))
        // Suspended, it no longer plays: cached again.
        let later = try PressureEngine(
            snapshot: Snapshot(
                device: Device(memory: .gibibytes(1)), apps: [app("music", .suspended, mib: 100, modes: .audio)]),
            policy: try Policy.shipped("android-lmkd"))
        #expect(later.killOrder(limit: 1).first?.reason.contains("oom_score_adj 900") == true)
    }
}

// MARK: - XNU jetsam

@Suite(
    "jetsam: kern_memorystatus.c memorystatus_kill_top_process(), memorystatus_pick_action(), memstat_proc_is_active_locked()"
)
struct JetsamFidelityTests {
    @Test(
        "memorystatus_kill_top_process() walks memstat_bucket[] one priority at a time: a newer app at 10 before an older at 20"
    )
    func everyPriorityItsOwnBand() throws {
        let apps = [
            app("p20-old", .background, mib: 30, lastActive: 500, priority: 20),
            app("p10-new", .background, mib: 30, lastActive: 5, priority: 10),
            app("p10-old", .background, mib: 30, lastActive: 50, priority: 10),
        ]
        let engine = try engine("jetsam", Device(memory: .gibibytes(1)), apps)
        #expect(engine.ids == ["p10-old", "p10-new", "p20-old"])
        #expect(
            engine.killOrder(limit: 1).first?.reason
                == "first in its priority band (first in, first out) (priority 10); killable below 51.2 MiB free")
    }

    @Test(
        "JETSAM_PRIORITY_* values: suspended IDLE 0, background BACKGROUND 30, foreground 100, audio AUDIO_AND_ACCESSORY 120"
    )
    func realPriorities() throws {
        let policy = try Policy.shipped("jetsam")
        #expect(policy.priorityByState == [.suspended: 0, .background: 30, .inactive: 100, .active: 100])
        #expect(policy.priorityByBackgroundMode == [.audio: 120])
        #expect(policy.protections.first?.matches.first?.priority == 211...1_000_000)
    }

    @Test("memstat_proc_is_active_locked(): background audio holds an assertion, so the active limit (650 MiB) applies")
    func assertionMeansActiveLimit() throws {
        let engine = PressureEngine.scenario(
            memory: .gibibytes(1), reserved: .mebibytes(100), policy: try Policy.shipped("jetsam"))
        try engine.step(0, .launch("music", mib: 500, modes: .audio))
        let home = try engine.step(1, .home)
        #expect(!home.contains { $0.contains(" kill ") })  // not judged by the 450 MiB inactive limit
        #expect(engine.status(of: "music")?.state == .background)
        let grows = try engine.step(2, .allocate("music", mib: 200))  // 700 MiB: over the active limit
        #expect(grows.contains("music kill background none 700MiB"))
    }

    @Test(
        "the limits are the device's: a foreground app is killed at Stack Overflow's crash point for its memory (q. 5887248)",
        arguments: [(1, 650), (2, 1395), (4, 2040), (8, 4424)] as [(Int64, Int64)])
    func limitsByDevice(gibibytes: Int64, limitMiB: Int64) throws {
        let engine = PressureEngine.scenario(
            memory: .gibibytes(gibibytes), reserved: .mebibytes(100), policy: try Policy.shipped("jetsam"))
        try engine.step(0, .launch("game", mib: limitMiB - 10))
        #expect(try engine.step(1, .allocate("game", mib: 10)).allSatisfy { !$0.contains(" kill ") })  // at the limit
        try engine.apply(.allocate("game", mib: 1), at: 2)
        let kills = engine.takeEvents().compactMap { event -> String? in
            guard case .kill(let app, _, let reason, _, _) = event.kind else { return nil }
            return "\(app): \(reason)"
        }
        #expect(kills.count == 1 && kills[0].hasPrefix("game: over its active memory limit of "), "\(kills)")
        #expect(engine._invariantViolation() == nil)
    }

    @Test(
        "memstat_proc_is_active_locked(): the limit follows the assertion — a background task ends, the inactive limit applies"
    )
    func limitFollowsAssertion() throws {
        let engine = PressureEngine.scenario(
            memory: .gibibytes(1), reserved: .mebibytes(100), policy: try Policy.shipped("jetsam"))
        try engine.step(0, .launch("nav", mib: 500))
        try engine.step(1, .beginBackgroundTask(app: "nav", seconds: 10))
        #expect(try engine.step(2, .home).allSatisfy { !$0.contains(" kill ") })
        #expect(engine.status(of: "nav")?.state == .background)
        try engine.apply(.tick, at: 20)  // the task expired at 11: suspended, inactive limit 450 MiB
        let kills = engine.takeEvents().compactMap { event -> String? in
            guard case .kill(let app, _, let reason, _, _) = event.kind else { return nil }
            return "\(app): \(reason)"
        }
        #expect(kills == ["nav: over its inactive memory limit of 450.0 MiB (fatal)"])
    }

    /// 1 GiB, no reserve: thresholds of memorystatus_init() for ≤ 3 GiB — critical 5 %, idle 10 %.
    static let device = Device(memory: .gibibytes(1))
    static let percent = Int64(1 << 30) / 100

    /// A 100 MiB foreground app and protected system processes (JETSAM_PRIORITY_INTERNAL, each
    /// under the 450 MiB limit) filling `bytes` more.
    static func frontAndSystem(filling bytes: Int64) -> [ResidentApp] {
        var apps = [app("front", .active, mib: 100)]
        var left = bytes - 100 * mebibyte
        var serial = 0
        while left > 0 {
            let chunk = min(left, 400 * mebibyte)
            apps.append(app("system-\(serial)", .background, bytes: chunk, priority: 999))
            left -= chunk
            serial += 1
        }
        return apps
    }

    @Test(
        "memorystatus_pick_action(): MEMORYSTATUS_KILL_IDLE below the idle threshold (10 %), stopping once back at it")
    func idleKillsStartAndStopAtIdleThreshold() throws {
        // 8 % free; three idle apps of 1.5 % each, oldest first; a background app at priority 30.
        let idle = Self.percent * 3 / 2
        let apps =
            [
                app("idle-a", .suspended, bytes: idle, lastActive: 300),
                app("idle-b", .suspended, bytes: idle, lastActive: 200),
                app("idle-c", .suspended, bytes: idle, lastActive: 100),
                app("bg", .background, bytes: 10 * Self.percent, lastActive: 50),
            ] + Self.frontAndSystem(filling: (1 << 30) - 8 * Self.percent - 3 * idle - 10 * Self.percent)
        let engine = try engine("jetsam", Self.device, apps)
        let kills = try engine.killsOnTick(1)
        #expect(kills.map(\.app) == ["idle-a", "idle-b"], "\(kills) free \(engine.free.value)")  // 9.5 %, then 11 %
        #expect(engine.status(of: "idle-c")?.state == .suspended)
        #expect(engine.status(of: "bg")?.state == .background)  // the system is healthy: only idle kills
    }

    @Test("memstat_evaluate_page_shortage() compares strictly: exactly 10 % free kills no idle app, one byte less does")
    func strictlyBelow() throws {
        let tenPercent = MemoryAmount.percent(10).resolved(against: Self.device.usable).value
        let exact = try engine(
            "jetsam", Self.device,
            [app("idle", .suspended, bytes: Self.percent)]
                + Self.frontAndSystem(filling: (1 << 30) - tenPercent - Self.percent))
        #expect(exact.free.value == tenPercent)
        #expect(try exact.killsOnTick(1).isEmpty)
        let below = try engine(
            "jetsam", Self.device,
            [app("idle", .suspended, bytes: Self.percent)]
                + Self.frontAndSystem(filling: (1 << 30) - tenPercent - Self.percent + 1))
        #expect(try below.killsOnTick(1).map(\.app) == ["idle"])
    }

    @Test("memorystatus_pick_action(): higher bands die only below critical (5 %) and stop once back at it")
    func topProcessKillsBelowCritical() throws {
        let apps =
            [
                app("bg-old", .background, bytes: Self.percent / 2, lastActive: 300),
                app("bg-new", .background, bytes: 2 * Self.percent, lastActive: 100),
                app("bg-newest", .background, bytes: 2 * Self.percent, lastActive: 10),
            ] + Self.frontAndSystem(filling: (1 << 30) - 4 * Self.percent - Self.percent / 2 - 4 * Self.percent)
        let engine = try engine("jetsam", Self.device, apps)  // 4 % free
        #expect(try engine.killsOnTick(1).map(\.app) == ["bg-old", "bg-new"])  // 4.5 %, then 6.5 %
        #expect(engine.status(of: "bg-newest")?.state == .background)
        #expect(engine.status(of: "front")?.state == .active)
    }

    @Test(
        "kern_memorystatus.c memorystatus_init(): ≤ 3 GiB critical 5 % idle 10 %, ≤ 6 GiB 4 % and 9 %, above 4 % and 8 %",
        arguments: [(1, 10.0, 5.0), (3, 10, 5), (4, 9, 4), (6, 9, 4), (8, 8, 4)] as [(Int64, Double, Double)])
    func thresholdsByDeviceMemory(gib: Int64, idle: Double, critical: Double) throws {
        let policy = try Policy.shipped("jetsam")
        let device = Device(memory: .gibibytes(gib))
        let resolved = policy.bands.map { $0.killBelow?.resolved(on: device) }
        #expect(resolved[0] == MemoryAmount.percent(idle).resolved(against: device.usable))
        #expect(
            resolved.dropFirst().allSatisfy { $0 == MemoryAmount.percent(critical).resolved(against: device.usable) })
    }

    @Test("memorystatus_sort_by_largest_process_locked(): equal sizes in the foreground band keep their entry order")
    func foregroundTiesKeepEntryOrder() throws {
        let apps = [
            app("b-newer", .background, mib: 40, lastActive: 10, priority: 100),
            app("a-older", .background, mib: 40, lastActive: 90, priority: 100),
        ]
        let engine = try engine("jetsam", Self.device, apps)
        #expect(engine.ids == ["a-older", "b-newer"])
    }
}

// MARK: - Everywhere

@Suite("ties are deterministic and documented; each policy states what it does not model")
struct TieAndAssumptionTests {
    @Test("ios4 and lru: no system rule for ties, so by id — in the report and in the kills alike")
    func tiesByID() throws {
        let apps = [
            app("com.b", .suspended, mib: 50, lastActive: 100),
            app("com.c", .suspended, mib: 50, lastActive: 100),
            app("com.a", .suspended, mib: 50, lastActive: 100),
            app("front", .active, mib: 100),
        ]
        for policy in ["ios4", "lru"] {
            let engine = try engine(policy, Device(memory: .mebibytes(512), reserved: .mebibytes(96)), apps)
            #expect(Array(engine.ids.prefix(3)) == ["com.a", "com.b", "com.c"], "\(policy)")
            #expect(engine.killOrder(limit: 1).map(\.app) == ["com.a"], "\(policy)")
            #expect(engine.killOrder(limit: 2).map(\.app) == ["com.a", "com.b"], "\(policy)")
        }
        // The kills take them in the same order: 416 MiB usable, 166 MiB free; growing the front app
        // by 160 MiB leaves 6 MiB, and kills go on to 15 % (62.4 MiB): two of the three.
        let engine = try engine("ios4", Device(memory: .mebibytes(512), reserved: .mebibytes(96)), apps)
        try engine.apply(.allocate(app: "front", bytes: .mebibytes(160), purgeable: false), at: 1)
        let killed = engine.takeEvents().compactMap { event -> String? in
            guard case .kill(let app, _, _, _, _) = event.kind else { return nil }
            return app.rawValue
        }
        #expect(killed == ["com.a", "com.b"])
    }

    @Test("every band of every shipped policy names its tie rule in policy show's terms")
    func everyBandHasATieRule() throws {
        let expected: [String: [TieRule]] = [
            "ios4": [.id, .id, .id], "lru": [.id, .id, .id], "relaunch-aware": [.id, .id, .id],
            "predictive": [.id, .id, .id],
            "linux-oom": [.lastAppeared],
            "earlyoom": [.firstAppeared], "earlyoom-zram": [.firstAppeared], "systemd-oomd": [.id],
            "jetsam": [.id, .id, .oldestInBand, .id], "jetsam-compressor": [.id, .id, .oldestInBand, .id],
            "android-lmkd": [.id, .id, .id, .id, .newestInBand, .newestInBand, .newestInBand],
            "android-lmkd-zram": [.id, .id, .id, .id, .newestInBand, .newestInBand, .newestInBand],
            "android-lmkd-psi": [.id, .id, .id, .id, .newestInBand, .newestInBand, .newestInBand],
        ]
        for name in Policy.shippedNames {
            #expect(try Policy.shipped(name).bands.map(\.effectiveTies) == expected[name], "\(name)")
        }
    }

    @Test("each shipped policy file says what it does not model, and cites its sources")
    func statedAssumptions() throws {
        let sources: [String: [String]] = [
            "ios4": ["kern_memorystatus"],
            "jetsam": ["memorystatus_kill_top_process", "memstat_proc_is_active_locked"],
            "jetsam-compressor": [
                "vm_compressor_low_on_space", "kMemorystatusKilledVMCompressorSpaceShortage",
                "memorystatus_is_process_eligible_for_freeze",
            ],
            "android-lmkd-zram": ["zram_drv.c", "proc_get_heaviest", "kswapd"],
            "earlyoom-zram": ["SwapOnZRAM", "lowmem_sig", "MM_SWAPENTS"],
            "systemd-oomd": [
                "monitor_swap_contexts_handler", "oomd_kill_by_swap_usage", "compare_swap_usage",
                "THRESHOLD_SWAP_USED_PERCENT", "10-oomd-root-slice-defaults.conf",
                "monitor_memory_pressure_contexts_handler", "oomd_pressure_above", "oomd_kill_by_pgscan_rate",
                "compare_pgscan_rate_and_memory_usage", "10-oomd-user-service-defaults.conf", "calc_avgs",
            ],
            "android-lmkd-psi": [
                "mp_event_psi", "PRESSURE_AFTER_KILL", "NOT_RESPONDING", "LOW_SWAP_AND_THRASHING", "LOW_MEM_AND_SWAP",
                "LOW_MEM_AND_THRASHING", "DIRECT_RECL_AND_THRASHING", "get_lowest_watermark",
            ],
            "android-lmkd": ["find_and_kill_process", "proc_get_heaviest", "updateOomLevels", "computeOomAdjLSP"],
            "linux-oom": ["oom_badness", "select_bad_process"], "earlyoom": ["lowmem_sig", "is_larger"], "lru": [],
            "predictive": ["Belady", "LRFU", "FALCON", "PREPP"],
        ]
        for name in Policy.shippedNames {
            let text = try #require(Policy.shippedSource(name))
            #expect(text.contains("Not modelled"), "\(name)")
            #expect(!text.contains("../" + "shared"), "\(name)")  // a clone has no such folder
            for source in sources[name] ?? [] { #expect(text.contains(source), "\(name): \(source)") }
        }
    }
}

@Suite("the README's policy table")
struct READMEPolicyTableTests {
    @Test("has a 'what is not modelled' column with a row for every shipped policy")
    func notModelledColumn() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("| policy |") })
        #expect(lines[header] == "| policy | reproduces (source) | what is not modelled |")
        for name in Policy.shippedNames {
            let row = try #require(lines[header...].first { $0.hasPrefix("| `\(name)`") }, "\(name)")
            let cells = row.split(separator: "|", omittingEmptySubsequences: true)
            #expect(cells.count == 3, "\(name)")
            #expect(cells.last.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } == true, "\(name)")
        }
    }
}

@Suite("ios4: the system-side purge of suspended apps' offscreen views")
struct SystemPurgeTests {
    @Test("ios4.yaml suspendedOffscreenViews: at level 2 a suspended app's offscreen views go, with no callback")
    func suspendedViewsPurged() throws {
        let engine = PressureEngine.scenario(policy: try Policy.shipped("ios4"))
        try engine.step(0, .launch("S", mib: 60, views: [("main", 5), ("settings", 30)]))
        try engine.step(1, .home)
        #expect(engine.status(of: "S")?.state == .suspended)
        // 416 MiB usable: level 2 below 10 % (41.6 MiB), kills up to 15 % (62.4 MiB); leave 40 MiB
        // free: the purge alone gives back 30 MiB, so nobody is killed.
        let events = try engine.step(2, .launch("F", mib: 416 - 60 - 40))
        #expect(events.contains("S purge suspendedOffscreenViews 30MiB"))
        #expect(!events.contains { $0.contains(" kill ") })
        #expect(!events.contains { $0.hasPrefix("S view") || $0.hasPrefix("S warning") })
        #expect(engine.status(of: "S")?.state == .suspended)
        #expect(engine.status(of: "S")?.views.first { $0.name == "settings" }?.isLoaded == false)
    }
}
