import Foundation
import MemoryPressure

/// A reference between the learning policies and the oracle: `compare`'s `informed` is told how
/// the generated user picks apps — the very weights the workload draws from (their ranking, their
/// popularity scale, the kinds' morning and evening factors, their hourly activity) — but not what
/// they will do. No policy that learns from the user's past can know more about their next opens,
/// so it bounds what learning can gain with this decision rule: what is left between it and the
/// oracle is foresight of the draws themselves.
///
/// It keeps `Policy.ios4`'s lifecycle (like the oracle) and kills the app with the most expected
/// opens until its reuse per second of relaunch and per byte freed: 1 / p(a) × bytes / (cold − warm
/// seconds), the relaunch priced at the app's launch size and the bytes its size now, where p(a)
/// is the app's share of the next pick, averaged over the hours of the clock ahead weighted by the
/// user's activity in them and by a 3-hour half-life. `informed@P` keeps the lifecycle of policy P
/// and, when P prices a kill by the chance of a reopen within a horizon of H opens
/// (`ReusePrediction.horizon`), prices it the same way with the true weights: bytes / ((1 − (1 −
/// p(a))^H) × (cold − warm seconds)), so that it stays the bound of P's own decision rule. Only for
/// generated workloads with a user model (``Workload/user``).
public enum Informed {
    /// The reference's name in `--policies`.
    public static let name = "informed"

    /// The reference as a policy: `Policy.ios4` with every band ordered by `BandOrder.externalScore`.
    /// Runs that use it get their scores from ``score(user:model:launchCost:horizon:)``.
    public static var policy: Policy {
        Oracle.reference(
            name: name,
            summary: "reference: ios4's lifecycle, victims by the user's true app weights (known, not learnt)",
            reasonSuffix: "informed: fewest expected opens per byte, from the user's true weights")
    }

    /// The reference with the lifecycle of `policy` instead of `Policy.ios4`'s, named `informed@`
    /// and `policy`'s name (as ``Oracle/policy(lifecycleOf:)``). It keeps `policy`'s horizon
    /// (`ReusePrediction.horizon`), so that its scores (``score(user:model:launchCost:horizon:)``)
    /// price a kill as `policy` does, by the chance of a reopen within that many opens; the rest
    /// of `policy`'s prediction is dropped.
    ///
    /// - Complexity: O(size of `policy`)
    public static func policy(lifecycleOf policy: Policy) -> Policy {
        var reference = Oracle.reference(
            name: name + Oracle.lifecycleSeparator + policy.name,
            summary:
                "reference: \(policy.name)'s lifecycle, victims by the user's true app weights (known, not learnt)",
            reasonSuffix: policy.prediction.horizon.map {
                "informed: least chance of a reopen within \(Event.number($0)) opens per byte, from the user's true weights"
            } ?? "informed: fewest expected opens per byte, from the user's true weights",
            lifecycle: policy)
        reference.prediction.horizon = policy.prediction.horizon
        return reference
    }

    /// Whether `policy` is this reference (its name, `informed` or `informed@…`, and bands scored
    /// from outside).
    ///
    /// - Complexity: O(bands of `policy`)
    public static func isInformed(_ policy: Policy) -> Bool {
        (policy.name == name || policy.name.hasPrefix(name + Oracle.lifecycleSeparator)) && Oracle.isClairvoyant(policy)
    }

    /// The scoring function for `user` of `model`: higher is killed first. Without a `horizon`
    /// an app scores bytes / (p × cost); with a horizon of H opens, bytes / ((1 − (1 − p)^H) ×
    /// cost), p being its share of the next pick.
    ///
    /// - Complexity: O(apps of the user × 24) to build; O(1) per score.
    public static func score(
        user: SimulatedUser, model: PhoneUser, launchCost: LaunchCost, horizon: Double? = nil
    ) -> @Sendable (AppID, Bytes, Double) -> Double {
        // The pick weights of every installed app at every hour of the clock, as in
        // WorkloadGenerator.pickApp(of:model:hour:using:), and each app's share of them.
        var shares = [AppID: [Double]]()
        var totals = [Double](repeating: 0, count: 24)
        var weights: [[Double]] = []
        for (rank, kind) in user.kinds.enumerated() {
            var row = [Double](repeating: 0, count: 24)
            for hour in 0..<24 {
                var weight = exp(-Double(rank) / user.popularityScale)
                if (6..<11).contains(hour) { weight *= model.kinds[kind].morning }
                if hour >= 19 { weight *= model.kinds[kind].evening }
                row[hour] = weight
                totals[hour] += weight
            }
            weights.append(row)
        }
        var launched = [AppID: Bytes]()
        for (index, app) in user.installed.enumerated() {
            shares[app.id] = (0..<24).map { totals[$0] > 0 ? weights[index][$0] / totals[$0] : 0 }
            launched[app.id] = app.footprint
        }
        // How much each hour of the clock counts for the next pick: the user's activity in it
        // (as the generator draws session starts), fading with a 3-hour half-life from now.
        let activity = (0..<24).map { hour -> Double in
            let base =
                model.hourlyActivity.isEmpty ? 1 : max(model.hourlyActivity[hour % model.hourlyActivity.count], 0)
            return base * (user.isAwake(atHour: Double(hour) + 0.5) ? 1 : model.nightActivity)
        }
        let table = shares
        let sizes = launched
        return { app, footprint, now in
            // A relaunch loads the app at its launch size; killing it frees what it has grown to.
            let bytes = Double(max(footprint.value, 1))
            let cost = max(launchCost.cold(footprint: sizes[app] ?? footprint) - launchCost.warmFixed, 1e-9)
            guard let share = table[app] else { return 1e30 + bytes }
            let seconds = now - 86_400 * (now / 86_400).rounded(.down)
            let hour = min(max(Int(seconds / 3600), 0), 23)
            var weighted = 0.0
            var total = 0.0
            for step in 0..<24 {
                let weight = activity[(hour + step) % 24] * pow(0.5, Double(step) / 3)
                weighted += weight * share[(hour + step) % 24]
                total += weight
            }
            let p = total > 0 ? weighted / total : share[hour]
            guard let horizon else { return bytes / (max(p, 1e-12) * cost) }
            let chance = 1 - pow(1 - min(max(p, 0), 1), horizon)
            return bytes / (max(chance, 1e-12) * cost)
        }
    }
}
