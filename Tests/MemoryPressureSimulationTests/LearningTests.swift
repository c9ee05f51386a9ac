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
        #expect(
            try SimulationRun.run(trace, policy: policy, warmUp: 0).metrics.deterministic == whole.metrics.deterministic
        )
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

    @Test("informed@P prices a kill by P's horizon: the chance of a reopen within H opens, from the true weights")
    func informedHorizon() throws {
        let generator = WorkloadGenerator(workload: .phone)
        let user = try #require(generator.user(seed: 9))
        let model = try #require(Workload.phone.user)
        let plain = Informed.score(user: user, model: model, launchCost: .phone)
        let one = Informed.score(user: user, model: model, launchCost: .phone, horizon: 1)
        let five = Informed.score(user: user, model: model, launchCost: .phone, horizon: 5)
        let size = Bytes.mebibytes(60)
        for app in user.installed.prefix(12) {
            let now = 14 * 3600.0
            // A horizon of one open is the next pick itself: the score without a horizon.
            #expect(abs(one(app.id, size, now) / plain(app.id, size, now) - 1) < 1e-12, "\(app.id)")
            // p from the score without a horizon (bytes / (p × cost)), then 1 − (1 − p)^5.
            let cost = LaunchCost.phone.cold(footprint: app.footprint) - LaunchCost.phone.warmFixed
            let p = Double(size.value) / (plain(app.id, size, now) * cost)
            let expected = Double(size.value) / ((1 - pow(1 - p, 5)) * cost)
            #expect(abs(five(app.id, size, now) / expected - 1) < 1e-9, "\(app.id)")
        }
        // The reference keeps the horizon of the policy whose lifecycle it keeps, and says so.
        let predictive = try Policy.shipped("predictive")
        let reference = Informed.policy(lifecycleOf: predictive)
        #expect(reference.prediction.horizon == predictive.prediction.horizon)
        #expect(reference.bands[0].reason.contains("within 5 opens"))
        #expect(Informed.policy.prediction.horizon == nil)
    }

    @Test("informed and informed@P with different horizons run side by side, each with its own scores")
    func informedHorizonsInOneComparison() async throws {
        let predictive = try Policy.shipped("predictive")
        var noHorizon = predictive
        noHorizon.name = "predictive-no-horizon"
        noHorizon.prediction.horizon = nil
        let policies = [Informed.policy(lifecycleOf: predictive), Informed.policy(lifecycleOf: noHorizon)]
        let seeds: [UInt64] = Array(1...40)
        let both = try await Comparison.run(workload: .phone, policies: policies, seeds: seeds)
        for (index, policy) in policies.enumerated() {
            let alone = try await Comparison.run(workload: .phone, policies: [policy], seeds: seeds)
            #expect(both.runs[index].map(\.metrics.deterministic) == alone.runs[0].map(\.metrics.deterministic))
        }
        // The two horizons decide differently somewhere in 40 users.
        #expect(both.runs[0].map(\.metrics.deterministic) != both.runs[1].map(\.metrics.deterministic))
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
