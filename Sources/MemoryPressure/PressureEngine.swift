import IndexedHeapModule

/// The memory-pressure engine: it follows every app through its lifecycle, keeps the memory books,
/// raises and clears pressure levels, warns running apps, purges, and kills — all according to a
/// ``Policy``, and all recorded in an event log.
///
/// The engine is deterministic: it takes time from its caller (every action carries a time) and
/// has no randomness, so the same actions always give the same log.
///
/// Its stored state is not checked for exclusive access at run time (`@exclusivity(unchecked)`):
/// the engine is a single-threaded object and its hot paths touch that state on every footprint
/// change. Use one engine from one thread (or task) at a time; to share one between threads, wrap
/// it in a ``SharedPressureEngine`` (a lock) or a ``PressureEngineActor``.
///
/// Callbacks (delegates, observers, ``externalScore``) run in the middle of a mutation; a
/// mutation they request is deferred until the current one has finished (``isMutating``).
///
///     import MemoryPressureFormats   // for the shipped policies (.ios4) and `jsonLine`
///
///     let engine = try PressureEngine(device: .iPhone4, policy: .ios4)
///     try engine.apply(.launch(AppLaunch(id: "com.example.mail", footprint: .mebibytes(40))), at: 0)
///     try engine.apply(.home, at: 5)
///     for event in engine.takeEvents() { print(event.jsonLine) }
public final class PressureEngine {
    /// The most app records one engine holds at once (the kill queue's tie-breaker has 20 bits).
    /// Records of apps that ended can be reclaimed (``forget(_:)``, ``retainsEndedApps``), so a
    /// long-running engine may see any number of distinct apps over its life.
    public static let maximumApps = 1 << 20

    /// The policy the engine follows.
    public let policy: Policy
    /// The memory books: device, total footprint, free memory.
    @exclusivity(unchecked)
    public internal(set) var accountant: ResourceAccountant
    /// The current pressure level.
    @exclusivity(unchecked)
    public internal(set) var level: PressureLevel = .normal
    /// The time of the last action, in seconds.
    @exclusivity(unchecked)
    public internal(set) var now: Double = 0

    /// Every app ever launched or added, by index (the hot part of each record).
    @exclusivity(unchecked)
    var apps = AppTable()
    /// The cold part of the records, for the apps that have any (see ``AppExtras``).
    @exclusivity(unchecked)
    var extras: [Int32: AppExtras] = [:]
    /// The index of each app.
    @exclusivity(unchecked)
    var indexByID: [AppID: Int32] = [:]
    /// The foreground (active or inactive) app.
    @exclusivity(unchecked)
    var foreground: Int? = nil
    /// Whether the foreground app ignored the level-1 (bit 0) and level-2 (bit 1) warning since
    /// it came to the foreground or pressure last returned to normal.
    @exclusivity(unchecked)
    var foregroundIgnored: UInt8 = 0
    @exclusivity(unchecked)
    var isLocked = false
    @exclusivity(unchecked)
    var isInterrupted = false

    /// Killable apps, keyed by band, order value and tie-breaker (see `PressureEngine+KillQueue`).
    @exclusivity(unchecked)
    var killQueue = AdaptiveIndexedQueue()
    /// How many apps a bulk load needs for the kill queue to be built as a tournament.
    var killQueueTournamentThreshold = AdaptiveIndexedQueue.tournamentThreshold
    /// The app of each kill-queue handle index.
    @exclusivity(unchecked)
    var appByKillSlot: [Int32] = []
    /// Apps with a background task, keyed by the negated expiry time (the earliest is the max).
    @exclusivity(unchecked)
    var taskQueue = IndexedHeap<Double>()
    /// The app of each task-queue handle index.
    @exclusivity(unchecked)
    var appByTaskSlot: [Int32] = []
    /// The sequence number given to the next app that enters a band.
    @exclusivity(unchecked)
    var bandSequence: UInt64 = 0
    /// Apps that crossed a fatal memory limit during the current action, killed before pressure is evaluated.
    @exclusivity(unchecked)
    var limitViolators: [Int] = []
    /// Set when an app joins ``limitViolators``, cleared when they are killed: what every
    /// footprint change's pressure check reads instead of the array (one byte, no call).
    @exclusivity(unchecked)
    var mayHaveLimitViolators = false

    /// Free memory above which the current level is left (`.max` at normal).
    @exclusivity(unchecked)
    var fallAbove: Int64 = .max
    /// Free memory below which an action must evaluate pressure: the highest of the point where
    /// a higher level than the current one is entered, the kill target (at or above the kill
    /// rule's start level) and the bands' own start points.
    @exclusivity(unchecked)
    var evaluateBelow: Int64 = .min

    /// Resolved thresholds, in bytes of free memory, indexed by level (index 0 unused). Every
    /// "below" bound is exclusive: under ``ThresholdComparison/atOrBelow`` it is the policy's
    /// figure plus one byte, so that one `<` serves both comparisons.
    let enterBelow: [Int64]
    let clearAbove: [Int64]
    let killTarget: Int64
    /// Free swap below which each level may be entered and kept (`.max`: no condition, or a
    /// device without swap), indexed by level.
    let swapBelow: [Int64]
    /// Whether any level has a free-swap condition.
    let hasSwapConditions: Bool
    /// All the swap there is: the device's, plus zram's size under a policy that swaps to zram
    /// (`SwapTotal`).
    let swapTotal: Int64
    /// The total `oom_badness` scales by: memory plus all the swap (the kernel's `totalpages`).
    let badnessTotal: Int64
    /// Each band's own start and stop points (exclusive bounds; `.min`: the band follows the kill rule).
    let bandKillBelow: [Int64]
    /// Each band's swap floor in bytes (``Band/minimumSwapPercent`` of ``swapTotal``, as
    /// systemd-oomd computes it): an app with at most this much in swap is not killed from the
    /// band. −1 where the band has none.
    let bandSwapFloor: [Int64]
    let bandKillUntil: [Int64]
    /// The highest own start point of any band (`.min`: none), so the pressure check sees it.
    let bandKillTrigger: Int64
    /// The policy's oom_score_adj and priority by background mode, indexed by the mode's bit.
    let adjByMode: [Int?]
    let priorityByMode: [Int?]
    /// Swap in use outside the apps' own swap entries (a live source's or a trace's reading).
    @exclusivity(unchecked)
    var unattributedSwap: Int64 = 0
    /// The sum of the resident apps' swap entries.
    @exclusivity(unchecked)
    var appSwap: Int64 = 0
    /// Each app's swapped-out bytes, by slot: stored only from the first app that has any (as
    /// ``generations``), then one per slot, so an engine of apps without swap pays nothing and a
    /// snapshot of a million apps with swap pays 8 bytes an app, not a dictionary entry.
    var swapBytesBySlot: [Int64] = []
    /// Each app's page-table bytes, by slot, stored as ``swapBytesBySlot`` is.
    var pageTableBytesBySlot: [Int64] = []
    /// The compressed-memory books (``Policy/compression``; `nil`: the policy has none).
    @exclusivity(unchecked)
    var compression: CompressionBooks? = nil
    /// lmkd's PSI-mode books (``Policy/psi``; `nil`: the policy has none).
    @exclusivity(unchecked)
    var pressureStall: PressureStallBooks? = nil
    /// Whether ``compression`` is set, read on every footprint change without copying the
    /// optional books (a test of `compression != nil` calls an outlined copy of them).
    @exclusivity(unchecked)
    private(set) var hasCompression = false
    /// Whether ``pressureStall`` is set, read as ``hasCompression`` is.
    @exclusivity(unchecked)
    private(set) var hasPressureStall = false
    /// systemd-oomd's memory-pressure books (``Policy/memoryPressureLimit``; `nil`: none).
    @exclusivity(unchecked)
    var memoryPressureLimit: MemoryPressureLimitBooks? = nil
    /// Whether ``memoryPressureLimit`` is set, read on every action and footprint change.
    @exclusivity(unchecked)
    private(set) var hasMemoryPressureLimit = false
    /// Whether the policy prewarms (a ``Prewarm`` rule), read on every action; such a policy always
    /// has ``reuse``, whose launches it repeats.
    @exclusivity(unchecked)
    private(set) var prewarms = false
    /// Resident apps the engine prewarmed that the user has not opened since (``Prewarm``).
    @exclusivity(unchecked)
    var prewarmedUnopened = 0
    /// CPU seconds of the compression done by the reclaim now under way.
    @exclusivity(unchecked)
    var lastReclaimSeconds = 0.0
    /// Words put before the band's reason of the kills being made (a kill for compressor space).
    var killReasonPrefix: String? = nil
    /// How far footprints are shifted right to fit the kill key's 36-bit value field.
    let valueShift: Int64
    /// The policy's bands and protections with their patterns compiled.
    let matcher: PolicyMatcher
    /// What key computations read of each band.
    let bandInfo: [BandInfo]
    /// Classifications already computed, when the policy does not match names.
    var classifications: [ClassificationKey: Classification] = [:]
    /// A direct-mapped cache in front of ``classifications``, by the packed key: loading a
    /// snapshot classifies every app, and an integer hash is cheaper than hashing the key.
    var classificationSlots = [ClassificationSlot](repeating: ClassificationSlot(), count: 64)
    /// Whether the policy has name preferences.
    let hasPreferences: Bool
    /// Whether a band orders by expected relaunch cost (opens are then counted).
    let learnsUse: Bool
    /// Whether a band orders by ``externalScore``.
    let hasExternalBands: Bool
    /// Whether a band's keys depend on the clock (``BandOrder/externalScore``,
    /// ``BandOrder/predictedReuse``): they are re-scored before each victim is chosen.
    let hasDynamicBands: Bool
    /// The counts behind ``BandOrder/predictedReuse`` (`nil` unless a band orders by it).
    var reuse: ReuseBooks?
    /// The scores ``externalScore`` gave the apps at the last victim choice, by app index.
    var externalScores: [Int: Double] = [:]
    /// How many times the engine has asked ``externalScore`` to score the queue: one round before
    /// each victim choice (a search over choices can tell the rounds apart by it).
    public internal(set) var externalScoreRounds = 0

    /// Scores apps for bands ordered by ``BandOrder/externalScore`` (higher: killed first): the
    /// app, its footprint and the engine's time. Read for every resident app of such bands before
    /// each victim is chosen, so it may depend on time; with compression ordered by
    /// ``MemoryCompression/Order/externalScore``, also for every app reclaim may compress before
    /// each reclaim (higher: compressed first). `nil` scores every app 0.
    ///
    /// - Complexity: the engine calls it O(n) times per victim chosen.
    public var externalScore: ((AppID, Bytes, Double) -> Double)? = nil

    /// For a policy that prewarms (``Prewarm``) with no band ordered by
    /// ``BandOrder/predictedReuse``: each candidate's chance, from 0 to 1, of being the user's next
    /// open, given the app and the engine's time (`compare`'s `oracle-prewarm` answers from the rest
    /// of the trace). `nil` gives every app 0, so nothing is prewarmed.
    ///
    /// - Complexity: the engine calls it once per app it has seen launched and that is not in
    ///   memory, after each open.
    public var prewarmChance: ((AppID, Double) -> Double)? = nil

    @exclusivity(unchecked)
    var events: [Event] = []
    /// How many events the log keeps between two ``takeEvents()`` calls (see ``EventRetention``).
    public var eventRetention: EventRetention = .all {
        didSet { trimEvents() }
    }
    /// The log length at which old events are dropped (`Int.max`: never; see ``EventRetention``).
    @exclusivity(unchecked)
    var eventTrimPoint = Int.max
    /// Events dropped by ``eventRetention`` since the engine was made.
    @exclusivity(unchecked)
    public internal(set) var droppedEvents = 0

    /// How many mutations are in progress (more than one only while callbacks run).
    @exclusivity(unchecked)
    var mutationDepth = 0
    /// Mutations callbacks requested, applied when the outermost mutation finishes.
    @exclusivity(unchecked)
    var deferredWork: [DeferredWork] = []
    /// Whether the records of apps that ended (terminated, killed, forgotten) are kept, so the
    /// engine remembers their relaunch history (``BandOrder/expectedRelaunchCost``, last use).
    /// On, the default, suits a phone's fixed set of apps; off suits a server with churning
    /// tenant ids: an app's record is reclaimed when it ends, its slot reused, and its
    /// ``AppReference``s go stale. With it, everything attached to the app goes too — its
    /// delegate, memory-warning observers and view-controller delegates — so an app relaunched
    /// under the same id starts with none, as a new process would.
    @exclusivity(unchecked)
    public var retainsEndedApps = true
    /// Apps that ended during the current mutation, reclaimed when it finishes.
    @exclusivity(unchecked)
    var endedApps: [Int32] = []
    /// Reclaimed slots of `apps`, reused before the array grows.
    @exclusivity(unchecked)
    var freeSlots: [Int32] = []
    /// Each slot's generation: bumped when its record is reclaimed, so references detect reuse.
    /// Empty until the first record is reclaimed (every generation is then 0), so an engine that
    /// retains ended apps — the default — pays no memory for it (Benchmarks/README.md, "Engine
    /// memory per tracked app"); read it through ``generation(ofSlot:)``.
    @exclusivity(unchecked)
    var generations: ContiguousArray<UInt64> = []
    var delegates: [Int32: any ApplicationDelegate] = [:]
    var viewDelegates: [ViewKey: any ViewControllerDelegate] = [:]
    var observers: [Int32: [(serial: Int, handler: (Int) -> MemoryWarningResponse)]] = [:]
    var observerSerial = 0

    struct ViewKey: Hashable {
        var app: Int32
        var view: String
    }

    /// An engine for `device` following `policy`, with no app running.
    ///
    /// - Throws: ``EngineError/invalidPolicy(_:)`` if the policy breaks a schema rule
    ///   (``Policy/validate()``), ``EngineError/invalidPattern(_:)`` if a pattern does not compile.
    /// - Complexity: O(size of the policy)
    public init(device: Device, policy: Policy) throws(EngineError) {
        assert(
            AppState.allCases.enumerated().allSatisfy { Int($0.element.ordinal) == $0.offset },
            "AppState.ordinal is not the declaration order: BandTable would read the wrong band")
        do throws(PolicyErrors) {
            try policy.validate()
        } catch {
            throw .invalidPolicy(error)
        }
        self.policy = policy
        self.accountant = ResourceAccountant(device: device)
        let usable = device.usable
        let thresholds = policy.thresholds
        let levels = [thresholds.warning, thresholds.urgent, thresholds.critical]
        // A level the policy does not use is never entered: its thresholds are below any free memory.
        // At or below (earlyoom) a threshold of n bytes is crossed below n + 1.
        let inclusive: Int64 = policy.comparison == .atOrBelow ? 1 : 0
        enterBelow = [0] + levels.map { $0.map { $0.enter.resolved(against: usable).value &+ inclusive } ?? .min }
        clearAbove = [0] + levels.map { $0?.clear.resolved(against: usable).value ?? .min }
        // In lmkd's PSI mode the kill rule's target never starts kills (its own rules do).
        killTarget = policy.psi != nil ? .min : policy.kills.target.resolved(against: usable).value &+ inclusive
        // zram, a swap file and zswap's file are swap: their size adds to the device's (free swap,
        // earlyoom's condition, oom_badness).
        let poolSwapSize =
            policy.compression.map { $0.mechanism.isSwap ? $0.capacity.resolved(against: device.memory).value : 0 } ?? 0
        let swapTotal = device.swap.value &+ poolSwapSize
        self.swapTotal = swapTotal
        badnessTotal = device.memory.value &+ swapTotal
        swapBelow =
            [.max]
            + levels.map { level in
                guard let swap = level?.swapFree, swapTotal > 0 else { return .max }
                return swap.resolved(against: Bytes(swapTotal)).value &+ inclusive
            }
        hasSwapConditions = swapBelow.contains { $0 != .max }
        bandKillBelow = policy.bands.map { $0.killBelow.map { $0.resolved(on: device).value &+ inclusive } ?? .min }
        // systemd-oomd: threshold = swap_total * THRESHOLD_SWAP_USED_PERCENT / 100, in integers.
        bandSwapFloor = policy.bands.map { band in
            band.minimumSwapPercent.map { Int64((Double(swapTotal) * $0 / 100).rounded(.down)) } ?? -1
        }
        bandKillUntil = policy.bands.map { band in
            guard let start = band.killBelow else { return .min }
            return (band.killUntil ?? start).resolved(on: device).value &+ inclusive
        }
        bandKillTrigger = bandKillBelow.max() ?? .min
        adjByMode = BackgroundMode.allCases.map { policy.oomScoreAdjByBackgroundMode[$0] }
        priorityByMode = BackgroundMode.allCases.map { policy.priorityByBackgroundMode[$0] }
        if let swapFree = device.swapFree {
            unattributedSwap = Swift.max(device.swap.value - swapFree.value, 0)
        }
        var shift: Int64 = 0
        while (max(usable.value, 1) &* 2) >> shift >= (1 << Self.valueBits) { shift += 1 }
        valueShift = shift
        matcher = try PolicyMatcher(policy: policy)
        bandInfo = policy.bands.map(BandInfo.init)
        hasPreferences = !policy.preferences.isEmpty
        learnsUse = policy.bands.contains { $0.order == .expectedRelaunchCost }
        hasExternalBands = policy.bands.contains { $0.order == .externalScore }
        let predicts = policy.bands.contains { $0.order == .predictedReuse }
        hasDynamicBands = hasExternalBands || predicts
        // A policy that prewarms keeps the books for the launches it repeats, even when no band
        // reads their prediction (a reference that asks ``prewarmChance`` instead).
        reuse =
            predicts || policy.prediction.prewarm != nil
            ? ReuseBooks(model: policy.prediction, cost: policy.relaunch) : nil
        compression = policy.compression.map { CompressionBooks(model: $0, device: device, inclusive: inclusive) }
        pressureStall = policy.psi.map { PressureStallBooks(rule: $0, device: device) }
        memoryPressureLimit = policy.memoryPressureLimit.map { MemoryPressureLimitBooks(rule: $0, device: device) }
        hasMemoryPressureLimit = memoryPressureLimit != nil
        hasCompression = compression != nil
        hasPressureStall = pressureStall != nil
        prewarms = policy.prediction.prewarm != nil  // and so `reuse` holds its launches
        updateLevelBounds()
    }

    /// Free memory: physical − reserve − Σ footprints.
    ///
    /// - Complexity: O(1)
    public var free: Bytes { accountant.free }

    /// The device.
    public var device: Device { accountant.device }

    /// Removes and returns the events logged since the last call, oldest first.
    ///
    /// - Complexity: O(1) with ``EventRetention/all``; under a bounded ``eventRetention``, O(events
    ///   kept) when the log has grown past its capacity (amortized O(1) per event logged).
    public func takeEvents() -> [Event] {
        trimEvents()
        defer { events = [] }
        return events
    }

    /// Appends an event at the current time.
    @inline(__always)
    func log(_ kind: Event.Kind) {
        if events.count >= eventTrimPoint {
            guard makeRoomForEvent() else { return }
        }
        events.append(Event(time: now, kind: kind))
    }

    /// Appends an event at `time`, which is at least the time of every event logged before and at
    /// most that of any logged after (a timed check's, between two actions).
    func log(_ kind: Event.Kind, at time: Double) {
        if events.count >= eventTrimPoint {
            guard makeRoomForEvent() else { return }
        }
        events.append(Event(time: time, kind: kind))
    }

    /// The index of `app`, or throws ``EngineError/unknownApp(_:)``.
    func index(of app: AppID) throws(EngineError) -> Int {
        guard let index = indexByID[app] else { throw .unknownApp(app) }
        return Int(index)
    }
}
