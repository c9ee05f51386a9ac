import MemoryPressure
import MemoryPressureFormats
import MemoryPressureJemalloc
import MemoryPressureSimulation
import TestSupport
import Testing

extension JemallocTests {
    /// The engine on real memory: a hand-written pressure episode and a generated workload replayed
    /// through a ``RealMemoryHost``, every kill and purge measured in the apps' arenas.
    @Suite struct RealMemoryTests {
        static let mail = AppLaunch(
            id: "com.example.mail", footprint: .mebibytes(60),
            views: [
                ViewSpec(name: "inbox", bytes: .mebibytes(4)), ViewSpec(name: "settings", bytes: .mebibytes(3)),
                ViewSpec(name: "compose", bytes: .mebibytes(2)),
            ],
            purgeable: .mebibytes(5))
        static let maps = AppLaunch(
            id: "com.example.maps", footprint: .mebibytes(120),
            views: [ViewSpec(name: "map", bytes: .mebibytes(10)), ViewSpec(name: "search", bytes: .mebibytes(6))],
            purgeable: .mebibytes(8))
        static let game = AppLaunch(id: "com.example.game", footprint: .mebibytes(100))
        static let music = AppLaunch(id: "com.example.music", footprint: .mebibytes(30), backgroundModes: [.audio])
        static let browser = AppLaunch(
            id: "com.example.browser", footprint: .mebibytes(40),
            views: [
                ViewSpec(name: "page", bytes: .mebibytes(8)), ViewSpec(name: "tabs", bytes: .mebibytes(6)),
                ViewSpec(name: "history", bytes: .kibibytes(4100)),
            ],
            purgeable: .kibibytes(6000))

        /// A pressure episode on a 512 MiB phone: warnings purge the browser's offscreen views and
        /// caches, music's observer gives base memory back, the system drops suspended apps'
        /// offscreen views, maps and then the game are killed, maps and the game relaunch cold.
        static let episode: [(time: Double, action: Action)] = [
            (0, .launch(mail)),
            (10, .open(maps)),
            (20, .open(game)),
            (30, .open(music)),
            (40, .open(browser)),
            (45, .allocate(app: "com.example.browser", bytes: .mebibytes(10), purgeable: true)),
            (50, .allocate(app: "com.example.browser", bytes: .mebibytes(20), purgeable: false)),
            (55, .free(app: "com.example.browser", bytes: .kibibytes(4500), purgeable: false)),
            (60, .allocate(app: "com.example.browser", bytes: .mebibytes(30), purgeable: false)),
            (70, .showView(app: "com.example.browser", view: "tabs", bytes: nil)),
            (80, .open(maps)),
            (90, .allocate(app: "com.example.maps", bytes: .mebibytes(30), purgeable: false)),
            (100, .userKill(app: "com.example.music")),
            (110, .open(game)),
        ]

        /// Replays ``episode`` (the actions up to `last` seconds) through a new host; music's
        /// observer releases 2 MiB at each warning. Checks the engine's invariants after every step.
        static func replayEpisode(
            through last: Double = .infinity, configuration: RealMemoryConfiguration = RealMemoryConfiguration()
        ) throws -> (host: RealMemoryHost, events: [Event]) {
            let host = try RealMemoryHost(device: .iPhone4, policy: .ios4, configuration: configuration)
            var events: [Event] = []
            for (time, action) in episode where time <= last {
                events += try host.apply(action, at: time)
                if case .open(let launch) = action, launch.id == music.id {
                    try host.engine.addMemoryWarningObserver(for: music.id) { _ in .releaseMore(.mebibytes(2)) }
                }
                #expect(host.engine._invariantViolation() == nil)
            }
            return (host, events)
        }

        /// The bytes each kill and purge event of `events` says it freed, in order.
        static func freedByEvents(_ events: [Event]) -> [(AppID, MeasuredRelease.Cause, Bytes)] {
            events.compactMap { event in
                switch event.kind {
                case .kill(let app, _, _, _, let freed): return (app, .kill, freed)
                case .purge(let app, let what, let freed): return (app, .purge(what), freed)
                default: return nil
                }
            }
        }

        @Test func everyKillAndPurgeOfTheEpisodeFreesWhatTheEngineExpected() throws {
            let (host, events) = try Self.replayEpisode()
            let releases = host.report.releases
            let freed = Self.freedByEvents(events)
            #expect(releases.map(\.app) == freed.map(\.0))
            #expect(releases.map(\.cause) == freed.map(\.1))
            #expect(releases.map(\.engineFreed) == freed.map(\.2))
            #expect(releases.filter { $0.cause == .kill }.map(\.app) == [Self.maps.id, Self.game.id])
            let kinds = Set(releases.compactMap { if case .purge(let what) = $0.cause { what } else { nil } })
            #expect(kinds == Set(Event.PurgeKind.allCases))
            for release in releases {
                #expect(release.expected == Bytes(release.engineFreed.value / 16))
                // Every size in this trace is a multiple of 16 pages, so even the raw difference
                // (jemalloc's padding page per mallocx piece) stays below 5 %...
                #expect(release.relativeDifference < 0.05, "\(release)")
                // ...and all of it is page granularity: measured is at least expected, and exceeds
                // it by no more than the page allowance.
                #expect(release.measured >= release.expected, "\(release)")
                #expect(release.measured - release.expected <= release.pageAllowance, "\(release)")
                #expect(release.relativeDifferenceBeyondPageRounding == 0, "\(release)")
            }
            #expect(host.report.kills.isWithin(0.05))
            #expect(host.report.purges.isWithin(0.05))
            #expect(host.report.largestRelativeDifference < 0.05)
        }

        @Test func aKilledAppsArenaIsReset() throws {
            let (host, _) = try Self.replayEpisode(through: 60)
            #expect(host.engine.status(of: Self.maps.id)?.state == .notRunning)
            let memory = try #require(host.memory(of: Self.maps.id))
            let statistics = try memory.statistics()
            #expect(memory.allocationCount == 0)
            #expect(statistics.activePages == 0)
            #expect(statistics.dirtyPages == 0)
            // What is left is the arena's own metadata: next to nothing of the 7 MiB it held.
            let kill = try #require(host.report.releases.first { $0.cause == .kill })
            #expect(kill.app == Self.maps.id)
            #expect(kill.measured > .mebibytes(7))
            #expect(statistics.resident.value < kill.measured.value / 32, "\(statistics)")
        }

        @Test func aUserKilledAppsArenaIsResetWithoutAMeasurement() throws {
            let (host, _) = try Self.replayEpisode(through: 100)
            let statistics = try #require(try host.memory(of: Self.music.id)?.statistics())
            #expect(statistics.activePages == 0)
            #expect(statistics.dirtyPages == 0)
            #expect(!host.report.releases.contains { $0.app == Self.music.id && $0.cause == .kill })
        }

        @Test func aColdRelaunchAllocatesAgainInTheSameArena() throws {
            let (host, _) = try Self.replayEpisode(through: 60)
            let arena = try #require(host.memory(of: Self.maps.id)).arena.index
            var events: [Event] = []
            for (time, action) in Self.episode where time > 60 && time <= 80 {
                events += try host.apply(action, at: time)
            }
            #expect(
                events.contains(
                    Event(time: 80, kind: .callback(app: Self.maps.id, name: .didFinishLaunching, level: nil))))
            let memory = try #require(host.memory(of: Self.maps.id))
            #expect(memory.arena.index == arena)
            // Relaunched with 120 MiB, then warned: its offscreen view and its caches went again.
            let engineFootprint = try #require(host.engine.status(of: Self.maps.id)).footprint
            #expect(engineFootprint == .mebibytes(120 - 6 - 8))
            #expect(memory.expectedFootprint == Bytes(engineFootprint.value / 16))
            #expect(memory.allocations.compactMap(\.label) == ["view:map"])
            let measured = try memory.footprint()
            #expect(
                abs(Double((measured - memory.expectedFootprint).value)) < 0.05 * Double(memory.expectedFootprint.value)
            )
        }

        @Test func viewsAndCachesLiveInTheirOwnAllocations() throws {
            let (host, _) = try Self.replayEpisode(through: 40)
            let memory = try #require(host.memory(of: Self.browser.id))
            // Scaled sizes are rounded to whole pages: 4100 KiB / 16 = 256.25 KiB -> 256 KiB,
            // 6000 KiB / 16 = 375 KiB -> 376 KiB.
            #expect(memory.expectedBytes(of: .viewCache) == .kibibytes(512 + 384 + 256))
            #expect(memory.expectedBytes(of: .purgeableCache) == .kibibytes(376))
            #expect(memory.allocations.compactMap(\.label) == ["view:page", "view:tabs", "view:history"])

            // After the episode: the onscreen view (tabs, shown at 70 s) survived the system's purge
            // at 90 s, which took the offscreen page; history went at the first warning.
            let end = try Self.replayEpisode(through: 90).host
            let browser = try #require(end.memory(of: Self.browser.id))
            #expect(browser.allocations.compactMap(\.label) == ["view:tabs"])
            #expect(browser.expectedBytes(of: .purgeableCache) == .zero)
        }

        @Test func freesSplitTheNewestAllocation() throws {
            let (host, _) = try Self.replayEpisode(through: 55)
            let memory = try #require(host.memory(of: Self.browser.id))
            // Base: the 40 MiB launch minus 8 + 6 MiB + 4100 KiB of views and 6000 KiB of caches,
            // plus 20 MiB, minus 4500 KiB; the onscreen page view (8 MiB) is the only view left.
            #expect(host.engine.status(of: Self.browser.id)?.footprint == .kibibytes(16_524 + 20_480 - 4_500 + 8_192))
            let baseAllocations = memory.allocations.filter { $0.kind == .base }.map(\.size)
            // Scaled to the nearest page: 16,524 KiB / 16 = 1032.75 KiB -> 1032 KiB; the 20 MiB
            // allocation was split, 15,980 KiB / 16 = 998.75 KiB -> 1000 KiB.
            #expect(baseAllocations == [.kibibytes(1_032), .kibibytes(1_000)])
            #expect(try memory.statistics().dirtyPages == 0)
        }

        @Test func decayOfZeroMillisecondsReturnsPagesWithoutExplicitPurges() throws {
            let (host, _) = try Self.replayEpisode(
                configuration: RealMemoryConfiguration(pageReturn: .decay(milliseconds: 0)))
            #expect(host.report.releases.count == 14)
            for release in host.report.releases {
                #expect(release.relativeDifferenceBeyondPageRounding <= 0.05, "\(release)")
            }
        }

        @Test func aRefusedActionChangesNothing() throws {
            let (host, _) = try Self.replayEpisode(through: 40)
            let releases = host.report.releases
            let footprint = try host.measuredFootprint(of: Self.browser.id)
            // The base held: the 40 MiB launch minus 8 + 6 MiB and 4100 KiB of views and 6000 KiB of
            // caches released before.
            let held: Int64 = (40 << 20) - (14 << 20) - 4100 * 1024 - 6000 * 1024
            #expect(
                throws: RealMemoryError.engine(
                    .freesMoreThanHeld(Self.browser.id, requested: .mebibytes(100), held: Bytes(held)))
            ) {
                try host.apply(.free(app: Self.browser.id, bytes: .mebibytes(100), purgeable: false), at: 41)
            }
            #expect(throws: RealMemoryError.engine(.unknownApp("com.example.none"))) {
                try host.apply(.allocate(app: "com.example.none", bytes: .mebibytes(1), purgeable: false), at: 41)
            }
            #expect(host.report.releases == releases)
            #expect(try host.measuredFootprint(of: Self.browser.id) == footprint)
            #expect(try host.measuredFootprint(of: "com.example.none") == nil)
        }

        @Test func changesThatBypassTheHostAreDetected() throws {
            let host = try RealMemoryHost(device: .iPhone4)
            try host.apply(.launch(Self.mail), at: 0)
            try host.engine.apply(.allocate(app: Self.mail.id, bytes: .mebibytes(10), purgeable: false), at: 1)
            #expect {
                try host.apply(.allocate(app: Self.mail.id, bytes: .mebibytes(1), purgeable: false), at: 2)
            } throws: { error in
                guard case RealMemoryError.outOfSync(let app, _, let engine, let mirrored) = error else { return false }
                return app == Self.mail.id && engine == .mebibytes(71) && mirrored == .mebibytes(61)
                    && "\(error)".contains("expected the same figure")
            }
        }

        @Test func policiesWhoseMechanismsTheArenasCannotMirrorAreRefused() throws {
            var prewarming = try Policy.shipped("predictive")
            prewarming.prediction.prewarm = Prewarm(chance: 0.5, freeAbove: .percent(20), unopened: 1)
            #expect {
                try RealMemoryHost(device: .iPhone4, policy: prewarming)
            } throws: { error in
                guard case RealMemoryError.prewarmNotMirrored(let policy) = error else { return false }
                return policy == "predictive" && "\(error)".contains("\"prediction.prewarm\"")
            }
            #expect {
                try RealMemoryHost(device: .iPhone4, policy: try Policy.shipped("jetsam-compressor"))
            } throws: { error in
                guard case RealMemoryError.compressionNotMirrored = error else { return false }
                return true
            }
        }

        @Test func footprintsAreReadAfterEveryAction() throws {
            let (host, _) = try Self.replayEpisode()
            #expect(host.report.footprintSamples >= Self.episode.count)
            // The drift is the arenas' metadata and padding: well under a MiB at this scale.
            #expect(host.report.largestFootprintDrift < .kibibytes(512))
            let quiet = try RealMemoryHost(
                device: .iPhone4, configuration: RealMemoryConfiguration(readsFootprints: false))
            try quiet.apply(.launch(Self.mail), at: 0)
            #expect(quiet.report.footprintSamples == 0)
        }

        @Test func anInvalidScaleIsRefused() {
            for scale in [0, -1, Double.infinity, .nan] {
                #expect {
                    _ = try RealMemoryHost(device: .iPhone4, configuration: RealMemoryConfiguration(scale: scale))
                } throws: { error in
                    guard case RealMemoryError.invalidScale = error else { return false }
                    return "\(error)".contains("expected a positive finite number")
                }
            }
        }

        @Test func aGeneratedWorkloadStaysWithinFivePercent() throws {
            var workload = Workload.phone
            workload.apps = 150
            let trace = WorkloadGenerator(workload: workload).trace(seed: 11)
            let host = try RealMemoryHost(device: trace.device, policy: .ios4)
            let refused = try host.replay(trace.entries.lazy.map { (time: $0.time, action: $0.action) })
            #expect(refused == 0)
            #expect(host.engine._invariantViolation() == nil)
            let report = host.report
            #expect(report.kills.count >= 2)
            #expect(report.purges.count >= 10)
            #expect(report.all.totalRelativeDifference < 0.05, "\(report.all)")
            #expect(report.kills.totalRelativeDifference < 0.05, "\(report.kills)")
            #expect(report.purges.totalRelativeDifference < 0.05, "\(report.purges)")
            #expect(report.all.isWithin(0.05), "\(report.all)")
            // Every kill is large enough to agree within 5 % even with page rounding counted.
            #expect(report.kills.worstRelativeDifference < 0.05, "\(report.kills)")
        }

        /// A view controller that keeps its offscreen view when warned.
        final class KeepsItsView: ViewControllerDelegate {
            func didReceiveMemoryWarning(_ view: String, of app: AppID, level: Int) -> MemoryWarningResponse { .ignore }
        }

        @Test(.singleThreadedLongRun, arguments: ["ios4", "jetsam", "android-lmkd", "lru"])
        func randomTracesNeverLoseTrackOfAByte(policy: String) throws {
            for seed in UInt64(0)..<4 {
                let host = try RealMemoryHost(
                    device: .iPhone4, policy: try Policy.shipped(policy),
                    configuration: RealMemoryConfiguration(scale: 1.0 / 64))
                var generator = RandomActionGenerator(seed: seed, apps: 12)
                var refused = 0
                var registered: Set<AppID> = []
                for _ in 0..<600 {
                    let (time, action) = generator.next()
                    do {
                        try host.apply(action, at: time)
                    } catch {
                        guard case .engine = error else { throw error }
                        refused += 1
                        continue
                    }
                    // Some apps' handlers give base memory back, and one view controller keeps its view.
                    if case .open(let launch) = action, launch.id.rawValue.hasSuffix("2"),
                        registered.insert(launch.id).inserted
                    {
                        try host.engine.addMemoryWarningObserver(for: launch.id) { _ in .releaseMore(.mebibytes(1)) }
                        try host.engine.setViewControllerDelegate(KeepsItsView(), for: "v1", of: launch.id)
                    }
                }
                #expect(refused < 600)
                #expect(host.engine._invariantViolation() == nil)
                for app in host.engine.allApps {
                    let memory = try #require(host.memory(of: app.id))
                    let expected = memory.allocations.reduce(Int64(0)) { $0 + $1.size.value }
                    // Each allocation is its scaled size rounded to the nearest page.
                    let rounding = Double(memory.allocationCount * JemallocTests.page / 2)
                    #expect(abs(Double(expected) - Double(app.footprint.value) / 64) <= rounding)
                }
                #expect(host.report.all.isWithin(0.05), "\(policy) seed \(seed): \(host.report.all)")
                #expect(!host.report.releases.isEmpty)
            }
        }
    }
}
