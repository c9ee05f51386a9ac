import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

@Suite("Workloads, metrics and comparisons")
struct SimulationTests {
    static let small: Workload = {
        var workload = Workload.phone
        workload.apps = 200
        return workload
    }()

    @Test("the same seed gives the same trace; another seed another trace")
    func generatorIsDeterministic() {
        let generator = WorkloadGenerator(workload: Self.small)
        let first = generator.trace(seed: 7).jsonLines
        #expect(first == WorkloadGenerator(workload: Self.small).trace(seed: 7).jsonLines)
        #expect(first != generator.trace(seed: 8).jsonLines)
        #expect(first.split(separator: "\n").count > 100)
    }

    @Test("generated traces survive a JSON Lines round trip")
    func generatedTraceRoundTrip() throws {
        let trace = WorkloadGenerator(workload: Self.small).trace(seed: 3)
        let parsed = try Trace(jsonLines: trace.jsonLines, file: "generated")
        #expect(parsed.entries.map(\.action) == trace.entries.map(\.action))
        #expect(parsed.entries.map(\.time) == trace.entries.map(\.time))
        #expect(parsed.device == trace.device)
    }

    @Test("generated tenant sizes follow the workload: log-normal median within 10 % over the catalogue")
    func catalogueFollowsDistribution() {
        var workload = Workload.server
        workload.apps = 4_000
        let catalogue = WorkloadGenerator(workload: workload).catalogue
        let bases = catalogue.map { launch in
            launch.footprint.value - launch.purgeable.value - launch.views.reduce(0) { $0 + $1.bytes.value }
        }.sorted()
        let median = Double(bases[bases.count / 2])
        #expect(abs(median / workload.footprint.median - 1) < 0.1)
        let p99 = Double(bases[bases.count * 99 / 100])
        #expect(abs(p99 / workload.footprint.p99 - 1) < 0.25)
    }

    @Test("a run in parallel gives exactly the metrics of a sequential run")
    func parallelEqualsSequential() async throws {
        let policies = try ["ios4", "lru", "linux-oom"].map { try Policy.shipped($0) }
        let parallel = try await Comparison.run(
            workload: Self.small, policies: policies, seeds: [1, 2, 3], parallelism: 2)
        let sequential = try await Comparison.run(
            workload: Self.small, policies: policies, seeds: [1, 2, 3], parallelism: 1)
        #expect(
            parallel.runs.map { $0.map(\.metrics.deterministic) }
                == sequential.runs.map { $0.map(\.metrics.deterministic) })
        #expect(
            parallel.runs.map { $0.map { $0.freeMemory.map(\.free) } }
                == sequential.runs.map { $0.map { $0.freeMemory.map(\.free) } })
        #expect(parallel.runs[0][0].metrics.kills > 0)
        // Only the first sample keeps its free-memory timeline (charts draw that one); the others
        // would cost 6.4 KB a run for nothing.
        for policyRuns in parallel.runs {
            #expect(policyRuns[0].freeMemory.count == SimulationRun.timelinePoints)
            #expect(policyRuns.dropFirst().allSatisfy { $0.freeMemory.isEmpty })
        }
    }

    @Test("metrics on a hand-checked trace: one warm resume, one kill, one cold relaunch")
    func metricDefinitions() throws {
        // 256 MiB with 56 reserved: 200 MiB usable. ios4: level 1 below 30 MiB free, level 2 below
        // 20, kills restore 30.
        let trace = try Trace(
            jsonLines: """
                {"t":0,"event":"device","memory":"256MiB","reserved":"56MiB"}
                {"t":0,"event":"launch","app":"A","footprint":"60MiB","views":[{"name":"main","bytes":"4MiB"},{"name":"more","bytes":"6MiB"}]}
                {"t":10,"event":"open","app":"B","footprint":"40MiB"}
                {"t":20,"event":"open","app":"A","footprint":"60MiB"}
                {"t":30,"event":"open","app":"C","footprint":"80MiB"}
                {"t":40,"event":"allocate","app":"C","bytes":"5MiB"}
                {"t":50,"event":"open","app":"A","footprint":"60MiB","views":[{"name":"main","bytes":"4MiB"},{"name":"more","bytes":"6MiB"}]}
                {"t":60,"event":"tick"}
                """, file: "hand")
        let metrics = try SimulationRun.run(trace, policy: .ios4).metrics
        // t20: A resumes warm. t30: 20 MiB free, level 1 to C. t40: 15 MiB free, level 2 to C, the
        // system drops A's offscreen view (6 MiB), A (54 MiB) is killed. t50: A relaunches cold,
        // 15 MiB free, level 1 to A, which releases its offscreen view (6 MiB).
        #expect(metrics.warmResumes == 1)
        #expect(metrics.kills == 1)
        #expect(metrics.killsByState == [.suspended: 1])
        #expect(metrics.killsByReason == ["heaviest suspended app": 1])
        #expect(metrics.coldRelaunches == 1)
        #expect(metrics.foregroundKills == 0)
        #expect(metrics.level1Warnings == 2)
        #expect(metrics.level2Warnings == 1)
        #expect(metrics.bytesFreedByKilling == 54 << 20)
        #expect(metrics.bytesFreedByPurging == 12 << 20)
        #expect(metrics.skippedActions == 0)
        #expect(metrics.viewsReloaded == 0)
        #expect(metrics.secondsAtLevel == [.normal: 40, .warning: 20, .urgent: 0])
        // Resident apps: A 0–40 and 50–60, B 10–60, C 30–60 → (50 + 50 + 30) / 60.
        #expect(abs(metrics.averageResidentApps - 130.0 / 60) < 1e-9)
    }

    @Test("a view released by a warning and shown again counts as reloaded")
    func viewReloadMetric() throws {
        let trace = try Trace(
            jsonLines: """
                {"t":0,"event":"device","memory":"256MiB","reserved":"56MiB"}
                {"t":0,"event":"launch","app":"A","footprint":"160MiB","views":[{"name":"main","bytes":"4MiB"},{"name":"more","bytes":"6MiB"}]}
                {"t":10,"event":"allocate","app":"A","bytes":"15MiB"}
                {"t":20,"event":"showView","app":"A","view":"more"}
                """, file: "hand")
        let metrics = try SimulationRun.run(trace, policy: .ios4).metrics
        #expect(metrics.viewsReloaded == 1)
        #expect(metrics.bytesFreedByPurging == 6 << 20)
    }

    @Test("actions for an app the policy killed are skipped and counted")
    func skippedActions() throws {
        let trace = try Trace(
            jsonLines: """
                {"t":0,"event":"device","memory":"256MiB","reserved":"56MiB"}
                {"t":0,"event":"launch","app":"A","footprint":"150MiB","ignoresWarnings":true}
                {"t":10,"event":"allocate","app":"A","bytes":"49MiB"}
                {"t":20,"event":"allocate","app":"A","bytes":"1MiB"}
                """, file: "hand")
        let metrics = try SimulationRun.run(trace, policy: try .shipped("linux-oom")).metrics
        #expect(metrics.foregroundKills == 1)
        #expect(metrics.skippedActions == 1)
    }

    @Test(
        "an action aimed at an app systemd-oomd's pressure rule killed between two actions is skipped, the kill counted"
    )
    func skippedAfterATimedKill() throws {
        // 1000 MiB usable and nothing to reclaim: C's allocation at 10 s blocks allocations, the
        // pressure rule kills C (the largest) at its check of 38 s, and C's allocation at 60 s is
        // then aimed at an app that is gone.
        let trace = try Trace(
            jsonLines: """
                {"t":0,"event":"device","memory":"1GiB","reserved":"24MiB"}
                {"t":0,"event":"launch","app":"A","footprint":"300MiB"}
                {"t":1,"event":"home"}
                {"t":2,"event":"launch","app":"C","footprint":"100MiB"}
                {"t":10,"event":"allocate","app":"C","bytes":"620MiB"}
                {"t":60,"event":"allocate","app":"C","bytes":"1MiB"}
                """, file: "hand")
        var policy = try Policy.shipped("systemd-oomd")
        policy.compression?.compressible = 0
        policy.compression?.fileBacked = 0
        let run = try SimulationRun.run(trace, policy: policy)
        #expect(run.metrics.foregroundKills == 1)
        #expect(run.metrics.skippedActions == 1)
        #expect(run.metrics.killsByReason == ["memory pressure above 50.00% for > 20s with reclaim activity": 1])
        let kills = try Replay.events(trace, policy: policy).filter {
            if case .kill = $0.kind { return true }
            return false
        }
        #expect(kills.map(\.time) == [38], "\(kills)")
    }

    @Test("policies differ where they should: ios4 kills the huge suspended app first, lru does not")
    func policiesDiffer() throws {
        var lines = ["{\"t\":0,\"event\":\"device\",\"memory\":\"512MiB\",\"reserved\":\"96MiB\"}"]
        // Eight small apps used long ago, then a huge one used recently: 416 MiB usable, 36 MiB free
        // once the foreground app opens, which is level 2 under both policies.
        for index in 0..<8 {
            lines.append("{\"t\":\(index),\"event\":\"open\",\"app\":\"small\(index)\",\"footprint\":\"15MiB\"}")
        }
        lines.append("{\"t\":10,\"event\":\"open\",\"app\":\"huge\",\"footprint\":\"200MiB\"}")
        lines.append("{\"t\":20,\"event\":\"open\",\"app\":\"front\",\"footprint\":\"60MiB\"}")
        let trace = try Trace(jsonLines: lines.joined(separator: "\n"), file: "differ")
        let firstKill = { (policy: Policy) throws -> String? in
            try Replay.events(trace, policy: policy).lazy.compactMap { event -> String? in
                if case .kill(let app, _, _, _, _) = event.kind { return app.rawValue }
                return nil
            }.first
        }
        #expect(try firstKill(.ios4) == "huge")
        #expect(try firstKill(.shipped("lru")) == "small0")
    }

    @Test("a usage log becomes one trace per user")
    func usageLogImport() throws {
        let text = try String(contentsOfFile: PackagePaths.path("Examples/usage/sample.csv"), encoding: .utf8)
        let users = try UsageLogImport.parse(text, file: "sample.csv")
        #expect(users.map(\.user) == ["u1", "u2"])
        let u1 = users[0].trace.entries
        #expect(u1.map(\.time) == [0, 150, 300, 1200, 3600, 3660])
        #expect(
            u1.map {
                if case .home = $0.action {
                    "home"
                } else if case .open(let l) = $0.action {
                    l.id.rawValue
                } else {
                    "?"
                }
            }
                == ["com.example.mail", "home", "com.example.maps", "home", "com.example.mail", "home"])
        // u2: game, Closed, chat, then game opened again while chat is in front (no Closed of chat).
        #expect(users[1].trace.entries.count == 4)
        // The same app always gets the same footprint.
        let sizes = u1.compactMap { if case .open(let l) = $0.action { l.footprint } else { nil } }
        #expect(sizes[0] == sizes[2])
        // The traces replay.
        for user in users { _ = try Replay.events(user.trace, policy: .ios4) }
    }

    @Test("a bad usage log row is reported with its line, column and field")
    func usageLogErrors() throws {
        #expect(
            throws: InputError(
                file: "log.csv", line: 3, column: 5, path: "timestamp",
                message:
                    "expected seconds from -1e11 to 1e11 or a valid ISO 8601 time such as 2016-05-03T08:15:00Z, "
                    + "found \"soon\"")
        ) {
            try UsageLogImport.parse(
                "user,session,timestamp,app,event\nu,1,10,a,Opened\nu,1,soon,a,Closed\n", file: "log.csv")
        }
        // An event type that is not a move to or from the foreground is skipped (and counted).
        #expect(
            try UsageLogImport.parse("user,session,timestamp,app,event\nu,1,10,a,Started\n", file: "log.csv").isEmpty)
    }

    @Test("workload files override the built-in defaults and report problems with their place")
    func workloadFiles() throws {
        let workload = try Workload(
            yaml: """
                base: phone
                name: tiny
                device: { memory: 1GiB, reserved: 200MiB }
                apps: { count: 50, footprint: { median: 20MiB, p99: 100MiB }, backgroundModes: { audio: 10% } }
                usage: { hours: 2, switchesPerHour: 60, backgroundTaskShare: 0.5 }
                """, file: "tiny.yaml")
        #expect(workload.name == "tiny")
        #expect(workload.apps == 50)
        #expect(workload.device.memory == .gibibytes(1))
        #expect(workload.backgroundModeShares[.audio] == 0.1)
        #expect(workload.backgroundTaskShare == 0.5)
        #expect(workload.hours == 2)
        #expect(workload.locksPerHour == Workload.phone.locksPerHour)
        #expect(
            throws: InputError(
                file: "bad.yaml", line: 2, column: 3, path: "usage",
                message:
                    "unknown key \"hourz\"; expected hours, popularity, switchesPerHour, interruptionsPerHour, locksPerHour, lockSeconds, viewSwitchesPerMinute, growthPerMinute, backgroundTaskShare, backgroundTaskSeconds, homeShare"
            )
        ) {
            try Workload(yaml: "usage:\n  hourz: 3\n", file: "bad.yaml")
        }
        #expect(
            throws: InputError(
                file: "bad.yaml", line: 1, column: 25, path: "apps.exitsOnSuspend",
                message: "expected a share such as 2% or 0.02, found the string \"many\"")
        ) {
            try Workload(yaml: "apps: { exitsOnSuspend: many }\n", file: "bad.yaml")
        }
    }
}
