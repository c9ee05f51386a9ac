import MemoryPressure

/// A policy's ranking of the machine a real report shows, set against what really died.
public struct EvidenceRanking: Sendable {
    /// The policy's name.
    public var policy: String
    /// The whole kill order of the rebuilt snapshot.
    public var order: [KillCandidate]
    /// The apps the policy never kills, with the reason.
    public var protected: [(app: AppID, reason: String)]
    /// The rebuilt machine's free memory and level under the policy.
    public var free: Bytes, level: PressureLevel

    /// Ranks the snapshot of `evidence` under `policy` (with the killer's own
    /// ``ReportEvidence/preferences`` added to the policy's, unless it has them already), or
    /// returns `nil` when the report holds no process list.
    ///
    /// - Throws: `EngineError` if the engine refuses the rebuilt snapshot (a size past its limits).
    /// - Complexity: O(n log n) for n processes.
    public init?(_ evidence: ReportEvidence, policy: Policy) throws(EngineError) {
        guard let snapshot = evidence.snapshot else { return nil }
        var policy = policy
        // A policy that already states the killer's preference (a policy file written for this
        // machine) does not get it twice.
        policy.preferences += evidence.preferences.filter { !policy.preferences.contains($0) }
        let engine = try PressureEngine(snapshot: snapshot, policy: policy)
        self.policy = policy.name
        order = engine.killOrder(limit: Int.max)
        if let generation = evidence.generationOrder, generation.policy == policy.name {
            // The killer's own generation ranked by another rule: its order, the policy's rows.
            var position: [AppID: Int] = [:]
            for (index, app) in generation.order.enumerated() { position[app] = index }
            order.sort { (position[$0.app] ?? Int.max, $0.rank) < (position[$1.app] ?? Int.max, $1.rank) }
            for index in order.indices {
                order[index].rank = index + 1
                if let raw = evidence.killerScores[order[index].app], raw <= 0 {
                    order[index].reason = "oom_badness \(raw) pages, \(generation.rule)"
                }
            }
        }
        protected = engine.protectedApps()
        free = engine.free
        level = engine.levelForFreeMemory
    }

    /// The 1-based rank of `app` in ``order``, or `nil` if the policy would never kill it.
    ///
    /// - Complexity: O(n)
    public func rank(of app: AppID) -> Int? {
        order.first { $0.app == app }?.rank
    }

    /// "first", "2nd", "3rd", "11th" …
    ///
    /// - Complexity: O(1)
    public static func ordinal(_ rank: Int) -> String {
        if rank == 1 { return "first" }
        let suffix: String
        switch (rank % 10, rank % 100) {
        case (1, let teen) where teen != 11: suffix = "st"
        case (2, let teen) where teen != 12: suffix = "nd"
        case (3, let teen) where teen != 13: suffix = "rd"
        default: suffix = "th"
        }
        return "\(rank)\(suffix)"
    }

    /// How the policy's ranking meets each real kill, in a sentence: "the kernel killed big[5928];
    /// linux-oom ranks it first", or where it ranks it and what puts the policy's first choice
    /// ahead (the band, the band's order, and the real killer's own scores where the report
    /// gives them).
    ///
    /// - Complexity: O(n) per killed process
    public func verdicts(for evidence: ReportEvidence) -> [String] {
        // Several kills chosen at once (a JetsamEvent's batch) agree when they are the policy's
        // first that many.
        let choices = evidence.killed.filter(\.isChoice).count
        return evidence.killed.map { killed in
            let who = killed.app?.rawValue ?? "\(killed.name)" + (killed.pid.map { "[\($0)]" } ?? "")
            var text = "\(evidence.format.killer) killed \(who)"
            if let reason = killed.reason { text += " (\(reason))" }
            text += "; "
            guard killed.isChoice else {
                return text + "it passed its own memory limit, which is not a choice among processes: "
                    + "a ranking does not apply"
            }
            guard let app = killed.app else {
                return text + "it is not in the report's process list, so \(policy) cannot rank it"
            }
            if let reason = protected.first(where: { $0.app == app })?.reason {
                return text + "\(policy) never kills it (\(reason))"
            }
            guard let rank = rank(of: app), let first = order.first else {
                return text + "\(policy) does not rank it"
            }
            text += "\(policy) ranks it \(Self.ordinal(rank))"
            if choices > 1 {
                text +=
                    rank <= choices
                    ? ", within its first \(choices) (the kills of this report)" : ", after its first \(choices)"
            }
            guard rank > 1, let mine = order.first(where: { $0.app == app }) else { return text }
            text += "; its first choice is \(first.app.rawValue)"
            if first.band != mine.band {
                text += ", in band \(first.band), which it empties before band \(mine.band)"
            } else {
                text += " (\(first.reason))"
            }
            if let theirs = evidence.killerScores[first.app], let ours = evidence.killerScores[app] {
                text +=
                    "; \(evidence.killerScoreName) from the report: \(first.app.rawValue) \(theirs), \(app.rawValue) \(ours)"
            }
            return text
        }
    }
}
