import CoreMetrics
import MemoryPressure

/// Reports one `PressureEngine` through swift-metrics: the pressure level, free, used and usable
/// memory as gauges, and memory warnings, kills (by reason and band), level changes and bytes
/// freed as counters. Every metric is listed, with its labels, unit and the earlyoom, systemd-oomd
/// or node_exporter figure to chart it beside, by ``catalog(labelPrefix:)``.
///
/// The engine's only engine-wide observation point is its event log (the per-app observers of
/// `PressureEngine+Observers.swift` see one app's warnings, never a kill or a level change), so the
/// metrics are fed from the log: drain it with ``takeEvents()`` instead of
/// `PressureEngine.takeEvents()`, or pass what you drained yourself to ``record(_:)``. Neither
/// changes what the engine does or logs.
///
///     let engine = try PressureEngine(device: .iPhone4, policy: .ios4)
///     let metrics = try EngineMetrics(engine: engine)      // after MetricsSystem.bootstrap(…)
///     try engine.apply(.launch(AppLaunch(id: "com.example.mail", footprint: .mebibytes(40))), at: 0)
///     for event in metrics.takeEvents() { print(event.jsonLine) }
///
/// With no backend bootstrapped (swift-metrics' `NOOPMetricsHandler`), no metric object is made and
/// ``record(_:)`` and ``update()`` return at once: attaching costs nothing then.
///
/// Use it from the engine's thread, as the engine itself (the backend's handlers may be read from
/// any thread; swift-prometheus' are).
public final class EngineMetrics {
    /// The engine reported.
    public let engine: PressureEngine
    /// What every metric name starts with (followed by `_`, unless empty).
    public let labelPrefix: String
    /// Whether a backend receives the figures (`false`: swift-metrics' no-op handler, nothing is recorded).
    public let isEnabled: Bool

    /// The metric objects; `nil` when ``isEnabled`` is false.
    let instruments: Instruments?

    /// Attaches metrics to `engine`, made by `factory` (by default the one bootstrapped with
    /// `MetricsSystem.bootstrap`), and sets the gauges from the engine's present state.
    ///
    /// - Parameters:
    ///   - engine: the engine to report.
    ///   - labelPrefix: what every metric name starts with: empty, or a Prometheus metric name
    ///     (`[a-zA-Z_:][a-zA-Z0-9_:]*`, at most 64 characters); `_` joins it to each name.
    ///   - factory: the swift-metrics backend.
    /// - Throws: ``EngineMetricsError/invalidLabelPrefix(_:reason:)`` for a prefix that is not a
    ///   metric name.
    /// - Complexity: O(bands of the engine's policy)
    public init(
        engine: PressureEngine, labelPrefix: String = "mempressure", factory: any MetricsFactory = MetricsSystem.factory
    ) throws(EngineMetricsError) {
        try Self.validate(labelPrefix: labelPrefix)
        self.engine = engine
        self.labelPrefix = labelPrefix
        isEnabled = !(factory is NOOPMetricsHandler)
        instruments =
            isEnabled
            ? Instruments(names: MetricNames(prefix: labelPrefix), policy: engine.policy, factory: factory) : nil
        update()
    }

    /// Drains the engine's event log (`PressureEngine.takeEvents()`), records it, and returns it.
    ///
    /// - Complexity: O(events drained)
    public func takeEvents() -> [Event] {
        let events = engine.takeEvents()
        record(events)
        return events
    }

    /// Counts `events` (taken from this engine's log, each once) and refreshes the gauges.
    ///
    /// - Complexity: O(events), nothing at all when ``isEnabled`` is false.
    public func record<Events: Sequence<Event>>(_ events: Events) {
        guard let instruments else { return }
        for event in events { instruments.count(event) }
        instruments.setGauges(from: engine)
    }

    /// Sets the gauges (level, free, used and usable memory) from the engine's present state.
    ///
    /// - Complexity: O(1)
    public func update() {
        instruments?.setGauges(from: engine)
    }

    /// Checks that `labelPrefix` can start a Prometheus metric name.
    static func validate(labelPrefix: String) throws(EngineMetricsError) {
        guard labelPrefix.utf8.count <= 64 else {
            throw .invalidLabelPrefix(labelPrefix, reason: "longer than 64 characters")
        }
        for (offset, byte) in labelPrefix.utf8.enumerated() {
            let letter =
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x3A
            let digit = byte >= 0x30 && byte <= 0x39
            guard letter || (digit && offset > 0) else {
                throw .invalidLabelPrefix(
                    labelPrefix,
                    reason: "character \(offset + 1) is not a letter, digit, '_' or ':' (a digit cannot come first)")
            }
        }
    }
}
