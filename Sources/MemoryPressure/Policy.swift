/// A low-memory policy: when memory counts as short, whom to warn, what to purge, and whom to
/// kill in which order. Policies are data (`policies/*.yaml`, loaded and
/// written by the MemoryPressureFormats module, whose `Policy.ios4` is the default).
public struct Policy: Sendable, Hashable {
    /// The policy's short name, such as `ios4` or `linux-oom`.
    public var name: String
    /// One line on the behaviour it reproduces.
    public var summary: String
    /// The free-memory thresholds of each level, with hysteresis.
    public var thresholds: PressureThresholds
    /// Who is warned on entering each level (levels not listed warn nobody).
    public var warnings: [PressureLevel: WarningAudience]
    /// What is purged on entering each level (levels not listed purge nothing).
    public var purges: [PressureLevel: PurgeActions]
    /// When kills start and how much free memory they restore.
    public var kills: KillRule
    /// The kill bands, killed first to last: an app belongs to the first band that matches it.
    /// Apps that match no band are never killed.
    public var bands: [Band]
    /// Apps that are never killed, with the reason.
    public var protections: [Protection]
    /// Name patterns that make an app a likelier (positive score) or less likely (negative) victim.
    public var preferences: [NamePreference]
    /// Per-app memory limits (XNU's highwater limits), the first matching one applies.
    public var limits: [AppLimit]
    /// The `oomScoreAdj` of an app that does not state its own, by state (Android's importance).
    public var oomScoreAdjByState: [AppState: Int]
    /// The priority of an app that does not state its own, by state (XNU's jetsam bands).
    public var priorityByState: [AppState: Int]
    /// The `oomScoreAdj` of an app executing in the background with a background mode (audio,
    /// location, voip), when lower than its state's: Android's `OomAdjuster.computeOomAdjLSP()`
    /// gives an app with a foreground service (music playing) `PERCEPTIBLE_APP_ADJ` (200).
    public var oomScoreAdjByBackgroundMode: [BackgroundMode: Int]
    /// The priority of an app executing in the background with a background mode, when higher
    /// than its state's: XNU puts an app playing audio at `JETSAM_PRIORITY_AUDIO_AND_ACCESSORY` (120).
    public var priorityByBackgroundMode: [BackgroundMode: Int]
    /// How free memory is compared with every threshold of the policy: strictly below (XNU, lmkd)
    /// or at or below (earlyoom's `lowmem_sig()`).
    public var comparison: ThresholdComparison
    /// How bands ordered by `expectedRelaunchCost` learn and price relaunches (and how bands
    /// ordered by `predictedReuse` price them).
    public var relaunch: RelaunchModel
    /// How bands ordered by `predictedReuse` predict the user's next opens.
    public var prediction: ReusePrediction
    /// Compressed memory (XNU's compressor, zram) reclaimed before kills; `nil`: none, so memory
    /// is only warned about, purged and freed by killing.
    public var compression: MemoryCompression?
    /// lmkd's PSI mode: kills decided by `mp_event_psi()`'s rules instead of free-memory levels
    /// (`nil`: the levels and the bands' own start points decide).
    public var psi: PressureStallKills?
    /// systemd-oomd's memory-pressure rule: a kill when the simulated PSI `full avg10` stays above
    /// a limit (`nil`: no such rule).
    public var memoryPressureLimit: MemoryPressureLimit?

    /// A policy from its parts; see each property for its meaning.
    ///
    /// - Complexity: O(1)
    public init(
        name: String,
        summary: String,
        thresholds: PressureThresholds,
        warnings: [PressureLevel: WarningAudience],
        purges: [PressureLevel: PurgeActions],
        kills: KillRule,
        bands: [Band],
        protections: [Protection] = [],
        preferences: [NamePreference] = [],
        limits: [AppLimit] = [],
        oomScoreAdjByState: [AppState: Int] = [:],
        priorityByState: [AppState: Int] = [:],
        oomScoreAdjByBackgroundMode: [BackgroundMode: Int] = [:],
        priorityByBackgroundMode: [BackgroundMode: Int] = [:],
        comparison: ThresholdComparison = .below,
        relaunch: RelaunchModel = .standard,
        prediction: ReusePrediction = .standard,
        compression: MemoryCompression? = nil,
        psi: PressureStallKills? = nil,
        memoryPressureLimit: MemoryPressureLimit? = nil
    ) {
        self.name = name
        self.summary = summary
        self.thresholds = thresholds
        self.warnings = warnings
        self.purges = purges
        self.kills = kills
        self.bands = bands
        self.protections = protections
        self.preferences = preferences
        self.limits = limits
        self.oomScoreAdjByState = oomScoreAdjByState
        self.priorityByState = priorityByState
        self.oomScoreAdjByBackgroundMode = oomScoreAdjByBackgroundMode
        self.priorityByBackgroundMode = priorityByBackgroundMode
        self.comparison = comparison
        self.relaunch = relaunch
        self.prediction = prediction
        self.compression = compression
        self.psi = psi
        self.memoryPressureLimit = memoryPressureLimit
    }
}

/// How free memory is compared with a threshold.
public enum ThresholdComparison: String, Sendable, Hashable, CaseIterable {
    /// A threshold is crossed when free memory is strictly below it (XNU's
    /// `memstat_evaluate_page_shortage()`, lmkd's `other_free < minfree`); kills stop once free
    /// memory is at or above their target.
    case below
    /// A threshold is crossed when free memory is at or below it (earlyoom's `lowmem_sig()`:
    /// `MemAvailablePercent <= mem_term_percent`); kills stop once free memory is above their target.
    case atOrBelow
}

/// The enter and clear thresholds of one pressure level: the level is entered when free memory
/// falls below `enter` (at or below, under ``ThresholdComparison/atOrBelow``) and left when it
/// rises above `clear` (which must be higher, or equal under `atOrBelow`).
public struct LevelThreshold: Sendable, Hashable {
    /// Free memory below which the level is entered.
    public var enter: MemoryAmount
    /// Free memory above which the level is left.
    public var clear: MemoryAmount
    /// Free swap below which the level may be entered and kept (a percentage is of the device's
    /// swap); `nil`: swap does not matter. On a device without swap the condition holds, as in
    /// earlyoom's `lowmem_sig()`, which acts only when available memory *and* free swap are both
    /// at or below their limits (`SwapFreePercent` is 0 without swap).
    public var swapFree: MemoryAmount?

    /// A threshold pair, with an optional free-swap condition.
    ///
    /// - Complexity: O(1)
    public init(enter: MemoryAmount, clear: MemoryAmount, swapFree: MemoryAmount? = nil) {
        self.enter = enter
        self.clear = clear
        self.swapFree = swapFree
    }
}

/// The thresholds of the three levels above normal; a level without a threshold is never entered
/// (the Linux OOM killer, for example, knows only the critical level).
public struct PressureThresholds: Sendable, Hashable {
    /// Level 1.
    public var warning: LevelThreshold?
    /// Level 2.
    public var urgent: LevelThreshold?
    /// The last level.
    public var critical: LevelThreshold?

    /// Thresholds for the levels a policy uses.
    ///
    /// - Complexity: O(1)
    public init(warning: LevelThreshold? = nil, urgent: LevelThreshold? = nil, critical: LevelThreshold? = nil) {
        self.warning = warning
        self.urgent = urgent
        self.critical = critical
    }

    /// The threshold of `level`, or `nil` if the policy does not use it (always `nil` for normal).
    ///
    /// - Complexity: O(1)
    public subscript(level: PressureLevel) -> LevelThreshold? {
        switch level {
        case .normal: nil
        case .warning: warning
        case .urgent: urgent
        case .critical: critical
        }
    }
}

/// The apps that receive a memory warning.
public enum WarningAudience: String, Sendable, Hashable, CaseIterable {
    /// Nobody.
    case none
    /// The foreground app only.
    case foreground
    /// Apps executing in the background only.
    case backgroundRunning
    /// Every executing app: the foreground app and apps executing in the background. Suspended
    /// apps are never warned.
    case running

    /// Whether an app in `state` is in this audience.
    ///
    /// - Complexity: O(1)
    public func includes(_ state: AppState) -> Bool {
        switch self {
        case .none: false
        case .foreground: state.isForeground
        case .backgroundRunning: state == .background
        case .running: state.isExecuting
        }
    }
}

/// What a level's purge releases.
public struct PurgeActions: OptionSet, Sendable, Hashable {
    /// The bits.
    public var rawValue: UInt8
    /// A set from its bits.
    ///
    /// - Complexity: O(1)
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Warned apps' view controllers release their loaded offscreen views (`viewDidUnload`).
    public static let offscreenViews = PurgeActions(rawValue: 1)
    /// Warned apps' registered purgeable caches release their bytes.
    public static let purgeableCaches = PurgeActions(rawValue: 2)
    /// The system drops suspended apps' loaded offscreen views with no callback.
    public static let suspendedOffscreenViews = PurgeActions(rawValue: 4)
}

/// When kills happen and when they stop, for the bands without their own start and stop points
/// (``Band/killBelow``, ``Band/killUntil``).
public struct KillRule: Sendable, Hashable {
    /// Kills happen only at this level or above, after that level's warnings and purges.
    public var startLevel: PressureLevel
    /// Kills stop as soon as free memory is back at or above this amount (above it, under
    /// ``ThresholdComparison/atOrBelow``).
    public var target: MemoryAmount
    /// Whether a foreground app may be killed only after it ignored both the level-1 and the
    /// level-2 warning (the iOS rule); otherwise it is killed in its band's turn.
    public var foregroundNeedsIgnoredWarnings: Bool
    /// The notice a victim gets at each level (earlyoom: SIGTERM, then SIGKILL). When empty, an
    /// app executing in the background gets `willTerminate` and every other victim none.
    public var notices: [PressureLevel: Event.KillNotice]

    /// A kill rule.
    ///
    /// - Complexity: O(1)
    public init(
        startLevel: PressureLevel, target: MemoryAmount, foregroundNeedsIgnoredWarnings: Bool,
        notices: [PressureLevel: Event.KillNotice] = [:]
    ) {
        self.startLevel = startLevel
        self.target = target
        self.foregroundNeedsIgnoredWarnings = foregroundNeedsIgnoredWarnings
        self.notices = notices
    }
}

/// A kill band: the apps it matches, the order inside it, and the reason a kill from it gives.
public struct Band: Sendable, Hashable {
    /// The band's name, such as `suspended` or `cached`.
    public var name: String
    /// Which apps belong to it: those matching any of these conditions.
    public var matches: [AppMatch]
    /// The order of victims inside the band.
    public var order: BandOrder
    /// The reason a kill from this band states, such as "heaviest suspended app".
    public var reason: String
    /// Whether the band is divided into slots by `oomScoreAdj`, highest slot first, with
    /// ``order`` applying inside a slot (Android lmkd's adj slots).
    public var slotsByOomScoreAdj: Bool
    /// The lowest level at which apps of this band may be killed (`nil`: the kill rule's start
    /// level), as lmkd's minfree levels make higher-importance apps killable only as memory falls.
    public var killableFrom: PressureLevel?
    /// Whether the band is divided into slots by priority, lowest priority first, with ``order``
    /// applying inside a slot (XNU's `memstat_bucket[]`, one list per `JETSAM_PRIORITY_*`).
    public var slotsByPriority: Bool
    /// The band's own start point: its apps are killable when free memory is below this amount,
    /// whatever the level (`nil`: the kill rule's start level and target apply, and
    /// ``killableFrom``). lmkd's minfree levels and XNU's idle threshold are such points.
    public var killBelow: ScaledAmount?
    /// The band's own stop point: once kills from the band have started, they go on until free
    /// memory reaches this amount (`nil`: ``killBelow``).
    public var killUntil: ScaledAmount?
    /// How apps that the band's order ranks equal are ordered (`nil`: ``TieRule/default(for:)``).
    public var ties: TieRule?
    /// Apps of the band with at most this percentage of the swap device's size in swap are never
    /// killed from it (`nil`: no such floor): systemd-oomd's `oomd_kill_by_swap_usage()` skips
    /// cgroups whose swap is at most `THRESHOLD_SWAP_USED_PERCENT` (5) of swap total. Needs a
    /// policy that swaps (``MemoryCompression/Mechanism/isSwap``).
    public var minimumSwapPercent: Double?

    /// Why a band's ``minimumSwapPercent`` is refused under a policy that does not swap: the
    /// wording the file loader and ``Policy/problems`` share.
    public static let swapFloorNeedsSwap =
        "\"minimumSwapPercent\" needs a \"compression\" section that swaps (mechanism zram, swap or zswap)"

    /// A band.
    ///
    /// - Complexity: O(1)
    public init(
        name: String, matches: [AppMatch], order: BandOrder, reason: String, slotsByOomScoreAdj: Bool = false,
        killableFrom: PressureLevel? = nil, slotsByPriority: Bool = false, killBelow: ScaledAmount? = nil,
        killUntil: ScaledAmount? = nil, ties: TieRule? = nil, minimumSwapPercent: Double? = nil
    ) {
        self.name = name
        self.matches = matches
        self.order = order
        self.reason = reason
        self.slotsByOomScoreAdj = slotsByOomScoreAdj
        self.killableFrom = killableFrom
        self.slotsByPriority = slotsByPriority
        self.killBelow = killBelow
        self.killUntil = killUntil
        self.ties = ties
        self.minimumSwapPercent = minimumSwapPercent
    }

    /// The tie rule in force: ``ties`` or the default of the band's order.
    public var effectiveTies: TieRule { ties ?? TieRule.default(for: order) }
}

/// How apps that a band's order ranks equal (same footprint, same score, same slot entry) are
/// ordered. Every rule is deterministic.
public enum TieRule: String, Sendable, Hashable, CaseIterable {
    /// By app id, in ascending (byte-wise) order: the rule when the real system states none.
    case id
    /// The app that appeared first (a snapshot's file order, a trace's launch order) first: the
    /// order `/proc` lists processes in (ascending pid), which earlyoom's `find_largest_process()`
    /// scans, keeping the first of equals (`kill.c` `is_larger()` needs a strictly larger RSS).
    case firstAppeared
    /// The app that appeared last first: the kernel's `select_bad_process()` walks the task list
    /// and `oom_evaluate_task()` takes a later task on equal points.
    case lastAppeared
    /// The app that entered its band (its slot) last first: lmkd's `proc_get_heaviest()` walks an
    /// adj slot from its head, where `adjslot_insert()` puts the newest entry, and keeps the
    /// first of equal sizes.
    case newestInBand
    /// The app that entered its band (its slot) first, first: XNU's
    /// `memorystatus_sort_by_largest_process_locked()` moves a process ahead only when it has
    /// strictly more pages, so among equals the bucket's list order (entry order) stays.
    case oldestInBand

    /// The rule a band uses when it names none: the kernel's for `badness`, earlyoom's for
    /// `oomScore`, and by id for the others (first-in-first-out bands have no ties: every entry
    /// into a band is numbered).
    ///
    /// - Complexity: O(1)
    public static func `default`(for order: BandOrder) -> TieRule {
        switch order {
        case .badness: .lastAppeared
        case .oomScore: .firstAppeared
        case .largestFirst, .leastRecentlyUsed, .firstInFirstOut, .expectedRelaunchCost, .predictedReuse,
            .externalScore, .swapUsage:
            .id
        }
    }
}

/// The order of victims inside a band.
public enum BandOrder: String, Sendable, Hashable, CaseIterable {
    /// The app with the largest footprint first.
    case largestFirst
    /// The app that was frontmost longest ago first.
    case leastRecentlyUsed
    /// The app that entered the band first, first.
    case firstInFirstOut
    /// The highest Linux `oom_badness` first: footprint + swap + page tables, in pages, plus
    /// `oomScoreAdj × total / 1000` where total is memory plus swap.
    case badness
    /// The highest `/proc/<pid>/oom_score` (`(1000 + badness × 1000 / total) × 2 / 3`) plus name
    /// preferences first, ties to the largest footprint (earlyoom).
    case oomScore
    /// The app with the most memory in swap first (zram's, a swap file's or zswap's pages, and a
    /// live source's swap): systemd-oomd's `compare_swap_usage()` (src/oom/oomd-util.h), which
    /// sorts the candidate cgroups by `memory.swap.current`.
    case swapUsage
    /// The app whose loss is expected to cost the user least relaunch wait per byte it frees
    /// first: P(reopened soon) × (cold launch − warm resume time) / footprint, with P learnt online
    /// from the app's own past opens (``RelaunchModel``). Not a copy of any shipped killer.
    case expectedRelaunchCost
    /// The app whose loss is expected to cost the user least relaunch wait per byte it frees
    /// first, with the next opens predicted from frequency, recency, the time of day and the app
    /// opened last (``ReusePrediction``), all learnt online. Its keys depend on the clock and on
    /// the app opened last, so the band is re-scored before every victim is chosen (O(m) for m
    /// apps in such bands). Not a copy of any shipped killer.
    case predictedReuse
    /// The highest score from the engine's ``PressureEngine/externalScore`` first, re-read before
    /// every victim is chosen. For hosts that rank by knowledge the engine does not have, such as
    /// the clairvoyant oracle of `compare`; not accepted in policy files.
    case externalScore

    /// The orders a policy file may name (every one but ``externalScore``).
    public static var allCases: [BandOrder] {
        [
            .largestFirst, .leastRecentlyUsed, .firstInFirstOut, .badness, .oomScore, .swapUsage, .expectedRelaunchCost,
            .predictedReuse,
        ]
    }
}

/// How the `expectedRelaunchCost` order learns and prices a relaunch.
///
/// The engine keeps, per app, an exponentially decayed count of its opens,
/// c(t) = prior·e^(−λ(t − t₀)) + Σ e^(−λ(t − tₖ)) with λ = ln 2 / ``halfLife``, so that recent
/// and frequent use both count (as LRFU does: Lee et al., "LRFU: a spectrum of policies that
/// subsumes the least recently used and least frequently used policies", IEEE Trans. Computers
/// 2001). The rate of reopening is about λ·c(t), and the chance of a reopen within a horizon H
/// is, to first order, λ·c(t)·H. The victim is the app with the least
/// λ·c(t)·H · (cold(footprint) − warm) / footprint. The horizon and λ scale every app alike and
/// drop out of the order; so does the common decay e^(−λt): the engine stores log c referred to
/// time 0, which changes only on the app's own opens, so a decision costs O(log n) and no app is
/// re-scored as time passes.
public struct RelaunchModel: Sendable, Hashable {
    /// The half-life of an open's weight, in seconds.
    public var halfLife: Double
    /// The weight of an app's first launch beyond the launch itself (a prior for apps seen once).
    public var prior: Double
    /// Seconds of a cold launch, fixed part.
    public var coldFixed: Double
    /// Seconds of a cold launch per MiB of footprint.
    public var coldPerMiB: Double
    /// Seconds of a warm resume.
    public var warmFixed: Double

    /// A model; see each property.
    ///
    /// - Complexity: O(1)
    public init(halfLife: Double, prior: Double, coldFixed: Double, coldPerMiB: Double, warmFixed: Double) {
        self.halfLife = halfLife
        self.prior = prior
        self.coldFixed = coldFixed
        self.coldPerMiB = coldPerMiB
        self.warmFixed = warmFixed
    }

    /// The defaults of `relaunch-aware.yaml`: an 8-hour half-life, no prior, and the launch cost of
    /// the built-in phone workload (0.8 s + 25 ms/MiB cold, 0.3 s warm).
    public static let standard = RelaunchModel(
        halfLife: 28_800, prior: 0, coldFixed: 0.8, coldPerMiB: 0.025, warmFixed: 0.3)

    /// λ, per second.
    var decayRate: Double { 0.693_147_180_559_945_3 / halfLife }

    /// What relaunching an app of `footprint` bytes costs beyond a warm resume: cold − warm seconds.
    func relaunchSeconds(footprint: Int64) -> Double {
        coldFixed + coldPerMiB * Double(footprint) / 1_048_576 - warmFixed
    }

    /// log of (cold − warm seconds) / bytes for an app of `footprint` bytes.
    func logCostPerByte(footprint: Int64) -> Double {
        let bytes = Double(Swift.max(footprint, 1))
        let cost = Swift.max(relaunchSeconds(footprint: Swift.max(footprint, 1)), 1e-9)
        return Math.log(cost / bytes)
    }
}

/// A per-app memory limit, as XNU's highwater limits: one for when the app is active, one for
/// when it is not. As in XNU's `memstat_proc_is_active_locked()`, an app is active while it is
/// in the foreground *or* executing in the background, which in this model always means it holds
/// an assertion (a background mode in use — audio playing, navigation, a VoIP call — or a
/// background task); a suspended app is inactive. The limit follows the app's state as it changes.
/// Each limit is resolved on the engine's device: a tier list gives one per device memory, as
/// real devices set theirs (the shipped `jetsam` does), and a percentage is of usable memory.
public struct AppLimit: Sendable, Hashable {
    /// Which apps the limit applies to: those matching any of these conditions.
    public var matches: [AppMatch]
    /// The limit while the app is active (foreground, or background with an assertion).
    public var active: ScaledAmount?
    /// The limit while it is not (suspended).
    public var inactive: ScaledAmount?
    /// Fatal: crossing the limit kills the app at once. Soft: the app is killed first under pressure.
    public var fatal: Bool

    /// A limit.
    ///
    /// - Complexity: O(1)
    public init(matches: [AppMatch], active: ScaledAmount?, inactive: ScaledAmount?, fatal: Bool) {
        self.matches = matches
        self.active = active
        self.inactive = inactive
        self.fatal = fatal
    }
}

/// A condition on an app; every field that is set must hold.
public struct AppMatch: Sendable, Hashable {
    /// The app is in one of these states.
    public var states: Set<AppState>?
    /// The app declares a background mode (`true`) or declares none (`false`).
    public var hasBackgroundMode: Bool?
    /// The app declares at least one of these background modes.
    public var backgroundModes: Set<BackgroundMode>?
    /// The app's `oomScoreAdj` is in this range.
    public var oomScoreAdj: ClosedRange<Int>?
    /// The app's explicit priority is in this range.
    public var priority: ClosedRange<Int>?
    /// The app's id matches one of these regular expressions (anywhere in the id).
    public var names: [String]?

    /// A condition; `nil` fields are not checked.
    ///
    /// - Complexity: O(1)
    public init(
        states: Set<AppState>? = nil,
        hasBackgroundMode: Bool? = nil,
        backgroundModes: Set<BackgroundMode>? = nil,
        oomScoreAdj: ClosedRange<Int>? = nil,
        priority: ClosedRange<Int>? = nil,
        names: [String]? = nil
    ) {
        self.states = states
        self.hasBackgroundMode = hasBackgroundMode
        self.backgroundModes = backgroundModes
        self.oomScoreAdj = oomScoreAdj
        self.priority = priority
        self.names = names
    }
}

/// Apps a policy never kills, and why.
public struct Protection: Sendable, Hashable {
    /// Which apps are protected: those matching any of these conditions.
    public var matches: [AppMatch]
    /// Why, in words a person understands ("oom_score_adj -1000: unkillable").
    public var reason: String

    /// A protection.
    ///
    /// - Complexity: O(1)
    public init(matches: [AppMatch], reason: String) {
        self.matches = matches
        self.reason = reason
    }
}

/// A name pattern that moves an app up (positive score) or down (negative) the kill order inside
/// its band, as earlyoom's `--prefer` and `--avoid` do.
public struct NamePreference: Sendable, Hashable {
    /// A regular expression matched anywhere in the app's id.
    public var pattern: String
    /// Added to the app's ordering score (earlyoom uses +300 and −300).
    public var score: Int

    /// A preference.
    ///
    /// - Complexity: O(1)
    public init(pattern: String, score: Int) {
        self.pattern = pattern
        self.score = score
    }
}
