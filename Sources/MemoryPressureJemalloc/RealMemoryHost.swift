import MemoryPressure
import MemoryPressureFormats

/// Runs a `PressureEngine` on real memory: every app (or tenant) gets a jemalloc arena of its
/// own (a ``TenantMemory``), and every byte the engine counts for it is really allocated there,
/// scaled by ``RealMemoryConfiguration/scale``.
///
/// ``apply(_:at:)`` applies an action to the engine, then mirrors its effect into the arenas
/// from the action and the events it caused: a cold launch allocates the app's base memory, views
/// and purgeable caches; `allocate`/`free` allocate and free base (or purgeable) memory; a
/// `viewDidLoad` allocates the view again; a purge frees exactly the views, caches or base bytes
/// the engine released and returns the pages to the OS; a kill or a termination resets the
/// app's arena. Every kill and purge is measured: the engine's `freed` times the scale against
/// the drop of the arena's `resident` bytes (``report``).
///
/// In each arena (``memory(of:)``), base memory and purgeable caches are allocations of kinds
/// ``TenantMemoryKind/base`` and ``TenantMemoryKind/purgeableCache``; every loaded view, onscreen
/// or not, is one ``TenantMemoryKind/viewCache`` allocation labelled `view:<name>`, and a purge
/// frees by label only the views the engine unloaded, never the onscreen one. Each scaled size is
/// rounded to the nearest page, so a release can differ from the engine's figure by half a page
/// per allocation, plus the page of padding jemalloc gives each large piece: that is what
/// ``MeasuredRelease/pageAllowance`` sets aside.
///
///     let host = try RealMemoryHost(device: .iPhone4, policy: .ios4)
///     try host.apply(.launch(AppLaunch(id: "com.example.mail", footprint: .mebibytes(40))), at: 0)
///     print(host.report.kills.measured)
///
/// **The engine keeps its own books; the arenas are the measurement.** The host does not feed
/// the arenas' footprints back into the engine (`PressureEngine.changeFootprint(of:by:purgeable:at:)`):
/// the difference is allocator overhead (the arena's metadata, page rounding, padding), which
/// the engine would have to charge to the app's base memory, although no purge can release it
/// and an arena reset leaves the metadata in place, so every later kill would "expect" bytes
/// that do not come back, and the comparison would measure its own input. The engine also
/// refuses footprint changes of suspended apps, so only some books could follow; each change
/// re-evaluates pressure, so allocator noise of a few pages could warn or kill; and the engine's
/// decisions would depend on the allocator's state, no longer deterministic. The drift between
/// the two is reported instead (``RealMemoryReport/largestFootprintDrift``).
///
/// Apply every action through the host (not through ``engine``, whose events the host takes; a
/// change that bypasses the host is reported as ``RealMemoryError/outOfSync(app:step:engine:mirrored:)``
/// by the next action that touches the app); use ``engine`` to query it and to attach delegates
/// and observers. Not thread-safe.
public final class RealMemoryHost {
    /// The engine that decides; register delegates and observers on it, query it freely.
    public let engine: PressureEngine
    /// How engine bytes become real allocations.
    public let configuration: RealMemoryConfiguration
    /// jemalloc's page size.
    public let pageSize: Int
    /// Every kill and purge measured so far, and the footprint drift.
    public internal(set) var report: RealMemoryReport

    /// Each app's arena and what its allocations stand for, created at its first cold launch.
    var mirrors: [AppID: AppMemoryMirror] = [:]

    /// A host around a new engine for `device` and `policy`.
    ///
    /// - Throws: ``RealMemoryError/invalidScale(_:)``; ``RealMemoryError/compressionNotMirrored(policy:)``
    ///   for a policy with compression and ``RealMemoryError/prewarmNotMirrored(policy:)`` for one that
    ///   prewarms; ``RealMemoryError/engine(_:)`` if the
    ///   policy's patterns do not compile; ``RealMemoryError/jemalloc(_:app:)`` if jemalloc's
    ///   page size (`arenas.page`) cannot be read.
    /// - Complexity: O(size of the policy)
    public init(
        device: Device, policy: Policy = .ios4, configuration: RealMemoryConfiguration = RealMemoryConfiguration()
    ) throws(RealMemoryError) {
        guard configuration.scale > 0, configuration.scale.isFinite else { throw .invalidScale(configuration.scale) }
        guard policy.compression == nil else { throw .compressionNotMirrored(policy: policy.name) }
        guard policy.prediction.prewarm == nil else { throw .prewarmNotMirrored(policy: policy.name) }
        do {
            self.engine = try PressureEngine(device: device, policy: policy)
        } catch {
            throw .engine(error)
        }
        do {
            self.pageSize = try Jemalloc.pageSize()
        } catch {
            throw .jemalloc(error, app: nil)
        }
        self.configuration = configuration
        self.report = RealMemoryReport(scale: configuration.scale, pageSize: pageSize)
    }

    /// Applies `action` at `time` to the engine, then mirrors its effect into the apps' arenas,
    /// measuring every kill and purge (see the type's description).
    ///
    /// - Returns: the events the action caused, as `PressureEngine.takeEvents()` gives them.
    /// - Throws: ``RealMemoryError/engine(_:)`` if the engine refuses the action (nothing
    ///   changed); ``RealMemoryError/jemalloc(_:app:)`` if an arena operation fails and
    ///   ``RealMemoryError/outOfSync(app:step:engine:mirrored:)`` if the arenas no longer match
    ///   the engine's books (after either, discard the host).
    /// - Complexity: the engine's cost, plus O(bytes allocated / page size) to touch new pages,
    ///   plus O(number of arenas) per statistics refresh (two per kill or purge, one for the
    ///   footprints of the apps the action touched).
    @discardableResult
    public func apply(_ action: Action, at time: Double) throws(RealMemoryError) -> [Event] {
        do {
            try engine.apply(action, at: time)
        } catch {
            throw .engine(error)
        }
        let events = engine.takeEvents()
        var touched = TouchedApps()
        if let app = action.app { touched.insert(app) }
        try mirror(action)
        for event in events {
            if let app = Self.app(of: event) { touched.insert(app) }
            try mirror(event, of: action, at: time)
        }
        try compareFootprints(of: touched.ordered, after: action)
        return events
    }

    /// The arena of `app`, or `nil` if it never launched through this host.
    ///
    /// - Complexity: O(1)
    public func memory(of app: AppID) -> TenantMemory? {
        mirrors[app]?.memory
    }

    /// The footprint of `app` read from its arena's statistics (`resident`), or `nil` if it never
    /// launched through this host.
    ///
    /// - Throws: ``RealMemoryError/jemalloc(_:app:)`` if the statistics cannot be read.
    /// - Complexity: O(number of arenas) for the statistics refresh.
    public func measuredFootprint(of app: AppID) throws(RealMemoryError) -> Bytes? {
        guard let memory = mirrors[app]?.memory else { return nil }
        do {
            return try memory.footprint()
        } catch {
            throw .jemalloc(error, app: app)
        }
    }

    /// The number of arenas the host created (one per app that ever launched).
    ///
    /// - Complexity: O(1)
    public var arenaCount: Int { mirrors.count }

    /// Apps in the order they were first touched, without repeats.
    struct TouchedApps {
        var ordered: [AppID] = []
        var seen: Set<AppID> = []

        mutating func insert(_ app: AppID) {
            if seen.insert(app).inserted { ordered.append(app) }
        }
    }
}
