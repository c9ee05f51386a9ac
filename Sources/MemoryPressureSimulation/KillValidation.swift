import MemoryPressure

/// How well a policy's kills, replaying a real device's days, match the kills the device really
/// made: precision (of the apps the policy killed in a window, the share the device killed in
/// it too) and recall (of the apps the device killed in a window, the share the policy killed
/// in it too), pooled over every window of every day, for windows of an hour and of a day.
///
/// A window's kills are sets of apps: an app killed twice in one window counts once. Only real
/// kills of apps the user had opened that day can be matched (``RealDeviceDay/kills``).
public struct KillValidation: Sendable {
    /// Pooled counts over windows of one length.
    public struct Counts: Sendable, Hashable {
        /// Apps the policy killed, summed over windows.
        public var simulated = 0
        /// Apps the device killed, summed over windows.
        public var real = 0
        /// Apps both killed in the same window, summed over windows.
        public var matched = 0

        /// `matched / simulated`, or `nil` when the policy killed nothing.
        public var precision: Double? { simulated == 0 ? nil : Double(matched) / Double(simulated) }
        /// `matched / real`, or `nil` when the device killed nothing that could be matched.
        public var recall: Double? { real == 0 ? nil : Double(matched) / Double(real) }

        /// Adds the window whose kills were `simulated` and `real`.
        mutating func add(simulated: Set<AppID>, real: Set<AppID>) {
            self.simulated += simulated.count
            self.real += real.count
            matched += simulated.intersection(real).count
        }
    }

    /// The policy's name.
    public var policy: String
    /// Windows of an hour.
    public var perHour: Counts
    /// Windows of a day.
    public var perDay: Counts

    /// Replays every day of `days` under `policy` and sets its kills against the real ones.
    ///
    /// - Throws: ``ReplayError`` if the engine refuses an action of a day's trace.
    /// - Complexity: the replay of every day's trace, plus O(kills log kills).
    public static func measure(_ days: [RealDeviceDay], policy: Policy) throws -> KillValidation {
        var perHour = Counts()
        var perDay = Counts()
        for day in days {
            var simulated: [(time: Double, app: AppID)] = []
            for event in try Replay.events(day.trace, policy: policy, file: day.date) {
                if case .kill(let app, _, _, _, _) = event.kind { simulated.append((event.time, app)) }
            }
            perDay.add(simulated: Set(simulated.map(\.app)), real: Set(day.kills.map(\.app)))
            var simulatedByHour: [Int: Set<AppID>] = [:]
            var realByHour: [Int: Set<AppID>] = [:]
            for kill in simulated { simulatedByHour[Int(kill.time / 3600), default: []].insert(kill.app) }
            for kill in day.kills { realByHour[Int(kill.time / 3600), default: []].insert(kill.app) }
            for hour in Set(simulatedByHour.keys).union(realByHour.keys) {
                perHour.add(simulated: simulatedByHour[hour] ?? [], real: realByHour[hour] ?? [])
            }
        }
        return KillValidation(policy: policy.name, perHour: perHour, perDay: perDay)
    }
}
