/// Checks that a policy built in code could have come from a policy file: the same rules, with the
/// file loader's wording, each problem located by its field path.
extension Policy {
    /// Every problem of the policy, in the order of the schema; empty when it is valid.
    ///
    /// - Complexity: O(bands + protections + limits)
    public var problems: [InputError] {
        var problems: [InputError] = []
        func problem(_ path: String, _ message: String) {
            problems.append(
                InputError(file: name.isEmpty ? "<policy>" : name, line: 0, column: 0, path: path, message: message))
        }
        if name.allSatisfy(\.isWhitespace) { problem("name", "key \"name\": expected a non-empty text") }
        var previous: (level: PressureLevel, enter: MemoryAmount)? = nil
        for level in [PressureLevel.warning, .urgent, .critical] {
            guard let threshold = thresholds[level] else { continue }
            let order = MemoryAmount.compare(threshold.enter, threshold.clear)
            if !(order == .less || (comparison == .atOrBelow && order == .same)) {
                problem(
                    "thresholds.\(level.name)",
                    "expected \"clear\" (\(threshold.clear)) above \"enter\" (\(threshold.enter)): a level is left only "
                        + "above where it is entered")
            }
            if let previous, MemoryAmount.compare(threshold.enter, previous.enter) != .less {
                problem(
                    "thresholds.\(level.name)",
                    "threshold out of order: \(level.name) is entered below \(threshold.enter) free, expected less than "
                        + "\(previous.level.name)'s \(previous.enter) (a higher level needs less free memory)")
            }
            previous = (level, threshold.enter)
        }
        if thresholds.warning == nil && thresholds.urgent == nil && thresholds.critical == nil {
            problem("thresholds", "expected at least one level: warning, urgent or critical")
        }
        if bands.isEmpty { problem("bands", "expected at least one band") }
        if bands.count > 127 { problem("bands", "expected at most 127 bands, found \(bands.count)") }
        var names: Set<String> = []
        for (index, band) in bands.enumerated() {
            let path = "bands[\(index)]"
            if band.name.allSatisfy(\.isWhitespace) { problem(path, "key \"name\": expected a non-empty text") }
            if !names.insert(band.name).inserted { problem(path, "band name \"\(band.name)\" appears twice") }
            if band.reason.isEmpty { problem(path, "key \"reason\": expected a non-empty text") }
            if band.slotsByOomScoreAdj && band.slotsByPriority {
                problem(path, "expected slotsByOomScoreAdj or slotsByPriority, not both")
            }
            if band.killUntil != nil && band.killBelow == nil {
                problem(path, "\"killUntil\" needs \"killBelow\" (where the band's kills start)")
            }
            if let floor = band.minimumSwapPercent {
                if !(0...100 ~= floor) {
                    problem(path + ".minimumSwapPercent", "expected 0...100 % of swap, found \(floor)")
                }
                if compression?.mechanism.isSwap != true {
                    problem(path + ".minimumSwapPercent", Band.swapFloorNeedsSwap)
                }
            }
            if let start = band.killBelow, let stop = band.killUntil, case .fixed(let low) = start,
                case .fixed(let high) = stop, MemoryAmount.compare(high, low) == .less
            {
                problem(path, "expected \"killUntil\" (\(high)) at or above \"killBelow\" (\(low))")
            }
        }
        for (state, adj) in oomScoreAdjByState where !(-1000...1000).contains(adj) {
            problem("oomScoreAdjByState.\(state.rawValue)", "expected an integer from -1000 to 1000, found \(adj)")
        }
        for (index, preference) in preferences.enumerated() where !(-1000...1000).contains(preference.score) {
            problem("preferences[\(index)].score", "expected an integer from -1000 to 1000, found \(preference.score)")
        }
        if !(relaunch.halfLife >= 1 && relaunch.halfLife <= 31_536_000) {
            problem("relaunch.halfLife", "expected 1.0...31536000.0, found \(relaunch.halfLife)")
        }
        for (key, value) in [
            ("prior", relaunch.prior), ("coldFixed", relaunch.coldFixed), ("coldPerMiB", relaunch.coldPerMiB),
            ("warmFixed", relaunch.warmFixed),
        ] where !(value >= 0 && value.isFinite) {
            problem("relaunch.\(key)", "expected a finite number ≥ 0, found \(value)")
        }
        if !(ReusePrediction.halfLifeRange ~= prediction.halfLife) {
            problem("prediction.halfLife", "expected 60...31536000 seconds, found \(prediction.halfLife)")
        }
        if !(ReusePrediction.priorRange ~= prediction.prior) {
            problem("prediction.prior", "expected 0...1000 opens, found \(prediction.prior)")
        }
        if !(ReusePrediction.hoursAheadRange ~= prediction.hoursAhead) {
            problem("prediction.hoursAhead", "expected 1...24, found \(prediction.hoursAhead)")
        }
        if let horizon = prediction.horizon, !(ReusePrediction.horizonRange ~= horizon) {
            problem("prediction.horizon", "expected 1...1000 opens, found \(horizon)")
        }
        // Whether a band keeps the prediction's books, which the compression switches read.
        let readsPrediction = bands.contains { $0.order == .predictedReuse }
        if let limit = prediction.killInsteadOfCompressingAbove {
            if !(ReusePrediction.killInsteadOfCompressingRange ~= limit) {
                problem("prediction.killInsteadOfCompressingAbove", "expected 1...1000000 opens, found \(limit)")
            }
            if compression == nil || !readsPrediction {
                problem(
                    "prediction.killInsteadOfCompressingAbove",
                    "needs a \"compression\" section and a band ordered by predictedReuse (the prediction it reads)")
            }
        }
        if let rule = prediction.prewarm {
            if !(Prewarm.chanceRange ~= rule.chance) {
                problem("prediction.prewarm.chance", "expected 0.001...1, found \(rule.chance)")
            }
            if !(Prewarm.unopenedRange ~= rule.unopened) {
                problem("prediction.prewarm.unopened", "expected 1...16, found \(rule.unopened)")
            }
            if case .percent(let percent) = rule.freeAbove, !(0...100 ~= percent) {
                problem("prediction.prewarm.freeAbove", "expected 0...100 %, found \(percent)")
            }
            if case .bytes(let bytes) = rule.freeAbove, bytes.value < 0 {
                problem("prediction.prewarm.freeAbove", "expected a size ≥ 0, found \(bytes.value)")
            }
            if !bands.contains(where: { $0.order == .predictedReuse || $0.order == .externalScore }) {
                problem(
                    "prediction.prewarm",
                    "needs a band ordered by predictedReuse (the prediction it reads) or by externalScore (whose host gives the chances)"
                )
            }
        }
        if compression?.order == .predictedReuse && !readsPrediction {
            problem(
                "compression.order", "predictedReuse needs a band ordered by predictedReuse (the prediction it reads)")
        }
        for (path, message) in compression?.problems ?? [] { problem(path, message) }
        for (path, message) in psi?.problems ?? [] { problem(path, message) }
        for (path, message) in memoryPressureLimit?.problems ?? [] { problem(path, message) }
        if psi != nil {
            for (index, band) in bands.enumerated() where band.killBelow != nil {
                problem(
                    "bands[\(index)].killBelow",
                    "a policy with \"psi\" kills by mp_event_psi()'s rules; expected no minfree level (killBelow)")
            }
        }
        return problems
    }

    /// Checks the policy as the file loader does (``problems``); every ``PressureEngine`` checks
    /// its policy this way, so a policy built in code is refused with the loader's messages
    /// instead of trapping later.
    ///
    /// - Throws: ``PolicyErrors`` listing every problem.
    /// - Complexity: O(bands + protections + limits)
    public func validate() throws(PolicyErrors) {
        let problems = self.problems
        guard problems.isEmpty else { throw PolicyErrors(problems: problems) }
    }
}
