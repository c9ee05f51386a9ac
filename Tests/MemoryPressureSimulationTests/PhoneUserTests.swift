import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

/// The built-in phone user against the published figures its parameters cite (PhoneUser.swift):
/// Böhmer et al., MobileHCI 2011; Falaki et al., MobiSys 2010; Nielsen 2011/2012; App Annie 2017.
/// Each figure is a mean over 200 simulated users, pinned inside the published range.
@Suite("The built-in phone user")
struct PhoneUserTests {
    static let seeds: [UInt64] = Array(1...200)
    static let generator = WorkloadGenerator(workload: .phone)
    static let profiles = seeds.map { UsageProfile(generator.trace(seed: $0)) }

    static func mean(_ values: [Double]) -> Double { Statistics.mean(values) }

    @Test(
        "installed apps: Nielsen's 32–41 downloaded plus preinstalled ones, rarely past App Annie's ~110",
        .singleThreadedLongRun)
    func installedApps() throws {
        let counts = try Self.seeds.map { Double(try #require(Self.generator.user(seed: $0)).installed.count) }
        #expect((32...55).contains(Self.mean(counts)), "mean \(Self.mean(counts))")
        #expect(counts.sorted()[counts.count * 95 / 100] <= 110)
    }

    @Test("about 9 distinct apps a day (App Annie 2017)", .singleThreadedLongRun)
    func distinctApps() {
        let mean = Self.mean(Self.profiles.map { Double($0.distinctApps) })
        #expect((7...11).contains(mean), "mean \(mean)")
    }

    @Test("about 50 opens and an hour in apps a day, sessions near 72 s (Böhmer 2011)")
    func dailyUse() {
        let opens = Self.mean(Self.profiles.map { Double($0.opens) })
        let hours = Self.mean(Self.profiles.map { $0.foregroundSeconds / 3600 })
        let session = Self.mean(Self.profiles.map(\.meanSessionSeconds))
        #expect((40...70).contains(opens), "opens \(opens)")
        #expect((0.75...2).contains(hours), "hours \(hours)")
        #expect((55...90).contains(session), "session \(session)")
    }

    @Test("users differ by an order of magnitude (Falaki 2010: 10 to 200 interactions a day)")
    func diversity() {
        let opens = Self.profiles.map(\.opens).sorted()
        #expect(opens.first! * 5 < opens.last!)
    }

    @Test("quiet nights: under 5 % of the use between 00:00 and 06:00 (Böhmer 2011, usage by hour)")
    func quietNights() {
        let night = Self.mean(Self.profiles.map(\.nightShare))
        #expect(night < 0.05, "night share \(night)")
    }

    @Test("at most one app plays audio at a time, and playback ends within six hours")
    func oneAudioApp() {
        #expect(Self.profiles.allSatisfy { $0.maxConcurrentAudio <= 1 })
        #expect(Self.profiles.contains { $0.maxConcurrentAudio == 1 })
        // Every playback ends within six hours of its start (or is still playing at midnight).
        for seed in Self.seeds.prefix(50) {
            let trace = Self.generator.trace(seed: seed)
            let end = trace.entries.last?.time ?? 0
            var since: [AppID: Double] = [:]
            for entry in trace.entries {
                guard case .useBackgroundModes(let app, let modes) = entry.action else { continue }
                if modes.contains(.audio) {
                    if since[app] == nil { since[app] = entry.time }
                } else if let start = since.removeValue(forKey: app) {
                    #expect(entry.time - start <= 6 * 3600, "seed \(seed): \(app)")
                }
            }
            for start in since.values { #expect(end - start <= 6 * 3600, "seed \(seed)") }
        }
    }

    @Test("each seed is another user with their own apps; the same seed is the same user")
    func usersDiffer() throws {
        let first = try #require(Self.generator.user(seed: 1))
        let again = try #require(WorkloadGenerator(workload: .phone).user(seed: 1))
        let second = try #require(Self.generator.user(seed: 2))
        #expect(first == again)
        #expect(first.installed.map(\.id) != second.installed.map(\.id))
        // Apps come from one shared catalogue: the same app has the same size for every user.
        let shared = Set(first.installed.map(\.id)).intersection(second.installed.map(\.id))
        for id in shared {
            #expect(first.installed.first { $0.id == id } == second.installed.first { $0.id == id })
        }
    }

    @Test("every generated day replays under every shipped policy without a refused action", .singleThreadedLongRun)
    func replaysEverywhere() throws {
        for seed in Self.seeds.prefix(20) {
            let trace = Self.generator.trace(seed: seed)
            for name in Policy.shippedNames {
                let run = try SimulationRun.run(trace, policy: try .shipped(name))
                #expect(run.metrics.launchWait > 0)
                #expect(run.metrics.coldRelaunchWait <= run.metrics.launchWait)
            }
        }
    }

    @Test("an app that exits on suspend never starts a background use: seed 2956's week replays")
    func exitsOnSuspendHasNoBackgroundUse() throws {
        // Seed 2956's music app exits on suspend; its week used to start playback, end at the
        // user's leaving it, and stop the playback 1,000 s later on an app no longer running.
        var week = Workload.phone
        week.hours = 168
        let generator = WorkloadGenerator(workload: week)
        let user = try #require(generator.user(seed: 2956))
        let exiting = Set(user.installed.filter(\.exitsOnSuspend).map(\.id))
        #expect(exiting.contains(AppID("music1363")))
        let trace = generator.trace(seed: 2956)
        for entry in trace.entries {
            guard case .useBackgroundModes(let app, let modes) = entry.action, exiting.contains(app) else { continue }
            #expect(modes.isEmpty, "\(app) at \(entry.time)")
        }
        let run = try SimulationRun.run(trace, policy: .shipped("jetsam"))
        #expect(run.metrics.launchWait > 0)
    }

    @Test("a workload file sets the user model, its kinds and the launch cost")
    func workloadFile() throws {
        let workload = try Workload(
            yaml: """
                user:
                  installedApps: { median: 20, p99: 30 }
                  wake: { mean: 6, sd: 0 }
                  nightActivity: 0%
                  kinds:
                    - { name: game, share: 100%, footprint: { median: 80MiB, p99: 200MiB }, sessionScale: 2 }
                launchCost: { coldFixed: 2, coldPerMiB: 0.01, warmFixed: 0.5 }
                """, file: "user.yaml")
        let user = try #require(workload.user)
        #expect(user.installedApps.median == 20)
        #expect(user.wake == PhoneUser.Hour(mean: 6, standardDeviation: 0))
        #expect(user.kinds.map(\.name) == ["game"])
        #expect(workload.launchCost == LaunchCost(coldFixed: 2, coldPerMiB: 0.01, warmFixed: 0.5))
        let generated = try #require(WorkloadGenerator(workload: workload).user(seed: 3))
        #expect(generated.installed.allSatisfy { $0.id.rawValue.hasPrefix("game") })
        #expect(
            throws: InputError(
                file: "server.yaml", line: 2, column: 7, path: "user",
                message: "expected no \"user\" for base server: it models tenants, not a person")
        ) {
            try Workload(yaml: "base: server\nuser: { nightActivity: 1% }\n", file: "server.yaml")
        }
    }

    @Test("a cold launch costs its fixed part plus its size; a resume its fixed part")
    func launchCost() throws {
        let trace = try Trace(
            jsonLines: """
                {"t":0,"event":"open","app":"A","footprint":"40MiB"}
                {"t":10,"event":"open","app":"B","footprint":"100MiB"}
                {"t":20,"event":"open","app":"A"}
                """, file: "cost")
        let cost = LaunchCost(coldFixed: 1, coldPerMiB: 0.01, warmFixed: 0.25)
        let metrics = try SimulationRun.run(trace, policy: .ios4, launchCost: cost).metrics
        #expect(metrics.coldLaunches == 2 && metrics.warmResumes == 1)
        #expect(abs(metrics.launchWait - (1.4 + 2.0 + 0.25)) < 1e-9)
        #expect(metrics.coldRelaunchWait == 0)
    }
}
