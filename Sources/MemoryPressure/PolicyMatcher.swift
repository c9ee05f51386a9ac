/// A policy's bands, protections and preferences with their name patterns compiled, ready to
/// classify apps.
struct PolicyMatcher {
    /// The attributes of an app that matching looks at.
    struct Subject {
        var id: AppID
        var backgroundModes: BackgroundModes
        var oomScoreAdj: Int
        var priority: Int?
    }

    let policy: Policy
    /// Compiled patterns, by pattern text (linear-time matching: see ``NamePattern``).
    private let patterns: [String: NamePattern]
    /// Whether any band, protection or limit matches on names (then an app's classification
    /// depends on its id, and cannot be shared between apps).
    let matchesNames: Bool

    init(policy: Policy) throws(EngineError) {
        self.policy = policy
        var texts: [String] = []
        for band in policy.bands { texts += band.matches.flatMap { $0.names ?? [] } }
        for protection in policy.protections { texts += protection.matches.flatMap { $0.names ?? [] } }
        for limit in policy.limits { texts += limit.matches.flatMap { $0.names ?? [] } }
        texts += (policy.compression?.matches ?? []).flatMap { $0.names ?? [] }
        texts += (policy.compression?.ratios ?? []).flatMap(\.matches).flatMap { $0.names ?? [] }
        texts += policy.preferences.map(\.pattern)
        var compiled: [String: NamePattern] = [:]
        for text in texts where compiled[text] == nil {
            do {
                compiled[text] = try NamePattern(text)
            } catch {
                throw .invalidPattern(text)
            }
        }
        patterns = compiled
        let conditions =
            policy.bands.flatMap(\.matches) + policy.protections.flatMap(\.matches)
            + policy.limits.flatMap(\.matches) + (policy.compression?.matches ?? [])
        matchesNames = conditions.contains { $0.names != nil }
    }

    /// Whether `pattern` matches anywhere in `id`, or in its name part when the id is a live
    /// process's `name[pid]` (so earlyoom-style patterns such as `^chrome$` work).
    func matches(_ pattern: String, _ id: AppID) -> Bool {
        guard let regex = patterns[pattern] else { return false }
        if regex.isFound(in: id.rawValue) { return true }
        guard id.rawValue.hasSuffix("]"), let open = id.rawValue.lastIndex(of: "[") else { return false }
        let digits = id.rawValue[id.rawValue.index(after: open)..<id.rawValue.index(before: id.rawValue.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber) else { return false }
        return regex.isFound(in: String(id.rawValue[..<open]))
    }

    /// Whether `subject` in `state` satisfies `match`.
    func matches(_ match: AppMatch, _ subject: Subject, state: AppState) -> Bool {
        if let states = match.states, !states.contains(state) { return false }
        if let wantsMode = match.hasBackgroundMode, wantsMode == subject.backgroundModes.isEmpty { return false }
        if let modes = match.backgroundModes, !subject.backgroundModes.modes.contains(where: modes.contains) {
            return false
        }
        if let range = match.oomScoreAdj, !range.contains(subject.oomScoreAdj) { return false }
        if let range = match.priority {
            guard let priority = subject.priority, range.contains(priority) else { return false }
        }
        if let names = match.names, !names.contains(where: { matches($0, subject.id) }) { return false }
        return true
    }

    /// Whether `subject` in `state` satisfies any of `alternatives`.
    func matchesAny(_ alternatives: [AppMatch], _ subject: Subject, state: AppState) -> Bool {
        alternatives.contains { matches($0, subject, state: state) }
    }

    /// The protection that covers `subject` in `state`, if any.
    func protection(for subject: Subject, state: AppState) -> Protection? {
        policy.protections.first { matchesAny($0.matches, subject, state: state) }
    }

    /// The band of `subject` in each resident state (``BandTable/none`` when protected or unbanded).
    /// `subject(state)` gives the app's attributes in that state (its derived adj and priority).
    func bandTable(for subject: (AppState) -> Subject) -> BandTable {
        var table = BandTable()
        for state in AppState.allCases where state.isResident {
            let attributes = subject(state)
            guard protection(for: attributes, state: state) == nil else { continue }
            if let band = policy.bands.firstIndex(where: { matchesAny($0.matches, attributes, state: state) }) {
                table[state] = UInt8(band)
            }
        }
        return table
    }

    /// The resident states in which `subject`'s memory may be compressed (``Policy/compression``),
    /// one bit per state (``AppState/compressionBit``); 0 without compression.
    func compressibleStates(for subject: (AppState) -> Subject) -> UInt8 {
        guard let compression = policy.compression else { return 0 }
        var mask: UInt8 = 0
        for state in AppState.allCases where state.isResident {
            if matchesAny(compression.matches, subject(state), state: state) { mask |= state.compressionBit }
        }
        return mask
    }

    /// The first limit that applies to `subject`, if any.
    func limit(for subject: Subject) -> AppLimit? {
        policy.limits.first {
            matchesAny($0.matches, subject, state: .active) || matchesAny($0.matches, subject, state: .suspended)
        }
    }

    /// The sum of the scores of every preference whose pattern matches `id`.
    func preferenceScore(for id: AppID) -> Int {
        policy.preferences.reduce(0) { $0 + (matches($1.pattern, id) ? $1.score : 0) }
    }
}
