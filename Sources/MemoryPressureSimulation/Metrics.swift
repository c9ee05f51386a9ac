import MemoryPressure

/// What one run of a trace under a policy cost the user and the device. Every figure except the
/// engine's own cost (``eventsPerSecond``, ``nanosecondsPerDecision``) is a pure function of the
/// trace and the policy; definitions are in README.md ("Metrics").
public struct Metrics: Sendable, Hashable {
    /// Times the user opened an app that the engine had killed since its last use (`didFinishLaunching`
    /// of an app killed by the engine): the cost a user feels.
    public var coldRelaunches = 0
    /// Times the user returned to an app still in memory (`willEnterForeground`).
    public var warmResumes = 0
    /// Every cold launch (`didFinishLaunching`), first launches of the day included.
    public var coldLaunches = 0
    /// Seconds the user waited for apps: every cold launch and warm resume, priced by the run's
    /// ``LaunchCost``, and the decompression a warm resume waited for (``decompressionWait``).
    public var launchWait = 0.0
    /// The part of ``launchWait`` spent on cold relaunches (apps the engine had killed).
    public var coldRelaunchWait = 0.0
    /// Engine kills (not user kills), by the kind of reason (the reason without its figures).
    public var killsByReason: [String: Int] = [:]
    /// Engine kills by the state the victim was in.
    public var killsByState: [AppState: Int] = [:]
    /// Kills of the foreground (active or inactive) app.
    public var foregroundKills = 0
    /// `didReceiveMemoryWarning` deliveries at level 1.
    public var level1Warnings = 0
    /// `didReceiveMemoryWarning` deliveries at level 2.
    public var level2Warnings = 0
    /// Bytes released by purges (views, caches, handlers, system purges).
    public var bytesFreedByPurging: Int64 = 0
    /// Bytes released by engine kills.
    public var bytesFreedByKilling: Int64 = 0
    /// Seconds spent at each pressure level.
    public var secondsAtLevel: [PressureLevel: Double] = [:]
    /// Views loaded again after a purge released them (`viewDidLoad` of a view the app had before).
    public var viewsReloaded = 0
    /// Uncompressed bytes reclaim compressed (`Policy.compression`).
    public var bytesCompressed: Int64 = 0
    /// Uncompressed bytes decompressed when apps ran again.
    public var bytesDecompressed: Int64 = 0
    /// Bytes of clean file pages reclaim dropped.
    public var bytesEvicted: Int64 = 0
    /// Bytes of file pages read again when apps ran again (refaults).
    public var bytesRefaulted: Int64 = 0
    /// CPU seconds spent compressing.
    public var compressionSeconds = 0.0
    /// Compressed bytes the freezer wrote to storage.
    public var bytesFrozen: Int64 = 0
    /// Frozen apps read back when they ran again.
    public var thawedApps = 0
    /// Swapped bytes zswap wrote back from its full cache to the swap file.
    public var bytesWrittenBack: Int64 = 0
    /// Warm resumes that waited for decompression or refaults (a part of ``warmResumes``).
    public var decompressedResumes = 0
    /// Seconds the user waited for thawing, decompression and refaults on warm resumes (a part of ``launchWait``).
    public var decompressionWait = 0.0
    /// Apps the policy prewarmed (`Prewarm`): launched in the background before the user opened them.
    public var prewarms = 0
    /// Prewarmed apps the user then opened while they were still in memory (warm resumes they brought).
    public var prewarmsOpened = 0
    /// Bytes prewarmed apps launched with.
    public var bytesPrewarmed: Int64 = 0
    /// Launch work spent prewarming, in seconds: each prewarm priced as a cold launch of its size
    /// (the user does not wait for it; the device spends it).
    public var prewarmSeconds = 0.0
    /// The simulated pressure stall, under a policy that acts on it (`Policy.psi`,
    /// `Policy.memoryPressureLimit`): seconds of stall, and time above each of the policy's
    /// thresholds, its crossings and the peak; `nil` under any other policy. Read from the engine
    /// by ``SimulationRun`` (the event log has the crossings only).
    public var pressureStall: PressureStallFigures? = nil
    /// The time-weighted average number of resident apps.
    public var averageResidentApps = 0.0
    /// Actions the replay skipped because the policy had killed the app they address.
    public var skippedActions = 0
    /// Actions replayed.
    public var actions = 0
    /// Events the engine logged.
    public var events = 0
    /// Engine throughput: actions per second of wall time (not deterministic).
    public var eventsPerSecond = 0.0
    /// Engine cost per action (one decision), in nanoseconds of wall time (not deterministic).
    public var nanosecondsPerDecision = 0.0

    /// All engine kills.
    public var kills: Int { killsByReason.values.reduce(0, +) }

    /// Creates empty metrics.
    ///
    /// - Complexity: O(1)
    public init() {}

    /// The same metrics without the wall-clock figures, for comparing runs.
    public var deterministic: Metrics {
        var copy = self
        copy.eventsPerSecond = 0
        copy.nanosecondsPerDecision = 0
        return copy
    }

    /// The kind of a kill reason: its text without the figures that vary from kill to kill
    /// ("least recently used suspended app (frontmost 30s ago)" → "least recently used suspended app").
    ///
    /// - Complexity: O(length of `reason`)
    public static func reasonKind(_ reason: String) -> String {
        if reason.hasPrefix("oom_score ") { return "highest oom_score" }
        var kind = Substring(reason)
        for separator in [" (", ": ", "; ", ", "] {
            if let range = kind.range(of: separator) { kind = kind[..<range.lowerBound] }
        }
        return String(kind)
    }
}

/// Computes ``Metrics`` from the event log of a run, one event at a time.
public struct MetricsCollector {
    /// The figures so far.
    public private(set) var metrics = Metrics()
    /// How launch waits are priced.
    public let launchCost: LaunchCost
    /// The launch description of the action being recorded, if it is a launch or an open.
    private var pendingLaunch: AppLaunch? = nil
    private var killed: Set<AppID> = []
    /// Prewarmed apps not opened since, nor out of memory.
    private var prewarmed: Set<AppID> = []
    private var level: PressureLevel = .normal
    private var levelSince = 0.0
    private var resident = 0
    private var residentSince = 0.0
    private var residentIntegral = 0.0
    /// When counting started (``startCounting(at:)``; 0 from the start).
    private var countingFrom = 0.0
    /// Views each running app has had loaded in its current process (launch views and shown views).
    private var knownViews: [AppID: Set<String>] = [:]

    /// A collector at time 0, pricing launches with `launchCost`.
    ///
    /// - Complexity: O(1)
    public init(launchCost: LaunchCost = .phone) {
        self.launchCost = launchCost
    }

    /// Notes the action whose events come next: if it launches an app, its description prices the
    /// launch and its views count as loaded (so loading one again later is a reload).
    ///
    /// - Complexity: O(1)
    public mutating func noteAction(_ action: Action) {
        switch action {
        case .launch(let launch), .open(let launch): pendingLaunch = launch
        default: pendingLaunch = nil
        }
    }

    /// Counts one event.
    ///
    /// - Complexity: O(1) (hash lookups), plus O(views of the launch) for a launch's `didFinishLaunching`
    ///   and O(length of the reason) for a kill.
    public mutating func record(_ event: Event) {
        metrics.events += 1
        switch event.kind {
        case .callback(let app, let name, let level):
            switch name {
            case .didFinishLaunching:
                metrics.coldLaunches += 1
                var cost = launchCost.coldFixed
                if let launch = pendingLaunch, launch.id == app {
                    cost = launchCost.cold(footprint: launch.footprint)
                    knownViews[app, default: []].formUnion(launch.views.map(\.name))
                }
                metrics.launchWait += cost
                if killed.remove(app) != nil {
                    metrics.coldRelaunches += 1
                    metrics.coldRelaunchWait += cost
                }
            case .willEnterForeground:
                metrics.warmResumes += 1
                metrics.launchWait += launchCost.warmFixed
                if prewarmed.remove(app) != nil { metrics.prewarmsOpened += 1 }
            case .didReceiveMemoryWarning:
                if level == 1 { metrics.level1Warnings += 1 } else { metrics.level2Warnings += 1 }
            default: break
            }
        case .viewCallback(let app, let view, let name):
            if name == .viewDidLoad {
                if knownViews[app]?.contains(view) == true { metrics.viewsReloaded += 1 }
                knownViews[app, default: []].insert(view)
            }
        case .state(let app, let from, let to):
            if !from.isResident && to.isResident { changeResident(by: 1, at: event.time) }
            if from.isResident && !to.isResident {
                changeResident(by: -1, at: event.time)
                knownViews[app] = nil
                prewarmed.remove(app)
            }
        case .level(_, let to, _):
            metrics.secondsAtLevel[level, default: 0] += event.time - levelSince
            level = to
            levelSince = event.time
        case .purge(_, _, let freed):
            metrics.bytesFreedByPurging = Self.saturatingSum(metrics.bytesFreedByPurging, freed.value)
        case .kill(let app, let state, let reason, _, let freed):
            metrics.killsByReason[Metrics.reasonKind(reason), default: 0] += 1
            metrics.killsByState[state, default: 0] += 1
            if state.isForeground { metrics.foregroundKills += 1 }
            metrics.bytesFreedByKilling = Self.saturatingSum(metrics.bytesFreedByKilling, freed.value)
            killed.insert(app)
        case .notification:
            break
        case .compress(_, let bytes, _, let evicted, let seconds):
            metrics.bytesCompressed = Self.saturatingSum(metrics.bytesCompressed, bytes.value)
            metrics.bytesEvicted = Self.saturatingSum(metrics.bytesEvicted, evicted.value)
            metrics.compressionSeconds += seconds
        case .decompress(let app, let bytes, _, let refaulted, let seconds):
            metrics.bytesDecompressed = Self.saturatingSum(metrics.bytesDecompressed, bytes.value)
            metrics.bytesRefaulted = Self.saturatingSum(metrics.bytesRefaulted, refaulted.value)
            // An app the user brings back waits for it; one that starts executing on its own does not.
            if let launch = pendingLaunch, launch.id == app {
                metrics.decompressedResumes += 1
                metrics.decompressionWait += seconds
                metrics.launchWait += seconds
            }
        case .freeze(_, let bytes, _):
            metrics.bytesFrozen = Self.saturatingSum(metrics.bytesFrozen, bytes.value)
        case .thaw(let app, _, let seconds):
            metrics.thawedApps += 1
            if let launch = pendingLaunch, launch.id == app {
                metrics.decompressionWait += seconds
                metrics.launchWait += seconds
            }
        case .writeback(_, let bytes, _):
            metrics.bytesWrittenBack = Self.saturatingSum(metrics.bytesWrittenBack, bytes.value)
        case .prewarm(let app, let bytes):
            metrics.prewarms += 1
            metrics.bytesPrewarmed = Self.saturatingSum(metrics.bytesPrewarmed, bytes.value)
            metrics.prewarmSeconds += launchCost.cold(footprint: bytes)
            prewarmed.insert(app)
            // A relaunch later is of an app the prewarm brought back, not of the one killed.
            killed.remove(app)
        case .pressure:
            // The stall's figures come from the engine (`SimulationRun`), which also sees it between crossings.
            break
        }
    }

    /// `a + b`, held at `Int64.max` instead of trapping: a run of millions of kills of apps near
    /// the 2^50-byte limit could pass 2^63 in total.
    static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    private mutating func changeResident(by delta: Int, at time: Double) {
        residentIntegral += Double(resident) * (time - residentSince)
        residentSince = time
        resident += delta
    }

    /// Starts the figures again at `time`, keeping what the collector knows of the run so far
    /// (which apps were killed, which views each process loaded, the level, the resident apps):
    /// what happened before is a warm-up the policy learns from and the metrics do not count.
    ///
    /// - Complexity: O(1)
    public mutating func startCounting(at time: Double) {
        metrics = Metrics()
        levelSince = time
        residentSince = time
        residentIntegral = 0
        countingFrom = time
    }

    /// Closes the run at `time`: time at the last level and the resident average are completed.
    ///
    /// - Complexity: O(1)
    public mutating func finish(at time: Double) {
        metrics.secondsAtLevel[level, default: 0] += time - levelSince
        levelSince = time
        changeResident(by: 0, at: time)
        let counted = time - countingFrom
        metrics.averageResidentApps = counted > 0 ? residentIntegral / counted : Double(resident)
    }
}
