import MemoryPressure

/// A policy written out in full as YAML (every default filled in), in the schema that
/// `Policy(yaml:file:)` reads: the output of `policy show` loads back to the same policy.
public enum PolicyYAML {
    /// `policy` as YAML, every key written out.
    ///
    /// - Complexity: O(size of the policy)
    public static func render(_ policy: Policy) -> String {
        var out = "name: \(quote(policy.name))\nsummary: \(quote(policy.summary))\n"
        out += "comparison: \(policy.comparison.rawValue)\n\nthresholds:\n"
        for level in [PressureLevel.warning, .urgent, .critical] {
            guard let threshold = policy.thresholds[level] else { continue }
            let swap = threshold.swapFree.map { ", swapFree: \($0)" } ?? ""
            out += "  \(level.name): { enter: \(threshold.enter), clear: \(threshold.clear)\(swap) }\n"
        }
        out += "\nwarn:\n"
        for level in [PressureLevel.warning, .urgent, .critical] {
            out += "  \(level.name): \((policy.warnings[level] ?? .none).rawValue)\n"
        }
        out += "\npurge:\n"
        for level in [PressureLevel.warning, .urgent, .critical] {
            let actions = policy.purges[level] ?? []
            var names: [String] = []
            if actions.contains(.offscreenViews) { names.append("offscreenViews") }
            if actions.contains(.purgeableCaches) { names.append("purgeableCaches") }
            if actions.contains(.suspendedOffscreenViews) { names.append("suspendedOffscreenViews") }
            out += "  \(level.name): [\(names.joined(separator: ", "))]\n"
        }
        out += "\nkill:\n  startLevel: \(policy.kills.startLevel.name)\n  target: \(policy.kills.target)\n"
        out += "  foregroundNeedsIgnoredWarnings: \(policy.kills.foregroundNeedsIgnoredWarnings)\n"
        if !policy.kills.notices.isEmpty {
            let notices = [PressureLevel.warning, .urgent, .critical].compactMap { level in
                policy.kills.notices[level].map { "\(level.name): \($0.rawValue)" }
            }
            out += "  notices: { \(notices.joined(separator: ", ")) }\n"
        }
        out += byState("oomScoreAdjByState", policy.oomScoreAdjByState)
        out += byState("priorityByState", policy.priorityByState)
        out += byMode("oomScoreAdjByBackgroundMode", policy.oomScoreAdjByBackgroundMode)
        out += byMode("priorityByBackgroundMode", policy.priorityByBackgroundMode)
        out += "\nbands:\n"
        for band in policy.bands {
            out += "  - name: \(quote(band.name))\n    match: \(matches(band.matches))\n"
            out += "    order: \(band.order.rawValue)\n    reason: \(quote(band.reason))\n"
            out += "    slotsByOomScoreAdj: \(band.slotsByOomScoreAdj)\n"
            out += "    slotsByPriority: \(band.slotsByPriority)\n"
            // A band with its own start and stop points ignores the kill rule's level.
            if let start = band.killBelow {
                out += "    killBelow: \(start)\n    killUntil: \(band.killUntil ?? start)\n"
            } else {
                out += "    killableFrom: \((band.killableFrom ?? policy.kills.startLevel).name)\n"
            }
            out += "    ties: \(band.effectiveTies.rawValue)\n"
            if let floor = band.minimumSwapPercent { out += "    minimumSwapPercent: \(number(floor))\n" }
        }
        out += "\nprotect:" + (policy.protections.isEmpty ? " []\n" : "\n")
        for protection in policy.protections {
            out += "  - match: \(matches(protection.matches))\n    reason: \(quote(protection.reason))\n"
        }
        out += "\npreferences:" + (policy.preferences.isEmpty ? " []\n" : "\n")
        for preference in policy.preferences {
            out += "  - { pattern: \(quote(preference.pattern)), score: \(preference.score) }\n"
        }
        out += "\nlimits:" + (policy.limits.isEmpty ? " []\n" : "\n")
        for limit in policy.limits {
            out += "  - match: \(matches(limit.matches))\n"
            if let active = limit.active { out += "    active: \(active)\n" }
            if let inactive = limit.inactive { out += "    inactive: \(inactive)\n" }
            out += "    fatal: \(limit.fatal)\n"
        }
        // Only policies that order a band by expected relaunch cost or predicted reuse read the model.
        if policy.bands.contains(where: { $0.order == .expectedRelaunchCost || $0.order == .predictedReuse }) {
            let model = policy.relaunch
            out += "\nrelaunch: { halfLife: \(number(model.halfLife)), prior: \(number(model.prior)), "
            out += "coldFixed: \(number(model.coldFixed)), coldPerMiB: \(number(model.coldPerMiB)), "
            out += "warmFixed: \(number(model.warmFixed)) }\n"
        }
        // Only policies that order a band by predicted reuse read the prediction model.
        if policy.bands.contains(where: { $0.order == .predictedReuse }) {
            let model = policy.prediction
            out += "\nprediction: { halfLife: \(number(model.halfLife)), prior: \(number(model.prior)), "
            out += "timeOfDay: \(model.timeOfDay), hoursAhead: \(model.hoursAhead), transitions: \(model.transitions)"
            if let horizon = model.horizon { out += ", horizon: \(number(horizon))" }
            if let limit = model.killInsteadOfCompressingAbove {
                out += ", killInsteadOfCompressingAbove: \(number(limit))"
            }
            if let rule = model.prewarm {
                out +=
                    ", prewarm: { chance: \(number(rule.chance)), freeAbove: \(rule.freeAbove), unopened: \(rule.unopened) }"
            }
            out += " }\n"
        }
        if let model = policy.compression {
            out += "\ncompression:\n  mechanism: \(model.mechanism.rawValue)\n  match: \(matches(model.matches))\n"
            if model.order != .leastRecentlyUsed { out += "  order: \(model.order.rawValue)\n" }
            out += "  capacity: \(model.capacity)\n  ratio: \(number(model.ratio))\n"
            if !model.ratios.isEmpty {
                out += "  ratios:\n"
                for entry in model.ratios {
                    out += "    - { match: \(matches(entry.matches)), ratio: \(number(entry.ratio)) }\n"
                }
            }
            out += "  compressible: \(number(model.compressible))\n"
            out += "  startBelow: \(model.startBelow)\n  stopAt: \(model.stopAt)\n"
            out += "  compressSecondsPerMiB: \(number(model.compressSecondsPerMiB))\n"
            out += "  decompressSecondsPerMiB: \(number(model.decompressSecondsPerMiB))\n"
            if let shortageAt = model.shortageAt { out += "  shortageAt: \(number(shortageAt))\n" }
            if model.fileBacked > 0 { out += "  fileBacked: \(number(model.fileBacked))\n" }
            if model.refaultSecondsPerMiB > 0 {
                out += "  refaultSecondsPerMiB: \(number(model.refaultSecondsPerMiB))\n"
            }
            if let freezer = model.freezer {
                out += "  freezer: { minimum: \(freezer.minimum.value), maxFrozen: \(freezer.maxFrozen), "
                out += "dailyBudget: \(freezer.dailyBudget.value), suspendedThreshold: \(freezer.suspendedThreshold), "
                out += "writeSecondsPerMiB: \(number(freezer.writeSecondsPerMiB)), "
                out += "thawSecondsPerMiB: \(number(freezer.thawSecondsPerMiB)) }\n"
            }
            if let pool = model.zswapPool { out += "  zswapPool: \(pool)\n" }
            if let seconds = model.swapInSecondsPerMiB { out += "  swapInSecondsPerMiB: \(number(seconds))\n" }
            if let percent = model.zswapAcceptThresholdPercent {
                out += "  zswapAcceptThresholdPercent: \(number(percent))\n"
            }
            if let rule = model.thrashing {
                out += "  thrashing: { pageSize: \(rule.pageSize.value), sampleMinMs: \(number(rule.sampleMinMs)), "
                out += "sampleMaxMs: \(number(rule.sampleMaxMs)), minimumPer10ms: \(number(rule.minimumPer10ms)), "
                out += "thresholdPer10ms: \(number(rule.thresholdPer10ms)) }\n"
            }
        }
        if let psi = policy.psi {
            out +=
                "\npsi:\n  partialStallMs: \(number(psi.partialStallMs))\n  completeStallMs: \(number(psi.completeStallMs))\n"
            out += "  thrashingLimit: \(psi.thrashingLimit)\n  thrashingLimitDecay: \(psi.thrashingLimitDecay)\n"
            out += "  thrashingLimitCritical: \(psi.thrashingLimitCritical)\n"
            out += "  swapFreeLowPercentage: \(psi.swapFreeLowPercentage)\n  perceptibleAdj: \(psi.perceptibleAdj)\n"
            out += "  windowSeconds: \(number(psi.windowSeconds))\n"
        }
        if let rule = policy.memoryPressureLimit {
            out += "\nmemoryPressureLimit:\n  limitPercent: \(number(rule.limitPercent))\n"
            out +=
                "  durationSeconds: \(number(rule.durationSeconds))\n  intervalSeconds: \(number(rule.intervalSeconds))\n"
            out += "  reclaimWithinSeconds: \(number(rule.reclaimWithinSeconds))\n"
            out += "  postKillDelaySeconds: \(number(rule.postKillDelaySeconds))\n"
        }
        return out
    }

    /// A number as YAML: integers without a decimal point.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func byState(_ key: String, _ values: [AppState: Int]) -> String {
        guard !values.isEmpty else { return "" }
        let order: [AppState] = [.active, .inactive, .background, .suspended]
        let items = order.compactMap { state in values[state].map { "\(state.rawValue): \($0)" } }
        return "\n\(key): { \(items.joined(separator: ", ")) }\n"
    }

    private static func byMode(_ key: String, _ values: [BackgroundMode: Int]) -> String {
        guard !values.isEmpty else { return "" }
        let items = values.keys.sorted().map { "\($0.rawValue): \(values[$0]!)" }
        return "\n\(key): { \(items.joined(separator: ", ")) }\n"
    }

    private static func matches(_ alternatives: [AppMatch]) -> String {
        alternatives.count == 1 ? match(alternatives[0]) : "[" + alternatives.map(match).joined(separator: ", ") + "]"
    }

    private static func match(_ match: AppMatch) -> String {
        var parts: [String] = []
        if let states = match.states {
            let order: [AppState] = [.active, .inactive, .background, .suspended]
            parts.append("states: [\(order.filter(states.contains).map(\.rawValue).joined(separator: ", "))]")
        }
        if let mode = match.hasBackgroundMode { parts.append("backgroundMode: \(mode)") }
        if let modes = match.backgroundModes {
            parts.append("backgroundModes: [\(modes.sorted().map(\.rawValue).joined(separator: ", "))]")
        }
        if let range = match.oomScoreAdj { parts.append("oomScoreAdj: [\(range.lowerBound), \(range.upperBound)]") }
        if let range = match.priority { parts.append("priority: [\(range.lowerBound), \(range.upperBound)]") }
        if let names = match.names { parts.append("names: [\(names.map(quote).joined(separator: ", "))]") }
        return "{ \(parts.joined(separator: ", ")) }"
    }

    /// A double-quoted YAML string.
    private static func quote(_ text: String) -> String { Event.json(text) }
}
