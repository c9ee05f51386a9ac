import MemoryPressure
import MemoryPressureSimulation
import Testing

/// Rates a workload file allows (finite, not negative) but no person or server has: the size
/// estimate commands check before generating refuses them, and the generator, called from the
/// library without that check, still ends.
@Suite("Workloads with extreme rates")
struct WorkloadExtremeRateTests {
    /// Tenants that never switch, with a view switch every 6e-299 seconds.
    static let neverSwitching = """
        base: server
        name: extreme
        usage: { hours: 0.001, switchesPerHour: 0, viewSwitchesPerMinute: 1e300 }
        apps: { count: 3, preload: 0 }
        """

    @Test("no switches and an absurd view rate: the estimate counts the one long session it gives")
    func estimateTakesTheGeneratorsFloors() throws {
        let workload = try Workload(yaml: Self.neverSwitching, file: "extreme.yaml")
        // The estimate used to multiply everything by the switch rate, 0, and found 1 action.
        #expect(workload.estimatedActionsPerSample > 1e290)
        var phone = Workload.phone
        phone.viewSwitchesPerMinute = 1e300
        phone.user?.sessionSeconds = LogNormal(median: 1e-300, p99: 1e-300)
        // Each stay in an app lasts at least 2 s, whatever the drawn session.
        #expect(phone.estimatedActionsPerSample > 1e290)
    }

    /// The estimate as it was before it took the generator's floors: the reference for workloads
    /// the floors do not touch.
    static func estimateWithoutFloors(_ workload: Workload) -> Double {
        let perMinuteInApp = workload.viewSwitchesPerMinute + 1 + workload.interruptionsPerHour / 30
        if let user = workload.user {
            let maxScale = user.kinds.map(\.sessionScale).max() ?? 1
            let sessionMinutes = min(user.sessionSeconds.p99 * maxScale, 4 * 3600) / 60
            let apps = 1 + user.extraAppsPerSession * 3
            let perSession = 4 + apps * (6 + sessionMinutes * perMinuteInApp)
            return workload.hours / 24 * user.deviceSessionsPerDay.p99 * perSession + 1
        }
        let sessionMinutes = 60 / max(workload.switchesPerHour, 0.001)
        let perHour = workload.switchesPerHour * (4 + sessionMinutes * perMinuteInApp) + 2 * workload.locksPerHour
        return Double(workload.preload) + workload.hours * perHour + 1
    }

    @Test("the built-in workloads' estimates are what they were, and under the default limit of 5,000,000")
    func builtInsUnchanged() {
        for workload in Workload.builtIn.values {
            let estimate = workload.estimatedActionsPerSample
            let before = Self.estimateWithoutFloors(workload)
            #expect(abs(estimate - before) <= 1e-9 * before, "\(workload.name): \(estimate) against \(before)")
            #expect(estimate < 5_000_000, "\(workload.name)")
        }
    }

    @Test("a step too small to move the clock ends the session instead of repeating forever")
    func generatorEnds() throws {
        let tenants = try Workload(yaml: Self.neverSwitching, file: "extreme.yaml")
        let trace = WorkloadGenerator(workload: tenants).trace(seed: 1)
        #expect(trace.entries.count < 100)
        var phone = Workload.phone
        phone.hours = 1
        phone.viewSwitchesPerMinute = 1e300
        let day = WorkloadGenerator(workload: phone).trace(seed: 1)
        #expect(day.entries.count < 100_000)
    }
}
