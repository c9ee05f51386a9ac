import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Each shipped policy behaves like the system it names (docs/DESIGN.md, "Policies"; issue 4), shown on
// hand-built snapshots and short traces. Every expected order below is derived in the test from
// the documented rule of the real system, not read back from the engine.

/// An app of a hand-built snapshot, sizes in MiB.
private func app(
    _ id: String, _ state: AppState, mib: Int64, lastActive: Double = 0, modes: BackgroundModes = [],
    adj: Int? = nil, priority: Int? = nil, swapMiB: Int64 = 0, pageTables: Int64 = 0
) -> ResidentApp {
    ResidentApp(
        id: AppID(id), state: state, footprint: .mebibytes(mib), lastActive: lastActive, backgroundModes: modes,
        oomScoreAdj: adj, swap: .mebibytes(swapMiB), pageTables: Bytes(pageTables), priority: priority)
}

/// An engine holding `apps` on a device of `memory` (default: a 1 GiB phone, 200 MiB reserved).
private func makeEngine(
    _ policy: Policy, memory: Bytes = .gibibytes(1), reserved: Bytes = .mebibytes(200), swap: Bytes = .zero,
    _ apps: [ResidentApp]
) throws -> PressureEngine {
    try PressureEngine(
        snapshot: Snapshot(device: Device(memory: memory, reserved: reserved, swap: swap), apps: apps), policy: policy)
}

extension PressureEngine {
    /// The ids of the whole kill order, first victim first.
    fileprivate var orderedIDs: [String] { killOrder(limit: .max).map(\.app.rawValue) }
    /// The ids of the protected apps, in file order.
    fileprivate var protectedIDs: [String] { protectedApps().map(\.app.rawValue) }
    /// The kill row of `id`.
    fileprivate func row(_ id: String) -> KillCandidate? { killOrder(limit: .max).first { $0.app.rawValue == id } }

    /// Applies `action` at `time` and returns the kill events it caused: (app, reason, notice).
    fileprivate func kills(_ time: Double, _ action: Action) throws -> [(
        app: String, reason: String, notice: Event.KillNotice
    )] {
        try apply(action, at: time)
        return takeEvents().compactMap { event in
            guard case .kill(let app, _, let reason, let notice, _) = event.kind else { return nil }
            return (app.rawValue, reason, notice)
        }
    }
}

private let page: Int64 = 4096

// MARK: - linux-oom

@Suite("linux-oom ranks by the kernel's oom_badness")
struct LinuxOOMPolicyTests {
    /// `oom_badness()` of mm/oom_kill.c (Linux 5.9+): rss + swap + page-table bytes / PAGE_SIZE, plus
    /// `oom_score_adj × (totalpages / 1000)`, division first; `nil` for OOM_SCORE_ADJ_MIN.
    static func kernelPoints(_ app: ResidentApp, totalPages: Int64) -> Int64? {
        let adj = Int64(app.oomScoreAdj ?? 0)
        guard adj != -1000 else { return nil }
        return app.footprint.value / page + app.swap.value / page + app.pageTables.value / page + adj
            * (totalPages / 1000)
    }

    /// The kernel's selection repeated: highest points first; among equal points the task scanned
    /// last wins (oom_evaluate_task replaces the chosen task unless its points are lower), so
    /// equal points come in reverse file order.
    static func referenceOrder(_ apps: [ResidentApp], totalPages: Int64) -> [(id: String, points: Int64)] {
        let scored = apps.enumerated().compactMap { position, app in
            kernelPoints(app, totalPages: totalPages).map { (position: position, id: app.id.rawValue, points: $0) }
        }
        return scored.sorted { $0.points != $1.points ? $0.points > $1.points : $0.position > $1.position }
            .map { ($0.id, $0.points) }
    }

    /// 200 apps with random rss, swap, page tables and oom_score_adj (some −1000, some negative,
    /// some unset, some exact duplicates so that ties occur).
    static func randomApps(seed: UInt64, count: Int = 200) -> [ResidentApp] {
        var random = SplitMix64(seed: seed)
        var apps: [ResidentApp] = []
        for index in 0..<count {
            if index > 0 && index % 25 == 0 {
                // An exact copy of an earlier app under a new id: equal points, the later one first.
                var twin = apps[Int.random(in: 0..<index, using: &random)]
                twin.id = AppID("twin-\(index)")
                twin.state = .suspended
                apps.append(twin)
                continue
            }
            let adj: Int?
            switch Int.random(in: 0..<10, using: &random) {
            case 0: adj = -1000
            case 1, 2: adj = nil
            case 3, 4: adj = Int.random(in: -999...(-1), using: &random)
            default: adj = Int.random(in: 0...1000, using: &random)
            }
            let state: AppState = index == 0 ? .active : (Bool.random(using: &random) ? .suspended : .background)
            apps.append(
                ResidentApp(
                    id: AppID("app-\(index)"), state: state,
                    footprint: Bytes(Int64.random(in: 1...60_000, using: &random) * page),
                    lastActive: Double(Int.random(in: 0...10_000, using: &random)),
                    oomScoreAdj: adj,
                    swap: Bytes(Bool.random(using: &random) ? 0 : Int64.random(in: 1...20_000, using: &random) * page),
                    pageTables: Bytes(Int64.random(in: 0...2_000_000, using: &random))))
        }
        return apps
    }

    @Test("a random snapshot's kill order is exactly the kernel's oom_badness order", arguments: [1, 2, 3] as [UInt64])
    func randomSnapshotMatchesKernelFormula(seed: UInt64) throws {
        let apps = Self.randomApps(seed: 0x4C49_4E55_5800 + seed)
        let memory = Bytes.gibibytes(2)
        let swap = Bytes.gibibytes(1)
        let totalPages = (memory.value + swap.value) / page
        let engine = try makeEngine(
            try Policy.shipped("linux-oom"), memory: memory, reserved: .mebibytes(100), swap: swap, apps)
        let expected = Self.referenceOrder(apps, totalPages: totalPages)
        #expect(expected.contains { $0.points < 0 }, "the sample should include negative points")
        let rows = engine.killOrder(limit: .max)
        #expect(rows.map(\.app.rawValue) == expected.map(\.id), "seed \(seed)")
        for (row, reference) in zip(rows, expected) where row.app.rawValue == reference.id {
            #expect(row.reason == "highest oom_badness: \(reference.points) pages")
            #expect(row.band == "all")
            #expect(row.notice == .none)
        }
        #expect(rows.map(\.rank) == Array(1...rows.count))
        let unkillable = apps.filter { $0.oomScoreAdj == -1000 }.map(\.id.rawValue)
        #expect(!unkillable.isEmpty)
        #expect(engine.protectedIDs == unkillable)
        #expect(
            engine.protectedApps().allSatisfy { $0.reason == "oom_score_adj -1000 (OOM_SCORE_ADJ_MIN) is never killed" }
        )
        #expect(engine._invariantViolation() == nil)
    }

    @Test("negative points still rank: among apps with oom_score_adj −500 the largest goes first")
    func negativePointsRankByPoints() throws {
        // totalpages = 262144, adj × 262 = −131000 pages: every app below has negative points.
        let apps = [
            app("small", .suspended, mib: 10, adj: -500),
            app("large", .suspended, mib: 40, adj: -500),
            app("medium", .background, mib: 20, adj: -500),
        ]
        let engine = try makeEngine(try Policy.shipped("linux-oom"), apps)
        #expect(engine.orderedIDs == ["large", "medium", "small"])
        #expect(engine.row("large")?.reason == "highest oom_badness: \(40 * 256 - 131_000) pages")
    }

    @Test("swap and page tables count; equal points go to the task scanned last, as in the kernel")
    func swapAndPageTablesCount() throws {
        let apps = [
            app("plain", .suspended, mib: 30),
            app("swapped", .suspended, mib: 20, swapMiB: 11),  // 31 MiB of points
            app("tables", .suspended, mib: 30, pageTables: 4096 * 10),  // 30 MiB + 10 pages
            app("twin", .suspended, mib: 30),  // ties with plain, comes later in the file
            app("tables-under-a-page", .suspended, mib: 30, pageTables: 4095),  // rounds down to plain's points
        ]
        let engine = try makeEngine(try Policy.shipped("linux-oom"), apps)
        #expect(engine.orderedIDs == ["swapped", "tables", "tables-under-a-page", "twin", "plain"])
    }
}

// MARK: - earlyoom

@Suite("earlyoom ranks by oom_score, ties to the larger RSS, ±300 for prefer/avoid")
struct EarlyOOMPolicyTests {
    /// `/proc/<pid>/oom_score` (fs/proc/base.c, Linux 5.9+): `(1000 + points × 1000 / totalpages) × 2 / 3`.
    static func oomScore(_ app: ResidentApp, totalPages: Int64, preference: Int64 = 0) -> Int64? {
        LinuxOOMPolicyTests.kernelPoints(app, totalPages: totalPages).map {
            (1000 + $0 * 1000 / totalPages) * 2 / 3 + preference
        }
    }

    @Test("a random snapshot's kill order is by oom_score, then larger RSS, then file order")
    func randomSnapshotMatchesOOMScore() throws {
        let apps = LinuxOOMPolicyTests.randomApps(seed: 0xEA21_0033, count: 150)
        let memory = Bytes.gibibytes(2)
        let swap = Bytes.gibibytes(1)
        let totalPages = (memory.value + swap.value) / page
        let engine = try makeEngine(
            try Policy.shipped("earlyoom"), memory: memory, reserved: .mebibytes(100), swap: swap, apps)
        struct Scored {
            var position: Int
            var id: String
            var score: Int64
            var rss: Int64
        }
        var expected: [Scored] = []
        for (position, app) in apps.enumerated() {
            guard let score = Self.oomScore(app, totalPages: totalPages) else { continue }
            expected.append(Scored(position: position, id: app.id.rawValue, score: score, rss: app.footprint.value))
        }
        expected.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.rss != b.rss { return a.rss > b.rss }
            return a.position < b.position
        }
        let rows = engine.killOrder(limit: .max)
        #expect(rows.map(\.app.rawValue) == expected.map(\.id))
        for (index, row) in rows.enumerated() where index < expected.count && row.app.rawValue == expected[index].id {
            let score = expected[index].score
            let tied =
                (index > 0 && expected[index - 1].score == score)
                || (index + 1 < expected.count && expected[index + 1].score == score)
            #expect(row.reason == "oom_score \(score)" + (tied ? ", largest RSS among ties" : ""))
        }
        #expect(engine.protectedIDs == apps.filter { $0.oomScoreAdj == -1000 }.map(\.id.rawValue))
    }

    /// On a 1 GiB phone totalpages is 262144: 2530 and 2600 pages both give oom_score 672, 50 MiB gives 698.
    static let tieApps = [
        ResidentApp(id: "com.example.small", state: .suspended, footprint: Bytes(2530 * page), lastActive: 100),
        ResidentApp(id: "com.example.big", state: .suspended, footprint: Bytes(2600 * page), lastActive: 10),
        ResidentApp(id: "com.example.third", state: .background, footprint: .mebibytes(50), lastActive: 5),
    ]

    @Test("equal oom_score goes to the larger RSS, whatever the file order, and the reason says so")
    func tieGoesToLargerRSS() throws {
        let totalPages = Int64(262_144)
        #expect(Self.oomScore(Self.tieApps[0], totalPages: totalPages) == 672)
        #expect(Self.oomScore(Self.tieApps[1], totalPages: totalPages) == 672)
        #expect(Self.oomScore(Self.tieApps[2], totalPages: totalPages) == 698)
        let engine = try makeEngine(try Policy.shipped("earlyoom"), Self.tieApps)
        let rows = engine.killOrder(limit: .max)
        #expect(rows.map(\.app.rawValue) == ["com.example.third", "com.example.big", "com.example.small"])
        #expect(
            rows.map(\.reason) == [
                "oom_score 698", "oom_score 672, largest RSS among ties", "oom_score 672, largest RSS among ties",
            ])
    }

    @Test("the tie is named even when the report is cut right after the winner (--limit)")
    func tieNamedUnderLimit() throws {
        var apps = Self.tieApps
        apps.removeLast()
        let engine = try makeEngine(try Policy.shipped("earlyoom"), apps)
        let rows = engine.killOrder(limit: 1)
        #expect(rows.map(\.app.rawValue) == ["com.example.big"])
        #expect(rows.first?.reason == "oom_score 672, largest RSS among ties")
    }

    @Test("--prefer (+300) moves an app to the front, --avoid (−300) to the back")
    func preferAndAvoid() throws {
        var prefer = try Policy.shipped("earlyoom")
        prefer.preferences = [NamePreference(pattern: "^com\\.example\\.small$", score: 300)]
        let preferred = try makeEngine(prefer, Self.tieApps)
        #expect(preferred.orderedIDs == ["com.example.small", "com.example.third", "com.example.big"])
        #expect(preferred.row("com.example.small")?.reason == "oom_score 972")

        var avoid = try Policy.shipped("earlyoom")
        avoid.preferences = [NamePreference(pattern: "third", score: -300)]
        let avoided = try makeEngine(avoid, Self.tieApps)
        #expect(avoided.orderedIDs == ["com.example.big", "com.example.small", "com.example.third"])
        #expect(avoided.row("com.example.third")?.reason == "oom_score 398")
    }

    @Test("oom_score_adj −1000 is protected; the notice is SIGTERM (willTerminate) above 5 % and SIGKILL below")
    func protectionAndNotices() throws {
        let apps =
            Self.tieApps + [ResidentApp(id: "sshd", state: .background, footprint: .mebibytes(8), oomScoreAdj: -1000)]
        let calm = try makeEngine(try Policy.shipped("earlyoom"), apps)
        #expect(calm.protectedIDs == ["sshd"])
        #expect(calm.killOrder(limit: .max).allSatisfy { $0.notice == .willTerminate })
        // 824 MiB usable; 40 MiB free is below 5 %: the critical level kills with SIGKILL.
        let filler = ResidentApp(
            id: "filler", state: .suspended, footprint: .mebibytes(824 - 40 - 8 - 50) - Bytes(5130 * page))
        let critical = try makeEngine(try Policy.shipped("earlyoom"), apps + [filler])
        #expect(critical.levelForFreeMemory == .critical)
        #expect(critical.killOrder(limit: .max).allSatisfy { $0.notice == .none })
    }
}

// MARK: - android-lmkd

@Suite("android-lmkd walks oom_score_adj slots from 1000 down")
struct AndroidLMKDPolicyTests {
    static let apps = [
        app("a905-recent", .suspended, mib: 80, lastActive: 10, adj: 905),
        app("b1000", .suspended, mib: 10, lastActive: 5, adj: 1000),
        app("c999", .suspended, mib: 20, lastActive: 1, adj: 999),
        app("d905-old", .suspended, mib: 30, lastActive: 500, adj: 905),
        app("e950", .suspended, mib: 90, lastActive: 2, adj: 950),
        app("f-previous", .suspended, mib: 40, lastActive: 20, adj: 700),
        app("g-service", .background, mib: 50, lastActive: 30, modes: .audio),  // derived 500
        app("h-cached", .suspended, mib: 60, lastActive: 40),  // derived 900
        app("i-foreground", .active, mib: 100),  // derived 0
        app("j-system", .background, mib: 70, adj: -800),
        app("k-perceptible", .suspended, mib: 15, adj: 200),
        app("l905-middle", .suspended, mib: 55, lastActive: 100, adj: 905),
    ]

    @Test("highest adj slot first; in a slot the oldest (largest lastActive) first; negative adj protected")
    func slotsOldestFirst() throws {
        let engine = try makeEngine(try Policy.shipped("android-lmkd"), Self.apps)
        #expect(
            engine.orderedIDs == [
                "b1000", "c999", "e950", "d905-old", "l905-middle", "a905-recent", "h-cached", "f-previous",
                "g-service", "k-perceptible", "i-foreground",
            ])
        #expect(engine.row("d905-old")?.reason.contains("oom_score_adj 905") == true)
        #expect(engine.row("h-cached")?.band == "cached")
        // g-service plays audio in the background: a foreground service, PERCEPTIBLE_APP_ADJ
        // (OomAdjuster.computeOomAdjLSP), in k-perceptible's slot, where the heavier goes first.
        #expect(engine.row("g-service")?.band == "perceptible")
        #expect(engine.row("g-service")?.reason.contains("oom_score_adj 200") == true)
        #expect(engine.row("f-previous")?.band == "services-and-previous")
        #expect(engine.row("k-perceptible")?.band == "perceptible")
        #expect(engine.killOrder(limit: .max).allSatisfy { $0.notice == .none })
        #expect(engine.protectedIDs == ["j-system"])
        #expect(engine.protectedApps().first?.reason.contains("negative oom_score_adj") == true)
    }

    @Test("with kill_heaviest_task (order: largestFirst) the heaviest in a slot goes first")
    func heaviestInSlot() throws {
        var policy = try Policy.shipped("android-lmkd")
        for index in policy.bands.indices where policy.bands[index].slotsByOomScoreAdj {
            policy.bands[index].order = .largestFirst
        }
        let engine = try makeEngine(policy, Self.apps)
        #expect(
            engine.orderedIDs == [
                "b1000", "c999", "e950", "a905-recent", "l905-middle", "d905-old", "h-cached", "f-previous",
                "g-service", "k-perceptible", "i-foreground",
            ])
    }

    @Test(
        "lmkd.cpp minfree branch: each adj cut-off has its own level; below 144 MiB cached apps die, services wait for 126"
    )
    func minfreeLevels() throws {
        // 1 GiB, no reserve: ProcessList.updateOomLevels() gives 72/90/108/126/144/180 MiB.
        let engine = PressureEngine.scenario(
            memory: .gibibytes(1), reserved: .zero, policy: try Policy.shipped("android-lmkd"))
        try engine.step(0, .launch("A", mib: 20))
        try engine.step(1, .home)
        try engine.step(2, .launch("B", mib: 120))
        try engine.step(3, .launch("S", mib: 60, modes: .audio))  // B suspended (900); S will play audio (200)
        try engine.step(4, .home)
        try engine.step(5, .launch("C", mib: 680))  // 1024 − 880 = 144 MiB free: not below 144
        #expect(engine.free == .mebibytes(144))
        let first = try engine.step(6, .allocate("C", mib: 10))  // 134 MiB: the cached level (144) is crossed
        // Oldest cached first (A entered its slot first), then B, until free is back at 144 MiB.
        #expect(first.filter { $0.contains(" kill ") } == ["A kill suspended none 20MiB"])
        #expect(engine.free == .mebibytes(154))
        let second = try engine.step(7, .allocate("C", mib: 40))  // 114 MiB: cached level again
        #expect(second.filter { $0.contains(" kill ") } == ["B kill suspended none 120MiB"])
        // 234 MiB free; S (perceptible, 200) is killable only below 108 MiB.
        let third = try engine.step(8, .allocate("C", mib: 130))  // 104 MiB
        #expect(third.filter { $0.contains(" kill ") } == ["S kill background none 60MiB"])
        #expect(engine.status(of: "C")?.state == .active)
        #expect(engine._invariantViolation() == nil)
    }
}

// MARK: - jetsam

@Suite("jetsam walks priority bands upward, first in first out, the foreground band by size")
struct JetsamPolicyTests {
    static let apps = [
        app("idle-100s", .suspended, mib: 100, lastActive: 100),
        app("idle-300s", .suspended, mib: 20, lastActive: 300),
        app("idle-200s", .suspended, mib: 60, lastActive: 200),
        app("bg-task", .background, mib: 25, lastActive: 50),  // priority 30, no background mode
        app("front", .active, mib: 50),  // priority 100
        app("front-band-80", .background, mib: 80, lastActive: 400, priority: 100),
        app("front-band-30", .suspended, mib: 30, lastActive: 900, priority: 105),
        app("music", .background, mib: 45, lastActive: 600, modes: .audio),  // AUDIO_AND_ACCESSORY 120
        app("critical", .background, mib: 40, priority: 190),  // JETSAM_PRIORITY_CRITICAL: still killable
        app("internal", .background, mib: 40, priority: 999),  // JETSAM_PRIORITY_INTERNAL: above MAX
    ]

    // The old version of this test protected priority 200 and put priority 105 in the foreground
    // band: memorystatus_kill_top_process() walks every bucket up to JETSAM_PRIORITY_MAX (210),
    // one priority at a time, and only bucket 100 is sorted by size.
    @Test(
        "kern_memorystatus.c memorystatus_kill_top_process: idle FIFO by age, each priority its own band up to 210"
    )
    func bandsUpward() throws {
        let engine = try makeEngine(try Policy.shipped("jetsam"), Self.apps)
        #expect(
            engine.orderedIDs == [
                "idle-300s", "idle-200s", "idle-100s", "bg-task", "front-band-80", "front", "front-band-30", "music",
                "critical",
            ])
        let rows = engine.killOrder(limit: .max)
        #expect(
            rows.map(\.band) == [
                "idle", "idle", "idle", "below-foreground", "foreground", "foreground", "above-foreground",
                "above-foreground", "above-foreground",
            ])
        #expect(
            engine.row("idle-300s")?.reason
                == "first in the idle band (MEMORYSTATUS_KILL_IDLE below the idle threshold); killable below 82.4 MiB free"
        )
        #expect(engine.row("front-band-80")?.reason == "largest in the foreground band; killable below 41.2 MiB free")
        #expect(
            engine.row("music")?.reason
                == "first in its priority band (first in, first out) (priority 120); killable below 41.2 MiB free")
        #expect(engine.protectedIDs == ["internal"])
        #expect(engine.protectedApps().first?.reason.contains("JETSAM_PRIORITY_MAX (210)") == true)
    }

    @Test("an app that crosses its fatal active limit is killed at once, the reason naming the limit")
    func fatalActiveLimit() throws {
        let engine = PressureEngine.scenario(
            memory: .gibibytes(1), reserved: .mebibytes(100), policy: try Policy.shipped("jetsam"))
        #expect(try engine.kills(0, .launch("A", mib: 600)).isEmpty)
        let kills = try engine.kills(1, .allocate("A", mib: 100))
        #expect(kills.map(\.app) == ["A"])
        #expect(kills.first?.reason == "over its active memory limit of 650.0 MiB (fatal)")
        #expect(engine.level == .normal)
        #expect(engine.status(of: "A")?.state == .notRunning)
        #expect(engine._invariantViolation() == nil)
    }

    @Test("an app over its fatal inactive limit is killed when it leaves the foreground")
    func fatalInactiveLimit() throws {
        let engine = PressureEngine.scenario(
            memory: .gibibytes(1), reserved: .mebibytes(100), policy: try Policy.shipped("jetsam"))
        #expect(try engine.kills(0, .launch("B", mib: 500)).isEmpty)
        let kills = try engine.kills(1, .home)
        #expect(kills.map(\.app) == ["B"])
        #expect(kills.first?.reason == "over its inactive memory limit of 450.0 MiB (fatal)")
    }

    @Test("a soft limit kills nothing at once but moves the app to rank 1")
    func softLimit() throws {
        var policy = try Policy.shipped("jetsam")
        policy.limits[0].fatal = false
        let big = Self.apps.map { $0.id == "front" ? app("front", .active, mib: 700) : $0 }
        let snapshot = try makeEngine(policy, memory: .gibibytes(1), big)
        let first = try #require(snapshot.killOrder(limit: 1).first)
        #expect(first.app == "front")
        #expect(first.reason == "over its active memory limit of 650.0 MiB (soft)")
        #expect(snapshot.orderedIDs.count == 9)

        let engine = PressureEngine.scenario(memory: .gibibytes(1), reserved: .mebibytes(100), policy: policy)
        try engine.step(0, .launch("S", mib: 100))
        try engine.step(1, .home)
        try engine.step(2, .launch("A", mib: 600))
        #expect(engine.killOrder(limit: 1).first?.app == "S")
        #expect(try engine.kills(3, .allocate("A", mib: 100)).isEmpty)
        #expect(engine.killOrder(limit: 1).first?.app == "A")
        #expect(engine.status(of: "A")?.state == .active)
        #expect(try engine.kills(4, .free(app: "A", bytes: .mebibytes(100), purgeable: false)).isEmpty)
        #expect(engine.killOrder(limit: 1).first?.app == "S")
        #expect(engine._invariantViolation() == nil)
    }
}

// MARK: - ios4 and lru

@Suite("ios4 kills the heaviest suspended app first; lru the least recently used")
struct IOS4AndLRUPolicyTests {
    static let apps = [
        app("small", .suspended, mib: 10, lastActive: 900),
        app("big", .suspended, mib: 100, lastActive: 20),
        app("mid", .suspended, mib: 50, lastActive: 300),
        app("music", .background, mib: 30, lastActive: 50, modes: .audio),
        app("maps", .background, mib: 70, lastActive: 40, modes: .location),
        app("front", .active, mib: 200),
    ]

    @Test("ios4: suspended by size (no notice), then background by size (willTerminate), the foreground last")
    func ios4Order() throws {
        let engine = try makeEngine(try Policy.shipped("ios4"), Self.apps)
        let rows = engine.killOrder(limit: .max)
        #expect(rows.map(\.app.rawValue) == ["big", "mid", "small", "maps", "music", "front"])
        #expect(rows.map(\.notice) == [.none, .none, .none, .willTerminate, .willTerminate, .none])
        #expect(rows.map(\.band) == ["suspended", "suspended", "suspended", "background", "background", "foreground"])
        #expect(rows[0].reason == "heaviest suspended app")
        #expect(rows[3].reason == "heaviest app running in the background")
        #expect(engine.protectedIDs.isEmpty)
        #expect(Policy.ios4 == (try Policy.shipped("ios4")))
    }

    @Test("lru: least recently used suspended app first, whatever its size")
    func lruOrder() throws {
        let engine = try makeEngine(try Policy.shipped("lru"), Self.apps)
        let rows = engine.killOrder(limit: .max)
        #expect(rows.map(\.app.rawValue) == ["small", "mid", "big", "music", "maps", "front"])
        #expect(rows[0].reason == "least recently used suspended app (frontmost 900s ago)")
        #expect(rows.map(\.notice) == [.none, .none, .none, .willTerminate, .willTerminate, .none])
    }
}

// MARK: - Reading the kill order changes nothing

@Suite("killOrder is a read")
struct KillOrderIsNonMutatingTests {
    @Test(
        "calling killOrder twice gives the same rows and leaves the engine consistent", arguments: Policy.shippedNames)
    func twice(policy name: String) throws {
        let apps = LinuxOOMPolicyTests.randomApps(seed: 0x5EED_0004, count: 60)
        let engine = try makeEngine(try Policy.shipped(name), memory: .gibibytes(4), apps)
        let first = engine.killOrder(limit: .max)
        let second = engine.killOrder(limit: .max)
        #expect(first == second)
        #expect(!first.isEmpty)
        #expect(Array(engine.killOrder(limit: 5)) == Array(first.prefix(5)))
        #expect(engine.killOrder(limit: 0).isEmpty)
        #expect(engine._invariantViolation() == nil)
        #expect(engine.takeEvents().isEmpty)
        #expect(first.count + engine.protectedApps().count == apps.count)
    }
}
