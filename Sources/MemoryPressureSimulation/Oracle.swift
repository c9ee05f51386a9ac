import MemoryPressure
import MemoryPressureFormats

/// The clairvoyant reference of `compare`: it knows the rest of the trace. At every kill it
/// removes the resident app whose loss costs the least future launch wait per byte freed —
/// Belady's rule ("A study of replacement algorithms for a virtual-storage computer", IBM Systems
/// Journal 1966: evict what is used furthest in the future) weighted by cost: the victim is the
/// app with the largest (time until it is next opened) × bytes / (cold − warm launch seconds);
/// apps never opened again go first, the largest of them first.
///
/// It obeys the lifecycle of `Policy.ios4` (the same thresholds, warnings, purges and bands:
/// suspended apps before background ones, the foreground app last and only after it ignored both
/// warnings); only the order inside a band is clairvoyant. With apps of different sizes and
/// costs the offline optimum is NP-hard, so this is a heuristic, not a proven bound (the tests
/// compare it with an exhaustive search on small traces).
public enum Oracle {
    /// The oracle's name in `--policies`.
    public static let name = "oracle"

    /// The oracle as a policy: `Policy.ios4` with every band ordered by
    /// `BandOrder.externalScore`. Runs that use it get their scores from ``score(for:launchCost:)``.
    public static var policy: Policy {
        reference(
            name: name,
            summary: "clairvoyant reference: ios4's lifecycle, the victim whose loss costs least future wait per byte",
            reasonSuffix: "oracle: reopened furthest in the future per byte")
    }

    /// The name of the oracle that also prewarms, in `--policies`.
    public static let prewarmingName = "oracle-prewarm"

    /// The oracle with prewarming (`Prewarm`): after each open it launches into the background
    /// the app the user really opens next, if that app is not in memory, under the rule of
    /// `Examples/policies/predictive-prewarm.yaml` — at most one waiting unopened, free memory left
    /// at 20 % or more. It bounds what a policy that chooses victims and prewarms can do, as
    /// ``policy`` bounds victim choice alone. Runs that use it get their chances from
    /// ``prewarmChance(openTimes:)``.
    public static var prewarmingPolicy: Policy { prewarmingPolicy(lifecycleOf: .ios4, name: prewarmingName) }

    /// ``prewarmingPolicy`` with the lifecycle of `policy` instead of `Policy.ios4`'s (as
    /// ``policy(lifecycleOf:)``), named `oracle-prewarm@` and `policy`'s name: the like-for-like
    /// reference for a policy that prewarms under that lifecycle.
    ///
    /// - Complexity: O(size of `policy`)
    public static func prewarmingPolicy(lifecycleOf policy: Policy) -> Policy {
        prewarmingPolicy(lifecycleOf: policy, name: prewarmingName + lifecycleSeparator + policy.name)
    }

    private static func prewarmingPolicy(lifecycleOf base: Policy, name: String) -> Policy {
        var policy = reference(
            name: name,
            summary:
                "clairvoyant reference with prewarming: the oracle with \(base.name)'s lifecycle, and the app opened next launched ahead",
            reasonSuffix: "oracle: reopened furthest in the future per byte",
            lifecycle: base)
        policy.prediction.prewarm = Prewarm(chance: 1, freeAbove: .percent(20), unopened: 1)
        return policy
    }

    /// The prewarm chances of ``prewarmingPolicy`` from the open times of every app
    /// (``openTimes(of:)``): 1 for the app of the first open after the engine's time, 0 for
    /// every other.
    ///
    /// - Complexity: O(opens × log opens) to build; O(log opens) per chance.
    public static func prewarmChance(openTimes table: [AppID: [Double]]) -> @Sendable (AppID, Double) -> Double {
        // Every open in time order (the app of the earliest open at a time that several share).
        let opens = table.flatMap { app, times in times.map { (time: $0, app: app) } }
            .sorted { ($0.time, $0.app) < ($1.time, $1.app) }
        let times = opens.map(\.time)
        let apps = opens.map(\.app)
        return { app, now in
            let next = firstIndexAfter(now, in: times)
            return next < apps.count && apps[next] == app ? 1 : 0
        }
    }

    /// Gives `engine`, which follows a clairvoyant `policy` (``isClairvoyant(_:)``), what it reads
    /// of the future: the oracle's scores and, if the policy prewarms, the chances of
    /// ``prewarmChance(openTimes:)``.
    ///
    /// - Complexity: O(opens × log opens)
    static func equip(_ engine: PressureEngine, policy: Policy, openTimes: [AppID: [Double]], launchCost: LaunchCost) {
        engine.externalScore = score(openTimes: openTimes, launchCost: launchCost)
        if policy.prediction.prewarm != nil { engine.prewarmChance = prewarmChance(openTimes: openTimes) }
    }

    /// The oracle with the lifecycle of `policy` instead of `Policy.ios4`'s: its thresholds,
    /// warnings, purges, kill rule, bands and everything else, with every band ordered by
    /// `BandOrder.externalScore` (and, with compression, reclaim's order too:
    /// `MemoryCompression.Order.externalScore`, the app reopened furthest in the future per byte
    /// compressed first). Named `oracle@` and `policy`'s name. It bounds what a choice of
    /// victims can do under that lifecycle, which is the like-for-like reference for a policy
    /// that changes both the order and the lifecycle.
    ///
    /// - Complexity: O(size of `policy`)
    public static func policy(lifecycleOf policy: Policy) -> Policy {
        reference(
            name: name + lifecycleSeparator + policy.name,
            summary:
                "clairvoyant reference: \(policy.name)'s lifecycle, the victim whose loss costs least future wait per byte",
            reasonSuffix: "oracle: reopened furthest in the future per byte",
            lifecycle: policy)
    }

    /// What joins a reference's name to the name of the policy whose lifecycle it keeps
    /// (`oracle@predictive`).
    public static let lifecycleSeparator = "@"

    /// Whether `name` names the oracle: `oracle`, or `oracle@` followed by the name of the policy
    /// whose lifecycle it keeps (``policy(lifecycleOf:)``). The oracle that prewarms is not one.
    ///
    /// - Complexity: O(length of `name`)
    public static func isOracleName(_ name: String) -> Bool {
        name == Self.name || name.hasPrefix(Self.name + lifecycleSeparator)
    }

    /// Whether `name` names the oracle that prewarms: `oracle-prewarm`, or `oracle-prewarm@`
    /// followed by the name of the policy whose lifecycle it keeps (``prewarmingPolicy(lifecycleOf:)``).
    ///
    /// - Complexity: O(length of `name`)
    public static func isPrewarmingName(_ name: String) -> Bool {
        name == prewarmingName || name.hasPrefix(prewarmingName + lifecycleSeparator)
    }

    /// A reference that shares `lifecycle`'s lifecycle (`Policy.ios4`'s by default) and orders
    /// every band by `BandOrder.externalScore` (its host supplies the scores), each band's reason
    /// followed by `reasonSuffix` in parentheses, and reclaim (with compression) by the same
    /// scores: the oracle and ``Informed``. What `lifecycle` would learn (`Policy/prediction`) is
    /// dropped, and its prewarming with it.
    static func reference(name: String, summary: String, reasonSuffix: String, lifecycle: Policy = .ios4) -> Policy {
        var policy = lifecycle
        policy.prediction = Policy.ios4.prediction
        policy.name = name
        policy.summary = summary
        for index in policy.bands.indices {
            policy.bands[index].order = .externalScore
            policy.bands[index].reason += " (\(reasonSuffix))"
        }
        // What reclaim compresses first is chosen by the same foresight.
        policy.compression?.order = .externalScore
        return policy
    }

    /// The scoring function for `trace`: for an app at time `now`, (time to its next open) ×
    /// bytes / (cold − warm seconds), or a score above every finite one when it is never opened
    /// again.
    ///
    /// - Complexity: O(entries) to build; O(log opens of the app) per score.
    public static func score(for trace: Trace, launchCost: LaunchCost) -> @Sendable (AppID, Bytes, Double) -> Double {
        score(openTimes: openTimes(of: trace), launchCost: launchCost)
    }

    /// The time of every `open` and `launch` of every app of `trace`, in trace order: all the
    /// oracle knows of the future.
    ///
    /// - Complexity: O(entries)
    public static func openTimes(of trace: Trace) -> [AppID: [Double]] {
        var opens: [AppID: [Double]] = [:]
        for entry in trace.entries { noteOpen(entry, in: &opens) }
        return opens
    }

    /// Adds `entry`'s time to `opens` if it is an `open` or a `launch` (for a trace read one
    /// entry at a time).
    ///
    /// - Complexity: O(1) amortized.
    public static func noteOpen(_ entry: Trace.Entry, in opens: inout [AppID: [Double]]) {
        switch entry.action {
        case .open(let launch), .launch(let launch): opens[launch.id, default: []].append(entry.time)
        default: break
        }
    }

    /// The scoring function of ``score(for:launchCost:)`` from the open times of every app
    /// (``openTimes(of:)``, in time order).
    ///
    /// - Complexity: O(log opens of the app) per score.
    public static func score(
        openTimes table: [AppID: [Double]], launchCost: LaunchCost
    ) -> @Sendable (AppID, Bytes, Double) -> Double {
        return { app, footprint, now in
            let bytes = Double(max(footprint.value, 1))
            let cost = max(launchCost.cold(footprint: footprint) - launchCost.warmFixed, 1e-9)
            guard let times = table[app], let next = firstAfter(now, in: times) else { return 1e30 + bytes }
            return (next - now) * bytes / cost
        }
    }

    /// The first time in sorted `times` strictly after `now`.
    static func firstAfter(_ now: Double, in times: [Double]) -> Double? {
        let index = firstIndexAfter(now, in: times)
        return index < times.count ? times[index] : nil
    }

    /// The index of the first time in sorted `times` strictly after `now` (`times.count` if none).
    static func firstIndexAfter(_ now: Double, in times: [Double]) -> Int {
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= now { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether `policy` needs clairvoyant scores (a band ordered by `BandOrder.externalScore`).
    ///
    /// - Complexity: O(bands of `policy`)
    public static func isClairvoyant(_ policy: Policy) -> Bool {
        policy.bands.contains { $0.order == .externalScore }
    }
}
