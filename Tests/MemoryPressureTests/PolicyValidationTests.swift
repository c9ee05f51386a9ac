import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// `Policy.validate()`: a policy built in code is checked with the file loader's rules and words,
/// and every engine checks its policy, so none traps later (issue 15, item 5).
@Suite("Policy.validate()")
struct PolicyValidationTests {
    @Test("every shipped policy and the oracle-style external order are valid")
    func shippedAreValid() throws {
        for name in Policy.shippedNames { try Policy.shipped(name).validate() }
        var external = Policy.ios4
        external.bands[0].order = .externalScore
        try external.validate()
    }

    @Test("more than 127 bands is refused with the loader's message, by the engine too, instead of trapping")
    func tooManyBands() throws {
        var policy = Policy.ios4
        let template = policy.bands[0]
        policy.bands = (0..<300).map { index in
            var band = template
            band.name = "band\(index)"
            return band
        }
        #expect(policy.problems.map(\.message).contains("expected at most 127 bands, found 300"))
        #expect(throws: EngineError.self) { try PressureEngine(device: .iPhone4, policy: policy) }
    }

    @Test("thresholds out of order, clear below enter, duplicate bands and a bad relaunch model are all listed")
    func everyProblem() throws {
        var policy = Policy.ios4
        policy.thresholds.urgent = LevelThreshold(enter: .percent(20), clear: .percent(10))
        policy.bands.append(policy.bands[0])
        policy.relaunch.halfLife = 0
        let messages = policy.problems.map { "\($0.path): \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("thresholds.urgent: expected \"clear\" (10%) above \"enter\" (20%)") })
        #expect(
            messages.contains { $0.hasPrefix("thresholds.urgent: threshold out of order: urgent is entered below 20%") }
        )
        #expect(messages.contains("bands[3]: band name \"suspended\" appears twice"))
        #expect(messages.contains { $0.hasPrefix("relaunch.halfLife:") })
        #expect(throws: PolicyErrors.self) { try policy.validate() }
    }
}
