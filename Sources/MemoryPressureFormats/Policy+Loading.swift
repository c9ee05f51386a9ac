import MemoryPressure

extension Policy {
    /// Loads a policy from YAML (or JSON) text. The schema is documented in README.md ("The
    /// model", the paragraph after the policy table); the shipped files in `policies/` use it.
    ///
    /// Everything is validated: unknown keys, wrong types, thresholds out of order (urgent above
    /// warning, clear below enter — or equal, unless the comparison is `atOrBelow`), kills
    /// starting at a level the policy never enters, an empty band list, duplicate band names,
    /// regular expressions that do not compile, contradictory band keys (both kinds of slots,
    /// `killBelow` with `killableFrom`, a stop point without a start point or below it) and
    /// device-memory tiers out of order. Every problem is
    /// reported, each naming the file, the line and column, the key path, what was found and
    /// what was expected.
    ///
    /// - Parameters:
    ///   - text: the policy, in YAML or JSON.
    ///   - file: the name used in error messages.
    /// - Throws: `PolicyErrors` with at least one problem.
    ///
    /// - Complexity: O(length of the text + size of the policy)
    public init(yaml text: String, file: String) throws(PolicyErrors) {
        let loader = PolicyLoader(file: file)
        let root: ConfigNode
        do {
            root = try ConfigNode.parseYAML(text, file: file)
        } catch {
            throw PolicyErrors(problems: [error])
        }
        guard let policy = loader.load(root), loader.problems.isEmpty else {
            // In the order of the file (a key the document does not know is found last, by `finish`).
            let ordered = loader.problems.enumerated().sorted {
                ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
            }
            throw PolicyErrors(problems: ordered.map(\.element))
        }
        // What the sections say of each other (a switch that reads a band order the policy does
        // not have): the engine's own check, located in the file.
        let problems = policy.problems
        guard problems.isEmpty else {
            throw PolicyErrors(
                problems: problems.map { problem in
                    let node = root.deepestNode(at: problem.path)
                    return InputError(
                        file: file, line: node.line, column: node.column, path: problem.path, message: problem.message)
                })
        }
        self = policy
    }
}

extension ConfigNode {
    /// The node at a key path such as `prediction.horizon` or `bands[2].killBelow`, or the
    /// deepest node on the way to it that exists (the document itself at worst).
    ///
    /// - Complexity: O(length of the path × keys of the mappings on the way)
    func deepestNode(at path: String) -> ConfigNode {
        var node = self
        for component in path.split(separator: ".") {
            var key = Substring(component)
            var index: Int? = nil
            if let open = component.firstIndex(of: "["), component.last == "]" {
                key = component[..<open]
                index = Int(component[component.index(after: open)..<component.index(before: component.endIndex)])
            }
            guard case .object(let members) = node.value, let member = members.first(where: { $0.key == key }) else {
                return node
            }
            node = member.value
            if let index {
                guard case .array(let items) = node.value, items.indices.contains(index) else { return node }
                node = items[index]
            }
        }
        return node
    }
}

/// Reads a policy document, collecting every problem instead of stopping at the first.
final class PolicyLoader {
    let file: String
    var problems: [InputError] = []
    /// The error of each band with a swap floor, reported if the policy does not swap.
    var swapFloorErrors: [InputError] = []

    init(file: String) {
        self.file = file
    }

    /// Runs `body`, recording its error and returning `nil` if it throws.
    func attempt<T>(_ body: () throws(InputError) -> T) -> T? {
        do {
            return try body()
        } catch {
            problems.append(error)
            return nil
        }
    }

    func load(_ root: ConfigNode) -> Policy? {
        guard let document = attempt({ () throws(InputError) in try ConfigObject(root, file: file) }) else {
            return nil
        }
        let name = attempt { () throws(InputError) in try nonEmptyString(document, "name") }
        let summary = attempt { () throws(InputError) in try document.optionalString("summary") ?? "" }
        let comparison = attempt { () throws(InputError) in
            try document.optionalEnum("comparison", ThresholdComparison.self) ?? .below
        }
        let thresholds = attempt { () throws(InputError) in
            try self.thresholds(try document.object("thresholds"), comparison: comparison ?? .below)
        }
        let warnings = attempt { () throws(InputError) in try self.warnings(try document.optionalObject("warn")) }
        let purges = attempt { () throws(InputError) in try self.purges(try document.optionalObject("purge")) }
        let kills = attempt { () throws(InputError) in
            try self.kills(try document.object("kill"), thresholds: thresholds)
        }
        let adjByState = attempt { () throws(InputError) in
            try self.byState(try document.optionalObject("oomScoreAdjByState"), range: -1000...1000)
        }
        let priorityByState = attempt { () throws(InputError) in
            try self.byState(try document.optionalObject("priorityByState"), range: -1_000_000...1_000_000)
        }
        let adjByMode = attempt { () throws(InputError) in
            try self.byMode(try document.optionalObject("oomScoreAdjByBackgroundMode"), range: -1000...1000)
        }
        let priorityByMode = attempt { () throws(InputError) in
            try self.byMode(try document.optionalObject("priorityByBackgroundMode"), range: -1_000_000...1_000_000)
        }
        let bands = loadBands(document)
        let relaunch = attempt { () throws(InputError) in try self.relaunch(try document.optionalObject("relaunch")) }
        let prediction = attempt { () throws(InputError) in
            try self.prediction(try document.optionalObject("prediction"))
        }
        let protections = loadList(document, "protect") { (object) throws(InputError) in
            Protection(matches: try self.matches(object), reason: try self.nonEmptyString(object, "reason"))
        }
        let preferences = loadList(document, "preferences") { (object) throws(InputError) in
            let pattern = try object.string("pattern")
            try self.checkPattern(pattern, object, "pattern")
            guard let score = try object.optionalInt("score", in: -1000...1000) else {
                throw object.error("missing key \"score\": expected an integer from -1000 to 1000 (earlyoom uses ±300)")
            }
            return NamePreference(pattern: pattern, score: score)
        }
        let limits = loadList(document, "limits") { (object) throws(InputError) in
            let matches = object.optional("match") == nil ? [AppMatch()] : try self.matches(object)
            let active = try limitAmount(object, "active")
            let inactive = try limitAmount(object, "inactive")
            guard active != nil || inactive != nil else {
                throw object.error("expected an \"active\" or an \"inactive\" limit (or both)")
            }
            return AppLimit(
                matches: matches, active: active, inactive: inactive, fatal: try object.optionalBool("fatal") ?? true)
        }
        let compression = attempt { () throws(InputError) in
            try document.optionalObject("compression").map { (object) throws(InputError) in try self.compression(object)
            }
        }
        let psi = attempt { () throws(InputError) in
            try document.optionalObject("psi").map { (object) throws(InputError) in try self.psi(object) }
        }
        let memoryPressureLimit = attempt { () throws(InputError) in
            try document.optionalObject("memoryPressureLimit").map { (object) throws(InputError) in
                try self.memoryPressureLimit(object)
            }
        }
        attempt { () throws(InputError) in try document.finish() }
        if let compression, compression?.mechanism.isSwap != true { problems += swapFloorErrors }
        guard let name, let summary, let comparison, let thresholds, let warnings, let purges, let kills,
            let adjByState, let priorityByState, let adjByMode, let priorityByMode, let bands, let protections,
            let preferences, let limits, let relaunch, let prediction, let compression, let psi, let memoryPressureLimit
        else { return nil }
        return Policy(
            name: name, summary: summary, thresholds: thresholds, warnings: warnings, purges: purges, kills: kills,
            bands: bands, protections: protections, preferences: preferences, limits: limits,
            oomScoreAdjByState: adjByState, priorityByState: priorityByState, oomScoreAdjByBackgroundMode: adjByMode,
            priorityByBackgroundMode: priorityByMode, comparison: comparison, relaunch: relaunch,
            prediction: prediction, compression: compression, psi: psi, memoryPressureLimit: memoryPressureLimit)
    }

    /// The `freezer:` part of a `compression:` section: every key required.
    private func freezer(_ object: ConfigObject) throws(InputError) -> MemoryCompression.Freezer {
        let freezer = MemoryCompression.Freezer(
            minimum: try object.size("minimum"), maxFrozen: try object.int("maxFrozen", in: 0...1_000_000),
            dailyBudget: try object.size("dailyBudget"),
            suspendedThreshold: try object.int("suspendedThreshold", in: 0...1_000_000),
            writeSecondsPerMiB: try object.number("writeSecondsPerMiB", in: 0...60, unit: "seconds"),
            thawSecondsPerMiB: try object.number("thawSecondsPerMiB", in: 0...60, unit: "seconds"))
        try object.finish()
        return freezer
    }

    /// The `thrashing:` part of a `compression:` section: every key required.
    private func thrashing(_ object: ConfigObject) throws(InputError) -> MemoryCompression.Thrashing {
        let rule = MemoryCompression.Thrashing(
            pageSize: try object.size("pageSize"),
            sampleMinMs: try object.number("sampleMinMs", in: 0.001...3_600_000, unit: "ms"),
            sampleMaxMs: try object.number("sampleMaxMs", in: 0.001...3_600_000, unit: "ms"),
            minimumPer10ms: try object.number("minimumPer10ms", in: 0...1_000_000, unit: "pages per 10 ms"),
            thresholdPer10ms: try object.number("thresholdPer10ms", in: 0...1_000_000, unit: "pages per 10 ms"))
        try object.finish()
        return rule
    }

    /// The `psi:` section (lmkd's PSI mode): every key optional, lmkd's defaults otherwise.
    private func psi(_ object: ConfigObject) throws(InputError) -> PressureStallKills {
        func integer(_ key: String, _ range: ClosedRange<Int>) throws(InputError) -> Int? {
            try object.optionalInt(key, in: range)
        }
        let defaults = PressureStallKills()
        let limit = try integer("thrashingLimit", 0...10_000) ?? defaults.thrashingLimit
        let rule = PressureStallKills(
            partialStallMs: try object.optionalNumber("partialStallMs", in: 1...1000, unit: "ms")
                ?? defaults.partialStallMs,
            completeStallMs: try object.optionalNumber("completeStallMs", in: 1...1000, unit: "ms")
                ?? defaults.completeStallMs,
            thrashingLimit: limit,
            thrashingLimitDecay: try integer("thrashingLimitDecay", 0...100) ?? defaults.thrashingLimitDecay,
            thrashingLimitCritical: try integer("thrashingLimitCritical", 0...20_000),
            swapFreeLowPercentage: try integer("swapFreeLowPercentage", 0...100) ?? defaults.swapFreeLowPercentage,
            perceptibleAdj: try integer("perceptibleAdj", -1000...1000) ?? defaults.perceptibleAdj,
            windowSeconds: try object.optionalNumber("windowSeconds", in: 0.1...60, unit: "seconds")
                ?? defaults.windowSeconds)
        try object.finish()
        return rule
    }

    /// The `memoryPressureLimit:` section (systemd-oomd's memory-pressure rule): every key
    /// optional, systemd 252's constants and the distributions' drop-ins otherwise.
    private func memoryPressureLimit(_ object: ConfigObject) throws(InputError) -> MemoryPressureLimit {
        func seconds(_ key: String) throws(InputError) -> Double? {
            try object.optionalNumber(key, in: MemoryPressureLimit.ranges[key]!, unit: "seconds")
        }
        let defaults = MemoryPressureLimit()
        let rule = MemoryPressureLimit(
            limitPercent: try object.optionalNumber("limitPercent", in: 0...100, unit: "%") ?? defaults.limitPercent,
            durationSeconds: try seconds("durationSeconds") ?? defaults.durationSeconds,
            intervalSeconds: try seconds("intervalSeconds") ?? defaults.intervalSeconds,
            reclaimWithinSeconds: try seconds("reclaimWithinSeconds") ?? defaults.reclaimWithinSeconds,
            postKillDelaySeconds: try seconds("postKillDelaySeconds") ?? defaults.postKillDelaySeconds)
        try object.finish()
        return rule
    }

    /// The `compression:` section (docs/compression.md): every key required but `order`, `ratios`,
    /// `shortageAt`, `fileBacked`, `refaultSecondsPerMiB`, `freezer` and `thrashing`; `zswapPool`,
    /// `swapInSecondsPerMiB` and the optional `zswapAcceptThresholdPercent` go with (and only with)
    /// mechanism `zswap`.
    private func compression(_ object: ConfigObject) throws(InputError) -> MemoryCompression {
        guard let mechanism = try object.optionalEnum("mechanism", MemoryCompression.Mechanism.self) else {
            throw object.error("missing key \"mechanism\": expected compressor, zram, swap or zswap")
        }
        let matches = try self.matches(object)
        let capacity = try object.amount("capacity")
        let ratio = try object.number("ratio", in: 1...100, unit: "(uncompressed bytes per compressed byte)")
        let compressible = try object.number("compressible", in: 0...1, unit: "(a share of base memory)")
        guard let startBelow = try scaledAmount(object, "startBelow") else {
            throw object.error("missing key \"startBelow\": expected the free memory below which reclaim starts")
        }
        guard let stopAt = try scaledAmount(object, "stopAt") else {
            throw object.error("missing key \"stopAt\": expected the free memory at which reclaim stops")
        }
        let compressCost = try object.number("compressSecondsPerMiB", in: 0...60, unit: "seconds")
        let decompressCost = try object.number("decompressSecondsPerMiB", in: 0...60, unit: "seconds")
        let shortageAt = try object.optionalNumber("shortageAt", in: 0.000_001...1, unit: "(a share of the capacity)")
        let fileBacked = try object.optionalNumber("fileBacked", in: 0...1, unit: "(a share of base memory)") ?? 0
        let refaultCost = try object.optionalNumber("refaultSecondsPerMiB", in: 0...60, unit: "seconds") ?? 0
        let freezer = try object.optionalObject("freezer").map { (freezer) throws(InputError) in
            try self.freezer(freezer)
        }
        let thrashing = try object.optionalObject("thrashing").map { (rule) throws(InputError) in
            try self.thrashing(rule)
        }
        let zswapPool = object.optional("zswapPool") == nil ? nil : try object.amount("zswapPool")
        let swapIn = try object.optionalNumber("swapInSecondsPerMiB", in: 0...60, unit: "seconds")
        let accept = try object.optionalNumber(
            "zswapAcceptThresholdPercent", in: 0...100, unit: "(a percentage of zswapPool)")
        let order = try object.optionalEnum("order", MemoryCompression.Order.self) ?? .leastRecentlyUsed
        if order == .externalScore {
            throw object.error(
                "order externalScore is set in code only (the engine's host supplies the scores); "
                    + "expected leastRecentlyUsed or predictedReuse")
        }
        var ratios: [MemoryCompression.AppRatio] = []
        for (path, node) in try object.optionalList("ratios") ?? [] {
            let entry = try ConfigObject(node, file: file, path: path)
            let ratio = MemoryCompression.AppRatio(
                matches: try self.matches(entry),
                ratio: try entry.number("ratio", in: 1...100, unit: "(uncompressed bytes per compressed byte)"))
            try entry.finish()
            ratios.append(ratio)
        }
        try object.finish()
        let model = MemoryCompression(
            mechanism: mechanism, matches: matches, capacity: capacity, ratio: ratio, compressible: compressible,
            startBelow: startBelow, stopAt: stopAt, compressSecondsPerMiB: compressCost,
            decompressSecondsPerMiB: decompressCost, shortageAt: shortageAt, fileBacked: fileBacked,
            refaultSecondsPerMiB: refaultCost, freezer: freezer, ratios: ratios, thrashing: thrashing,
            zswapPool: zswapPool, swapInSecondsPerMiB: swapIn, zswapAcceptThresholdPercent: accept, order: order)
        if let problem = model.problems.first { throw object.error(problem.message) }
        return model
    }

    /// The `relaunch:` model of the `expectedRelaunchCost` order (every key optional).
    private func relaunch(_ object: ConfigObject?) throws(InputError) -> RelaunchModel {
        var model = RelaunchModel.standard
        guard let object else { return model }
        func number(_ key: String, _ range: ClosedRange<Double>, _ current: Double) throws(InputError) -> Double {
            guard let value = try object.optionalNumber(key) else { return current }
            guard range.contains(value) else {
                throw object.error("key \"\(key)\": expected \(range.lowerBound)...\(range.upperBound), found \(value)")
            }
            return value
        }
        model.halfLife = try number("halfLife", 1...31_536_000, model.halfLife)
        model.prior = try number("prior", 0...1000, model.prior)
        model.coldFixed = try number("coldFixed", 0...3600, model.coldFixed)
        model.coldPerMiB = try number("coldPerMiB", 0...60, model.coldPerMiB)
        model.warmFixed = try number("warmFixed", 0...3600, model.warmFixed)
        try object.finish()
        return model
    }

    /// The `prediction:` model of the `predictedReuse` order (every key optional).
    private func prediction(_ object: ConfigObject?) throws(InputError) -> ReusePrediction {
        var model = ReusePrediction.standard
        guard let object else { return model }
        model.halfLife =
            try object.optionalNumber("halfLife", in: ReusePrediction.halfLifeRange, unit: "seconds") ?? model.halfLife
        model.prior = try object.optionalNumber("prior", in: ReusePrediction.priorRange, unit: "opens") ?? model.prior
        model.timeOfDay = try object.optionalBool("timeOfDay") ?? model.timeOfDay
        model.hoursAhead = try object.optionalInt("hoursAhead", in: ReusePrediction.hoursAheadRange) ?? model.hoursAhead
        model.transitions = try object.optionalBool("transitions") ?? model.transitions
        model.horizon = try object.optionalNumber("horizon", in: ReusePrediction.horizonRange, unit: "opens")
        model.killInsteadOfCompressingAbove = try object.optionalNumber(
            "killInsteadOfCompressingAbove", in: ReusePrediction.killInsteadOfCompressingRange, unit: "opens")
        if let prewarm = try object.optionalObject("prewarm") {
            model.prewarm = Prewarm(
                chance: try prewarm.number("chance", in: Prewarm.chanceRange),
                freeAbove: try prewarm.amount("freeAbove"),
                unopened: try prewarm.int("unopened", in: Prewarm.unopenedRange))
            try prewarm.finish()
        }
        try object.finish()
        return model
    }

    private func nonEmptyString(_ object: ConfigObject, _ key: String) throws(InputError) -> String {
        let text = try object.string(key)
        guard !text.allSatisfy(\.isWhitespace) else { throw object.error("key \"\(key)\": expected a non-empty text") }
        return text
    }

    // MARK: Thresholds and levels

    private func thresholds(_ object: ConfigObject, comparison: ThresholdComparison) throws(InputError)
        -> PressureThresholds
    {
        var result = PressureThresholds()
        var previous: (level: PressureLevel, enter: MemoryAmount)? = nil
        var present = false
        var failure: InputError? = nil
        // Each level is checked on its own, so that every bad level is reported; all but the last
        // problem are recorded here, the last one is thrown.
        for level in [PressureLevel.warning, .urgent, .critical] {
            do throws(InputError) {
                guard let pair = try object.optionalObject(level.name) else { continue }
                present = true
                let enter = try pair.amount("enter")
                let clear = try pair.amount("clear")
                let swapFree = pair.optional("swapFree") == nil ? nil : try pair.amount("swapFree")
                try pair.finish()
                // At or below (earlyoom) a level is left as soon as free memory is above its enter
                // threshold, so clear may equal enter; strictly below, clear must be higher.
                let order = MemoryAmount.compare(enter, clear)
                guard order == .less || (comparison == .atOrBelow && order == .same) else {
                    throw pair.error(
                        "expected \"clear\" (\(clear)) above \"enter\" (\(enter)): a level is left only above where it is entered"
                            + (comparison == .atOrBelow ? " (or at it, with comparison: atOrBelow)" : "")
                    )
                }
                if let previous, MemoryAmount.compare(enter, previous.enter) != .less {
                    throw pair.error(
                        "threshold out of order: \(level.name) is entered below \(enter) free, expected less than "
                            + "\(previous.level.name)'s \(previous.enter) (a higher level needs less free memory)")
                }
                switch level {
                case .warning: result.warning = LevelThreshold(enter: enter, clear: clear, swapFree: swapFree)
                case .urgent: result.urgent = LevelThreshold(enter: enter, clear: clear, swapFree: swapFree)
                case .critical: result.critical = LevelThreshold(enter: enter, clear: clear, swapFree: swapFree)
                case .normal: break
                }
                previous = (level, enter)
            } catch {
                if let failure { problems.append(failure) }
                failure = error
            }
        }
        do throws(InputError) {
            try object.finish()
        } catch {
            if let failure { problems.append(failure) }
            failure = error
        }
        if let failure { throw failure }
        guard present else { throw object.error("expected at least one of warning, urgent, critical") }
        return result
    }

    private func level(_ node: ConfigNode, _ object: ConfigObject, _ key: String) throws(InputError) -> PressureLevel {
        guard case .string(let text) = node.value, let level = PressureLevel(name: text), level != .normal else {
            throw object.error(
                at: node, key: key, "expected warning, urgent or critical, found \(node.kindDescription)")
        }
        return level
    }

    private func perLevel<T>(
        _ object: ConfigObject?, _ read: (ConfigNode, String) throws(InputError) -> T
    ) throws(InputError) -> [PressureLevel: T] {
        guard let object else { return [:] }
        var result: [PressureLevel: T] = [:]
        for key in object.keys {
            guard let level = PressureLevel(name: key), level != .normal else {
                throw object.error("unknown key \"\(key)\": expected warning, urgent or critical")
            }
            if let node = object.optional(key) { result[level] = try read(node, key) }
        }
        try object.finish()
        return result
    }

    private func warnings(_ object: ConfigObject?) throws(InputError) -> [PressureLevel: WarningAudience] {
        try perLevel(object) { (node, key) throws(InputError) in
            try ConfigObject.enumValue(node, WarningAudience.self, object: object!, key: key)
        }
    }

    private func purges(_ object: ConfigObject?) throws(InputError) -> [PressureLevel: PurgeActions] {
        try perLevel(object) { (node, key) throws(InputError) in
            guard case .array(let elements) = node.value else {
                throw object!.error(
                    at: node, key: key,
                    "expected a list such as [offscreenViews, purgeableCaches], found \(node.kindDescription)")
            }
            var actions: PurgeActions = []
            for element in elements {
                guard case .string(let text) = element.value else {
                    throw object!.error(
                        at: element, key: key,
                        "expected offscreenViews, purgeableCaches or suspendedOffscreenViews, found \(element.kindDescription)"
                    )
                }
                switch text {
                case "offscreenViews": actions.insert(.offscreenViews)
                case "purgeableCaches": actions.insert(.purgeableCaches)
                case "suspendedOffscreenViews": actions.insert(.suspendedOffscreenViews)
                default:
                    throw object!.error(
                        at: element, key: key,
                        "expected offscreenViews, purgeableCaches or suspendedOffscreenViews, found \"\(text)\"")
                }
            }
            return actions
        }
    }

    private func kills(_ object: ConfigObject, thresholds: PressureThresholds?) throws(InputError) -> KillRule {
        let startNode = try object.required("startLevel", expected: "warning, urgent or critical")
        let start = try level(startNode, object, "startLevel")
        if let thresholds, thresholds[start] == nil {
            throw object.error(
                at: startNode, key: "startLevel",
                "kills start at \(start.name), but the policy has no \(start.name) threshold, so they would never happen"
            )
        }
        let target = try object.amount("target")
        let foreground = try object.optionalBool("foregroundNeedsIgnoredWarnings") ?? false
        let notices = try perLevel(try object.optionalObject("notices")) { (node, key) throws(InputError) in
            try ConfigObject.enumValue(node, Event.KillNotice.self, object: object, key: "notices." + key)
        }
        try object.finish()
        return KillRule(startLevel: start, target: target, foregroundNeedsIgnoredWarnings: foreground, notices: notices)
    }

    private func byState(_ object: ConfigObject?, range: ClosedRange<Int>) throws(InputError) -> [AppState: Int] {
        guard let object else { return [:] }
        var result: [AppState: Int] = [:]
        for key in object.keys {
            guard let state = AppState(rawValue: key), state.isResident else {
                throw object.error("unknown key \"\(key)\": expected active, inactive, background or suspended")
            }
            result[state] = try object.optionalInt(key, in: range)
        }
        try object.finish()
        return result
    }

    private func byMode(_ object: ConfigObject?, range: ClosedRange<Int>) throws(InputError) -> [BackgroundMode: Int] {
        guard let object else { return [:] }
        var result: [BackgroundMode: Int] = [:]
        for key in object.keys {
            guard let mode = BackgroundMode(rawValue: key) else {
                throw object.error("unknown key \"\(key)\": expected audio, location or voip")
            }
            result[mode] = try object.optionalInt(key, in: range)
        }
        try object.finish()
        return result
    }

    /// A limit's amount: a size, a percentage of usable memory, or tiers by device memory (not a
    /// watermark, not Android's interpolation).
    private func limitAmount(_ object: ConfigObject, _ key: String) throws(InputError) -> ScaledAmount? {
        guard let node = object.optional(key) else { return nil }
        if case .array = node.value {
            return try scaledAmount(object, key)
        }
        return .fixed(try object.amount(key))
    }

    /// A band threshold: an amount (`10%`, `72MiB`), an interpolation by device memory
    /// (`{ low, high, scaleFrom, scaleTo }`) or a list of tiers (`[{ upTo: 3GiB, amount: 10% }, { amount: 8% }]`).
    private func scaledAmount(_ object: ConfigObject, _ key: String) throws(InputError) -> ScaledAmount? {
        guard let node = object.optional(key) else { return nil }
        let path = ConfigObject.join(object.path, key)
        switch node.value {
        case .object:
            let scaled = try ConfigObject(node, file: file, path: path)
            let low = try scaled.size("low")
            let high = try scaled.size("high")
            let from = try scaled.size("scaleFrom")
            let to = try scaled.size("scaleTo")
            try scaled.finish()
            guard from < to else {
                throw scaled.error("expected \"scaleFrom\" (\(from.value)) below \"scaleTo\" (\(to.value))")
            }
            return .interpolated(low: low, high: high, from: from, to: to)
        case .array(let elements):
            guard !elements.isEmpty else { throw object.error(at: node, key: key, "expected at least one tier") }
            var tiers: [MemoryTier] = []
            for (position, element) in elements.enumerated() {
                let tier = try ConfigObject(element, file: file, path: "\(path)[\(position)]")
                let upTo = try tier.optionalSize("upTo")
                let amount = try tier.amount("amount")
                try tier.finish()
                if let upTo, let previous = tiers.last?.upTo, upTo <= previous {
                    throw tier.error("expected tiers in increasing \"upTo\" order")
                }
                if upTo == nil && position != elements.count - 1 {
                    throw tier.error("only the last tier may leave out \"upTo\"")
                }
                if upTo != nil && position == elements.count - 1 {
                    throw tier.error("the last tier must leave out \"upTo\" (it applies to larger devices)")
                }
                tiers.append(MemoryTier(upTo: upTo, amount: amount))
            }
            return .tiered(tiers)
        case .string(let text) where text.hasSuffix("Watermark"):
            guard let watermark = ZoneWatermark(name: text) else {
                throw object.error(
                    at: node, key: key, "expected minWatermark, lowWatermark or highWatermark, found \"\(text)\"")
            }
            return .watermark(watermark)
        default:
            return .fixed(try object.amount(key))
        }
    }

    // MARK: Bands, matches, lists

    private func loadBands(_ document: ConfigObject) -> [Band]? {
        guard let list = attempt({ () throws(InputError) in try document.optionalList("bands") }) else { return nil }
        guard let list, !list.isEmpty else {
            if list != nil, let node = document.optional("bands") {
                problems.append(
                    document.error(
                        at: node, key: "bands",
                        "expected at least one kill band (killed first to last), found an empty list"))
            } else {
                problems.append(
                    document.error("missing or empty \"bands\": expected at least one kill band (killed first to last)")
                )
            }
            return nil
        }
        var bands: [Band] = []
        var failed = false
        for (path, node) in list {
            let band = attempt { () throws(InputError) -> Band in
                let object = try ConfigObject(node, file: file, path: path)
                let name = try nonEmptyString(object, "name")
                guard !bands.contains(where: { $0.name == name }) else {
                    throw object.error("band name \"\(name)\" appears twice")
                }
                let matches = try self.matches(object)
                let order = try object.optionalEnum("order", BandOrder.self) ?? .largestFirst
                if order == .externalScore {
                    throw object.error(
                        "order externalScore is set in code only (the engine's host supplies the scores); "
                            + "expected largestFirst, leastRecentlyUsed, firstInFirstOut, badness, oomScore, "
                            + "swapUsage, expectedRelaunchCost or predictedReuse")
                }
                let reason = try nonEmptyString(object, "reason")
                let slots = try object.optionalBool("slotsByOomScoreAdj") ?? false
                var killableFrom: PressureLevel? = nil
                if let node = object.optional("killableFrom") { killableFrom = try level(node, object, "killableFrom") }
                let prioritySlots = try object.optionalBool("slotsByPriority") ?? false
                if slots && prioritySlots {
                    throw object.error("expected slotsByOomScoreAdj or slotsByPriority, not both")
                }
                let killBelow = try scaledAmount(object, "killBelow")
                let killUntil = try scaledAmount(object, "killUntil")
                if killBelow != nil && killableFrom != nil {
                    throw object.error(
                        "expected \"killBelow\" or \"killableFrom\", not both (a band with its own start point ignores levels)"
                    )
                }
                if killUntil != nil && killBelow == nil {
                    throw object.error("\"killUntil\" needs \"killBelow\" (where the band's kills start)")
                }
                if let killBelow, let killUntil, case .fixed(let start) = killBelow, case .fixed(let stop) = killUntil,
                    MemoryAmount.compare(stop, start) == .less
                {
                    throw object.error("expected \"killUntil\" (\(stop)) at or above \"killBelow\" (\(start))")
                }
                let ties = try object.optionalEnum("ties", TieRule.self)
                let minimumSwap = try object.optionalNumber("minimumSwapPercent", in: 0...100, unit: "% of swap")
                if minimumSwap != nil {
                    // Checked against the compression section once it is read (`load`).
                    swapFloorErrors.append(object.error(Band.swapFloorNeedsSwap))
                }
                try object.finish()
                return Band(
                    name: name, matches: matches, order: order, reason: reason, slotsByOomScoreAdj: slots,
                    killableFrom: killableFrom, slotsByPriority: prioritySlots, killBelow: killBelow,
                    killUntil: killUntil, ties: ties, minimumSwapPercent: minimumSwap)
            }
            if let band { bands.append(band) } else { failed = true }
        }
        guard bands.count <= 127 else {
            problems.append(document.error("expected at most 127 bands, found \(bands.count)"))
            return nil
        }
        return failed ? nil : bands
    }

    private func loadList<T>(
        _ document: ConfigObject, _ key: String, _ read: (ConfigObject) throws(InputError) -> T
    ) -> [T]? {
        guard let list = attempt({ () throws(InputError) in try document.optionalList(key) }) else { return nil }
        var items: [T] = []
        var failed = false
        for (path, node) in list ?? [] {
            let item = attempt { () throws(InputError) -> T in
                let object = try ConfigObject(node, file: file, path: path)
                let item = try read(object)
                try object.finish()
                return item
            }
            if let item { items.append(item) } else { failed = true }
        }
        return failed ? nil : items
    }

    /// The `match` of `object`: one condition (a mapping) or a list of alternatives.
    func matches(_ object: ConfigObject) throws(InputError) -> [AppMatch] {
        let node = try object.required("match", expected: "a condition such as {states: [suspended]} or a list of them")
        let path = ConfigObject.join(object.path, "match")
        if case .array(let elements) = node.value {
            guard !elements.isEmpty else {
                throw object.error(at: node, key: "match", "expected at least one condition")
            }
            var result: [AppMatch] = []
            for (position, element) in elements.enumerated() {
                result.append(try match(try ConfigObject(element, file: file, path: "\(path)[\(position)]")))
            }
            return result
        }
        return [try match(try ConfigObject(node, file: file, path: path))]
    }

    func match(_ object: ConfigObject) throws(InputError) -> AppMatch {
        var match = AppMatch()
        if let states = try object.optionalStringList("states") {
            var parsed: Set<AppState> = []
            for state in states {
                guard let value = AppState(rawValue: state), value.isResident else {
                    throw object.error(
                        "key \"states\": expected active, inactive, background or suspended, found \"\(state)\"")
                }
                parsed.insert(value)
            }
            guard !parsed.isEmpty else { throw object.error("key \"states\": expected at least one state") }
            match.states = parsed
        }
        match.hasBackgroundMode = try object.optionalBool("backgroundMode")
        if let modes = try object.optionalStringList("backgroundModes") {
            var parsed: Set<BackgroundMode> = []
            for mode in modes {
                guard let value = BackgroundMode(rawValue: mode) else {
                    throw object.error("key \"backgroundModes\": expected audio, location or voip, found \"\(mode)\"")
                }
                parsed.insert(value)
            }
            guard !parsed.isEmpty else { throw object.error("key \"backgroundModes\": expected at least one mode") }
            match.backgroundModes = parsed
        }
        match.oomScoreAdj = try range(object, "oomScoreAdj", within: -1000...1000)
        match.priority = try range(object, "priority", within: -1_000_000...1_000_000)
        if let names = try object.optionalStringList("names") {
            for name in names { try checkPattern(name, object, "names") }
            match.names = names
        }
        try object.finish()
        return match
    }

    private func range(_ object: ConfigObject, _ key: String, within bounds: ClosedRange<Int>) throws(InputError)
        -> ClosedRange<Int>?
    {
        guard let node = object.optional(key) else { return nil }
        if case .number = node.value {
            let value = try ConfigObject.int(node, in: bounds, object: object, key: key)
            return value...value
        }
        guard case .array(let elements) = node.value, elements.count == 2 else {
            throw object.error(
                at: node, key: key, "expected an integer or a range [min, max], found \(node.kindDescription)")
        }
        let low = try ConfigObject.int(elements[0], in: bounds, object: object, key: key)
        let high = try ConfigObject.int(elements[1], in: bounds, object: object, key: key)
        guard low <= high else {
            throw object.error(at: node, key: key, "expected [min, max] with min ≤ max, found [\(low), \(high)]")
        }
        return low...high
    }

    func checkPattern(_ pattern: String, _ object: ConfigObject, _ key: String) throws(InputError) {
        do {
            _ = try NamePattern(pattern)
        } catch {
            throw object.error("key \"\(key)\": invalid regular expression \(pattern.quotedExcerpt()): \(error)")
        }
    }
}
