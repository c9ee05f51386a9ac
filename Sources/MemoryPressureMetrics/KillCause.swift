import MemoryPressure

/// The bounded labels of one kill: a kill event's `reason` is free text with per-kill figures in
/// it (footprints, scores, ages — see `PressureEngine.reason(forKilling:)` in
/// `PressureEngine+Report.swift`), so it cannot be a label value; it is reduced to why the app was
/// killed and which of the policy's bands it was taken from.
struct KillCause: Hashable {
    /// `pressure`, `memory_limit_fatal` or `memory_limit_soft`.
    var reason: String
    /// The policy band's name for a pressure kill (`unknown` if no band's reason matches; `none`
    /// for a kill by systemd-oomd's memory-pressure rule, which reads no band), `none`
    /// for a memory-limit kill.
    var band: String

    /// The `reason` label of a kill for free memory below the kill threshold.
    static let pressure = "pressure"
    /// The `reason` label of a kill of an app over a fatal memory limit.
    static let memoryLimitFatal = "memory_limit_fatal"
    /// The `reason` label of a kill of an app over a soft memory limit.
    static let memoryLimitSoft = "memory_limit_soft"
    /// The `band` label of a memory-limit kill.
    static let noBand = "none"
    /// The `band` label of a pressure kill whose reason matches no band of the policy.
    static let unknownBand = "unknown"
}

/// Finds the band of a kill from its reason text, using the policy's bands.
struct KillClassifier {
    /// The text each band's kill reasons start with, with the band's name, longest text first
    /// (a band ordered by `oomScore` writes `oom_score N` instead of its own reason).
    private let prefixes: [(text: String, band: String)]

    /// A classifier for `policy`'s bands.
    ///
    /// - Complexity: O(b log b) for b bands.
    init(policy: Policy) {
        let all = policy.bands.enumerated().map { position, band in
            (text: band.order == .oomScore ? "oom_score " : band.reason, band: band.name, position: position)
        }
        // Longest prefix first; among equal prefixes the policy's first band wins.
        prefixes = all.sorted { ($0.text.count, -$0.position) > ($1.text.count, -$1.position) }
            .map { (text: $0.text, band: $0.band) }
    }

    /// The labels of a kill whose reason is `reason`.
    ///
    /// - Complexity: O(b × length of the reason) for b bands.
    func cause(of reason: String) -> KillCause {
        // PressureEngine+Report.swift, reason(forKilling:): "over its <active|inactive> memory
        // limit of <amount> (<fatal|soft>)".
        if reason.hasPrefix("over its ") && reason.contains(" memory limit of ") {
            let fatal = reason.hasSuffix("(fatal)")
            return KillCause(
                reason: fatal ? KillCause.memoryLimitFatal : KillCause.memoryLimitSoft, band: KillCause.noBand)
        }
        // systemd-oomd's memory-pressure rule picks its victim outside the bands.
        if reason.hasPrefix(MemoryPressureLimit.killReasonPrefix) {
            return KillCause(reason: KillCause.pressure, band: KillCause.noBand)
        }
        let band = prefixes.first { reason.hasPrefix($0.text) }?.band ?? KillCause.unknownBand
        return KillCause(reason: KillCause.pressure, band: band)
    }
}
