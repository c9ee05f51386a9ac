import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

/// What issue 26 added around the learning policies: warm-ups (days of history replayed, not
/// counted) and the `informed` reference told a generated user's true app weights.
@Suite("Warm-ups and the informed reference")
struct LearningTests {
    static let week: Workload = {
        var workload = Workload.phone
        workload.hours = 72
        return workload
    }()

    @Test("a warm-up counts exactly the events from its end on; none when it outlasts the trace")
    func warmUp() throws {
        let trace = WorkloadGenerator(workload: Self.week).trace(seed: 5)
        let policy = try Policy.shipped("predictive")
        let cut = 48 * 3600.0
        var launchesAfter = 0
        var killsAfter = 0
        let counted = try SimulationRun.run(
            trace, policy: policy, warmUp: cut,
            onEvents: { events in
                for event in events where event.time >= cut {
                    if case .callback(_, .didFinishLaunching, _) = event.kind { launchesAfter += 1 }
                    if case .kill = event.kind { killsAfter += 1 }
                }
            })
        let whole = try SimulationRun.run(trace, policy: policy)
        #expect(counted.metrics.coldLaunches == launchesAfter)
        #expect(counted.metrics.kills == killsAfter)
        #expect(launchesAfter > 0 && launchesAfter < whole.metrics.coldLaunches)
        // Warm-up 0 is no warm-up; one past the end counts nothing.
        #expect(try SimulationRun.run(trace, policy: policy, warmUp: 0).metrics.deterministic == whole.metrics.deterministic)
        let none = try SimulationRun.run(trace, policy: policy, warmUp: 1e9)
        #expect(none.metrics.coldLaunches == 0 && none.metrics.kills == 0 && none.metrics.launchWait == 0)
    }

    @Test("informed kills the app the user picks least often per byte and second of relaunch")
    func informedOrder() throws {
        let generator = WorkloadGenerator(workload: .phone)
        let user = try #require(generator.user(seed: 9))
        let score = Informed.score(user: user, model: try #require(Workload.phone.user), launchCost: .phone)
        // Two installed apps scored at the same size: the favourite (rank 0) against a rarely used one.
        let favourite = user.installed[0].id
        let rare = user.installed[user.installed.count - 1].id
        let size = Bytes.mebibytes(40)
        for hour in [3.0, 9.0, 14.0, 21.0] {
            #expect(score(rare, size, hour * 3600) > score(favourite, size, hour * 3600), "hour \(hour)")
        }
        // An app the user never installed is killed before any installed one.
        #expect(score("not.installed", size, 0) > score(rare, size, 0))
    }

    @Test("informed runs only where a user model generated the samples")
    func informedNeedsUser() async throws {
        var server = Workload.server
        server.apps = 50
        server.hours = 1
        await #expect(throws: ComparisonError.self) {
            try await Comparison.run(workload: server, policies: [Informed.policy], seeds: [1])
        }
        let trace = WorkloadGenerator(workload: .phone).trace(seed: 1)
        await #expect(throws: ComparisonError.self) {
            try await Comparison.run(traces: [trace], name: "t", policies: [Informed.policy], samples: ["1"])
        }
        let comparison = try await Comparison.run(
            workload: .phone, policies: [.ios4, Informed.policy, Oracle.policy], seeds: [1, 2, 3])
        #expect(comparison.runs[1].count == 3)
        #expect(Comparison.isRealKiller(comparison.policyValues[1]) == false)
    }
}
