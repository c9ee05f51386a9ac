import MemoryPressure
import MemoryPressureFormats

/// `predictive@P`: the learnt victim choice of the shipped `predictive` policy layered on the
/// lifecycle and mechanisms of any policy P, as ``Oracle/policy(lifecycleOf:)`` layers foresight.
///
/// It keeps everything of P — thresholds, warnings, purges, kill rule, bands and their matches,
/// slots, kill thresholds and ties, limits, protections, compression and its freezer, swap, PSI,
/// memory-pressure limits, and the mechanisms P's `prediction:` section switches on (prewarming,
/// killing instead of compressing) — and replaces exactly what `oracle@P` replaces:
///
/// - the order inside every band becomes `BandOrder.predictedReuse` (the least expected loss per
///   byte first: the relaunch × the chance of a reopen within the horizon / bytes, with the chance
///   learnt online from frequency, recency, the time of day and the app sequence:
///   `ReusePrediction`);
/// - where P compresses, what reclaim compresses first becomes
///   `MemoryCompression.Order.predictedReuse` (the app least likely to be reopened soon first),
///   as in `Examples/policies/jetsam-compressor-predicted-reclaim.yaml`;
/// - the learning parameters (`prediction:` half-life, prior, time of day, hours ahead,
///   transitions, horizon) and the relaunch pricing (`relaunch:`) become `predictive`'s.
///
/// So `predictive@P` and `oracle@P` differ only in where the scores come from — a model of the
/// past against the rest of the trace — and the share of the gap between P and `oracle@P` that
/// `predictive@P` closes is like for like. `predictive@predictive` behaves as `predictive` (its
/// one other band holds the foreground app, of which there is one at a time). Not a copy of any
/// shipped killer.
public enum Predictive {
    /// The name before the separator in `--policies` (`predictive@jetsam-compressor`): the shipped
    /// learning policy whose prediction is layered on.
    public static let name = "predictive"

    /// The shipped `predictive` policy, whose prediction and relaunch pricing ``policy(lifecycleOf:)``
    /// takes. Its text is compiled in and checked by the tests, so this never fails.
    public static var learner: Policy {
        guard let policy = shippedLearner else {
            preconditionFailure("the compiled-in policy policies/predictive.yaml does not load")
        }
        return policy
    }

    /// `predictive.yaml`, loaded once.
    private static let shippedLearner: Policy? = try? Policy.shipped(name)

    /// What a kill from a band whose order was replaced says first (its kind in `compare`'s
    /// kills by reason): the words of `Examples/policies/jetsam-compressor-predicted.yaml`.
    public static let reason = "least likely to be reopened soon per byte"

    /// `policy`'s lifecycle and mechanisms with ``learner``'s learnt victim choice (see the type),
    /// named `predictive@` and `policy`'s name. A band that `policy` already orders by predicted
    /// reuse keeps its reason; every other band's reason becomes ``reason``, then the band and
    /// the policy it belongs to (`least likely to be reopened soon per byte, in jetsam-compressor's
    /// idle band`): its own reason described an order that no longer holds.
    ///
    /// - Complexity: O(size of `policy`)
    public static func policy(lifecycleOf policy: Policy) -> Policy {
        let learner = Self.learner
        var layered = policy
        layered.name = name + Oracle.lifecycleSeparator + policy.name
        layered.summary =
            "\(policy.name)'s lifecycle and mechanisms; victims (and what reclaim compresses first) by predictive's learnt chance of a reopen per byte"
        for index in layered.bands.indices where layered.bands[index].order != .predictedReuse {
            layered.bands[index].order = .predictedReuse
            layered.bands[index].reason = "\(reason), in \(policy.name)'s \(layered.bands[index].name) band"
        }
        layered.compression?.order = .predictedReuse
        // The learning is predictive's; the mechanisms that read it are the base's own.
        var prediction = learner.prediction
        prediction.killInsteadOfCompressingAbove = policy.prediction.killInsteadOfCompressingAbove
        prediction.prewarm = policy.prediction.prewarm
        layered.prediction = prediction
        layered.relaunch = learner.relaunch
        return layered
    }
}
