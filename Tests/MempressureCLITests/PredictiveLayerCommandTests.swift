import Foundation
import Testing
import TestSupport

/// `predictive@P` on the command line (issue 48): accepted wherever `oracle@P` is, and refused
/// with the option and what was expected when P is missing or unknown.
@Suite("predictive@P on the command line")
struct PredictiveLayerCommandTests {
    @Test(
        "predictive@P runs in compare, simulate, replay, sweep and kill-order, and policy show prints YAML that loads back"
    )
    func acceptedWhereverOracleAtPIs() throws {
        let policies = "jetsam-compressor,predictive@jetsam-compressor,oracle@jetsam-compressor"
        let compare = try runMempressure([
            "compare", "--policies", policies, "--seeds", "3", "--hours", "6", "--baseline", "jetsam-compressor",
        ])
        #expect(compare.status == 0, "\(compare.standardError)")
        #expect(compare.standardOutput.contains("predictive@jetsam-compressor"))
        #expect(
            compare.standardOutput.contains(
                "share of the gap in mean launch wait from jetsam-compressor to oracle@jetsam-compressor closed"),
            "\(compare.standardOutput)")
        let simulate = try runMempressure([
            "simulate", "--policy", "predictive@jetsam-compressor", "--hours", "2", "--seed", "3",
        ])
        #expect(simulate.status == 0, "\(simulate.standardError)")
        let replay = try runMempressure([
            "replay", "Examples/traces/13-pressure-episode.jsonl", "--policy", "predictive@jetsam",
        ])
        #expect(replay.status == 0, "\(replay.standardError)")
        let sweep = try runMempressure([
            "sweep", "--param", "memory=1GiB", "--seeds", "1", "--hours", "1", "--policies",
            "jetsam-compressor,predictive@jetsam-compressor",
        ])
        #expect(sweep.status == 0, "\(sweep.standardError)")
        #expect(sweep.standardOutput.contains("predictive@jetsam-compressor"))
        let ranked = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", "predictive@jetsam",
        ])
        #expect(ranked.status == 0, "\(ranked.standardError)")

        let shown = try runMempressure(["policy", "show", "predictive@jetsam-compressor"])
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(shown.standardOutput.hasPrefix("name: \"predictive@jetsam-compressor\"\n"))
        #expect(shown.standardOutput.contains("order: predictedReuse"))
        #expect(shown.standardOutput.contains("\nprediction: { halfLife: 604800"))
        let file = try scratchDirectory("predictive-layer").appendingPathComponent("layered.yaml")
        try shown.standardOutput.write(to: file, atomically: true, encoding: .utf8)
        let validated = try runMempressure(["policy", "validate", file.path])
        #expect(validated.status == 0, "\(validated.standardError)")
    }

    @Test(
        "predictive@P with P missing, unknown or a reference is refused, naming the option and what was expected",
        arguments: [
            (
                ["compare", "--policies", "jetsam,predictive@nosuch.yaml", "--seeds", "2"], Int32(66),
                "--policies predictive@nosuch.yaml: nosuch.yaml: no shipped policy of that name and no such file; "
                    + "expected predictive@P, P a shipped policy (ios4, jetsam,"
            ),
            (
                ["simulate", "--policy", "predictive@", "--hours", "1"], Int32(64),
                "--policy predictive@: no policy after \"@\"; expected predictive@P, P a shipped policy (ios4,"
            ),
            (
                ["sweep", "--param", "memory=1GiB", "--policies", "predictive@nosuch"], Int32(66),
                "--policies predictive@nosuch: nosuch: no shipped policy of that name and no such file; expected predictive@P"
            ),
            (
                ["policy", "show", "predictive@nosuch"], Int32(66),
                "policy show predictive@nosuch: nosuch: no shipped policy of that name"
            ),
            (
                ["compare", "--policies", "jetsam,predictive@oracle", "--seeds", "2"], Int32(64),
                "predictive@oracle: oracle is a reference itself"
            ),
            (
                ["compare", "--policies", "jetsam,oracle@nosuch.yaml", "--seeds", "2"], Int32(66),
                "--policies oracle@nosuch.yaml: nosuch.yaml: no shipped policy of that name and no such file; expected oracle@P"
            ),
        ])
    func refused(arguments: [String], status: Int32, message: String) throws {
        let result = try runMempressure(arguments)
        #expect(result.status == status, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
    }
}
