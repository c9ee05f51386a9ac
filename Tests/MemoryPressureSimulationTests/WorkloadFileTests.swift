import MemoryPressure
import MemoryPressureSimulation
import Testing

/// Workload files (`Workload(yaml:file:)`): the example of its documentation, every key read into
/// its field, and each refusal naming the file, line, column and key.
@Suite("Workload files")
struct WorkloadFileTests {
    /// The example in `Workload(yaml:file:)`'s documentation, verbatim.
    static let documented = """
        base: phone
        name: heavy-user
        device: { memory: 1GiB, reserved: 200MiB }
        apps:
          count: 3000
          footprint: { median: 40MiB, p99: 300MiB }
          backgroundModes: { audio: 3%, location: 1%, voip: 1% }
          exitsOnSuspend: 1%
          ignoresWarnings: 2%
          views: { count: [1, 6], bytes: { median: 1.5MiB, p99: 8MiB } }
          purgeable: { median: 2MiB, p99: 16MiB }
          preload: 0
        usage:
          hours: 24
          popularity: 1.1            # Zipf exponent
          switchesPerHour: 30
          interruptionsPerHour: 1
          locksPerHour: 3
          lockSeconds: { median: 600, p99: 7200 }
          viewSwitchesPerMinute: 2
          growthPerMinute: 2MiB
          backgroundTaskShare: 10%
          backgroundTaskSeconds: 600
          homeShare: 20%             # sessions that end with Home and an idle pause
        user:                        # the phone user model (not for base: server)
          installedApps: { median: 40, p99: 110 }
          popularityScale: { median: 2.4, p99: 7 }
          deviceSessionsPerDay: { median: 30, p99: 150 }
          extraAppsPerSession: 0.6
          sessionSeconds: { median: 22, p99: 450 }
          wake: { mean: 7, sd: 1 }   # hours after midnight
          sleep: { mean: 23, sd: 1 }
          nightActivity: 4%
          homeBeforeLock: 50%
          kinds:                     # replaces the whole list
            - { name: game, share: 25%, footprint: { median: 60MiB, p99: 220MiB }, sessionScale: 3,
                growthPerMinute: 8MiB, growthMinutes: 5 }   # the kind's own growth, for 5 minutes of a session
            - { name: music, share: 6%, footprint: { median: 22MiB, p99: 60MiB }, backgroundMode: audio,
                backgroundUse: 50%, backgroundSeconds: { median: 1500, p99: 10800 } }
        launchCost: { coldFixed: 0.8, coldPerMiB: 0.025, warmFixed: 0.3 }   # seconds
        """

    @Test("the documented example sets every field it names")
    func documentedExample() throws {
        let workload = try Workload(yaml: Self.documented, file: "heavy-user.yaml")
        let mebibyte = 1_048_576.0
        #expect(workload.name == "heavy-user")
        #expect(workload.device == Device(memory: .gibibytes(1), reserved: .mebibytes(200)))
        #expect(workload.apps == 3000)
        #expect(workload.footprint == LogNormal(median: 40 * mebibyte, p99: 300 * mebibyte))
        #expect(workload.backgroundModeShares == [.audio: 0.03, .location: 0.01, .voip: 0.01])
        #expect(workload.exitsOnSuspendShare == 0.01 && workload.ignoresWarningsShare == 0.02)
        #expect(workload.viewCount == 1...6)
        #expect(workload.viewBytes == LogNormal(median: 1.5 * mebibyte, p99: 8 * mebibyte))
        #expect(workload.purgeable == LogNormal(median: 2 * mebibyte, p99: 16 * mebibyte))
        #expect(workload.preload == 0)
        #expect(workload.hours == 24 && workload.popularity == 1.1 && workload.switchesPerHour == 30)
        #expect(workload.interruptionsPerHour == 1 && workload.locksPerHour == 3)
        #expect(workload.lockSeconds == LogNormal(median: 600, p99: 7200))
        #expect(workload.viewSwitchesPerMinute == 2 && workload.growthPerMinute == .mebibytes(2))
        #expect(workload.backgroundTaskShare == 0.1 && workload.backgroundTaskSeconds == 600)
        #expect(workload.homeShare == 0.2)
        let user = try #require(workload.user)
        #expect(user.installedApps == LogNormal(median: 40, p99: 110))
        #expect(user.popularityScale == LogNormal(median: 2.4, p99: 7))
        #expect(user.deviceSessionsPerDay == LogNormal(median: 30, p99: 150))
        #expect(user.extraAppsPerSession == 0.6)
        #expect(user.sessionSeconds == LogNormal(median: 22, p99: 450))
        #expect(user.wake == PhoneUser.Hour(mean: 7, standardDeviation: 1))
        #expect(user.sleep == PhoneUser.Hour(mean: 23, standardDeviation: 1))
        #expect(user.nightActivity == 0.04 && user.homeBeforeLockShare == 0.5)
        #expect(user.kinds.map(\.name) == ["game", "music"])
        #expect(user.kinds.map(\.share) == [0.25, 0.06])
        #expect(user.kinds[0].footprint == LogNormal(median: 60 * mebibyte, p99: 220 * mebibyte))
        #expect(user.kinds[0].sessionScale == 3 && user.kinds[0].backgroundMode == nil)
        #expect(user.kinds[0].growthPerMinute == .mebibytes(8) && user.kinds[0].growthMinutes == 5)
        #expect(user.kinds[1].growthPerMinute == nil && user.kinds[1].growthMinutes == nil)
        #expect(user.kinds[1].backgroundMode == .audio && user.kinds[1].backgroundUseShare == 0.5)
        #expect(user.kinds[1].backgroundUseSeconds == LogNormal(median: 1500, p99: 10800))
        #expect(workload.launchCost == LaunchCost(coldFixed: 0.8, coldPerMiB: 0.025, warmFixed: 0.3))
        // And it generates a day.
        #expect(WorkloadGenerator(workload: workload).trace(seed: 1).entries.count > 50)
    }

    @Test(
        "a value out of range is refused at its line and column, naming the key",
        arguments: [
            ("device: { memory: 256MiB, reserved: 256MiB }", 1, "device", "expected \"reserved\" below \"memory\""),
            ("launchCost: { coldFixed: 4000 }", 1, "launchCost", "key \"coldFixed\": expected seconds from 0 to 3600"),
            ("apps:\n  views: { count: 3 }", 2, "apps.views.count", "expected [min, max], found"),
            ("apps:\n  views: { count: [4, 2] }", 2, "apps.views.count", "2"),
            ("apps:\n  purgeable: { median: 4MiB, p99: 1MiB }", 2, "apps.purgeable", "expected 0 < median ≤ p99"),
            (
                "usage:\n  lockSeconds: { median: 60 }", 2, "usage.lockSeconds",
                "expected numbers \"median\" and \"p99\""
            ),
            ("usage:\n  hours: -1", 2, "usage", "key \"hours\": expected a number ≥ 0"),
            ("user:\n  extraAppsPerSession: 21", 2, "user", "key \"extraAppsPerSession\": expected 0...20"),
            ("user:\n  sleep: { mean: 31 }", 2, "user.sleep", "expected mean in 0...30 hours and sd in 0...6"),
            ("user:\n  popularityScale: { median: 0, p99: 1 }", 2, "user.popularityScale", "expected 0 < median ≤ p99"),
            (
                "user:\n  kinds:\n    - { name: \"a b\", share: 1%, footprint: { median: 1MiB, p99: 2MiB } }", 3,
                "user.kinds[0]", "key \"name\": expected letters, digits or -, found \"a b\""
            ),
            (
                "user:\n  kinds:\n    - { name: a, share: 0%, footprint: { median: 1MiB, p99: 2MiB } }", 3,
                "user.kinds[0]", "key \"share\": expected a share above 0"
            ),
            ("user:\n  kinds:\n    - { name: a, share: 1% }", 3, "user.kinds[0]", "missing key \"footprint\""),
            (
                "user:\n  kinds:\n    - { name: a, share: 1%, footprint: { median: 1MiB, p99: 2MiB }, backgroundMode: fm }",
                3, "user.kinds[0]", "key \"backgroundMode\": expected audio, location or voip, found \"fm\""
            ),
            (
                "user:\n  kinds:\n    - { name: a, share: 1%, footprint: { median: 1MiB, p99: 2MiB }, evening: 101 }",
                3,
                "user.kinds[0]", "key \"evening\": expected a factor 0...100, found 101"
            ),
        ])
    func refusals(yaml: String, line: Int, path: String, message: String) {
        do {
            let workload = try Workload(yaml: yaml, file: "bad.yaml")
            Issue.record("accepted \(yaml): \(workload.name)")
        } catch {
            #expect(error.file == "bad.yaml")
            #expect(error.line == line, "\(error)")
            #expect(error.path.hasPrefix(path), "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test("a kind's own growth replaces the workload's, and stops after growthMinutes of a session")
    func kindGrowth() throws {
        let text = """
            base: phone
            usage: { growthPerMinute: 2MiB, interruptionsPerHour: 0 }
            user:
              sessionSeconds: { median: 600, p99: 1800 }
              kinds:
                - { name: game, share: 50%, footprint: { median: 60MiB, p99: 220MiB }, growthPerMinute: 8MiB,
                    growthMinutes: 2 }
                - { name: news, share: 50%, footprint: { median: 30MiB, p99: 80MiB } }
            """
        let workload = try Workload(yaml: text, file: "growth.yaml")
        let trace = WorkloadGenerator(workload: workload).trace(seed: 3)
        // Without interruptions every session that grew ends in a free of half its growth.
        var sinceLeaving: [AppID: Int] = [:]
        var games = 0
        var news = 0
        var longestNewsGrowth = 0
        for entry in trace.entries {
            switch entry.action {
            case .allocate(let app, let bytes, _):
                sinceLeaving[app, default: 0] += 1
                if app.rawValue.hasPrefix("game") {
                    #expect(bytes == .mebibytes(8))
                    #expect(sinceLeaving[app, default: 0] <= 2, "at most 2 minutes of growth a session")
                    games += 1
                } else {
                    #expect(bytes == .mebibytes(2))
                    news += 1
                    longestNewsGrowth = max(longestNewsGrowth, sinceLeaving[app, default: 0])
                }
            case .free(let app, _, _):
                sinceLeaving[app] = 0
            default:
                break
            }
        }
        #expect(games > 0 && news > 0)
        // Sessions of 10 minutes grow a news app (no limit) more than twice.
        #expect(longestNewsGrowth > 2)
        for bad in ["growthMinutes: -1", "growthMinutes: 2000", "growthPerMinute: lots"] {
            let file = """
                base: phone
                user:
                  kinds:
                    - { name: game, share: 50%, footprint: { median: 60MiB, p99: 220MiB }, \(bad) }
                """
            #expect(throws: InputError.self, "\(bad)") { try Workload(yaml: file, file: "bad.yaml") }
        }
    }
}
