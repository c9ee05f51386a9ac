/// A ``PressureEngine`` owned by an actor: callers in async code share it by awaiting its
/// methods, which suspend rather than block a thread while another caller is inside.
///
/// Each call is one actor hop, which costs more than ``SharedPressureEngine``'s lock when
/// uncontended (`Benchmarks/README.md`, "Concurrent front"); batch calls hop once per batch.
/// Callbacks (delegates, observers) run on the actor during the mutation; they are synchronous,
/// so they reach the engine only through the ``PressureEngine`` they are handed by
/// ``withEngine(_:)`` — its mutations from inside a callback are deferred until the current one
/// finishes (``PressureEngine/isMutating``).
@available(macOS 15.0, *)  // Synchronization.Atomic
public actor PressureEngineActor {
    private let engine: PressureEngine
    private let publisher: EventPublisher

    /// An engine for `device` following `policy`, owned by the actor.
    ///
    /// - Parameters:
    ///   - device: the device whose memory the engine accounts.
    ///   - policy: the policy it follows.
    ///   - eventBuffer: how many events ``events`` buffers for a consumer that falls behind
    ///     (0: none are kept).
    /// - Throws: what ``PressureEngine/init(device:policy:)`` throws.
    /// - Complexity: O(size of the policy)
    public init(device: Device, policy: Policy, eventBuffer: Int = 4096) throws(EngineError) {
        let engine = try PressureEngine(device: device, policy: policy)
        engine.eventRetention = eventBuffer > 0 ? .newest(eventBuffer) : .none
        self.engine = engine
        publisher = EventPublisher(capacity: eventBuffer)
    }

    /// Owns an engine already set up (apps added, delegates attached); the caller gives it up.
    /// The events the engine logged before and still holds (up to `eventBuffer` of them) reach
    /// ``events`` with the first call's, so the stream starts with the set-up; call
    /// ``PressureEngine/takeEvents()`` before wrapping it to leave them out.
    ///
    /// - Complexity: O(1)
    public init(wrapping engine: sending PressureEngine, eventBuffer: Int = 4096) {
        engine.eventRetention = eventBuffer > 0 ? .newest(eventBuffer) : .none
        self.engine = engine
        publisher = EventPublisher(capacity: eventBuffer)
    }

    deinit { publisher.finish() }

    /// The engine's events, in order, for one consumer; bounded like ``SharedPressureEngine/events``.
    public nonisolated var events: AsyncStream<Event> { publisher.stream }

    /// Ends ``events``: its consumer's loop ends after the events already buffered. Later events
    /// are dropped. Call it when shutting down.
    ///
    /// - Complexity: O(1)
    public nonisolated func finishEvents() { publisher.finish() }

    /// Events lost because the consumer of ``events`` fell behind (or there is none).
    public var droppedEvents: Int { publisher.droppedCount(engineDropped: engine.droppedEvents) }

    /// Runs `body` with the engine, on the actor, then publishes the events it caused.
    ///
    /// - Complexity: `body`'s cost plus one actor hop.
    public func withEngine<R: Sendable, E: Error>(_ body: (PressureEngine) throws(E) -> R) throws(E) -> R {
        defer { publisher.publish(from: engine) }
        return try body(engine)
    }

    /// Applies `action` at `time` (see ``PressureEngine/apply(_:at:)``).
    ///
    /// - Throws: what ``PressureEngine/apply(_:at:)`` throws.
    /// - Complexity: as ``PressureEngine/apply(_:at:)``, plus one actor hop.
    public func apply(_ action: Action, at time: Double) throws(EngineError) {
        defer { publisher.publish(from: engine) }
        try engine.apply(action, at: time)
    }

    /// Applies `actions` in order in one hop, stopping at the first that fails.
    ///
    /// - Throws: ``BatchError``; the elements before the failed one took effect.
    /// - Complexity: the sum of the actions' costs, plus one actor hop.
    public func apply(_ actions: [TimedAction]) throws(BatchError) {
        defer { publisher.publish(from: engine) }
        try engine.apply(actions)
    }

    /// A reference to `app`, or `nil` if the engine has never seen it.
    ///
    /// - Complexity: O(1)
    public func reference(to app: AppID) -> AppReference? { engine.reference(to: app) }

    /// Changes the footprint of the app `reference` refers to (see
    /// ``PressureEngine/changeFootprint(of:by:purgeable:at:)``).
    ///
    /// - Throws: what ``PressureEngine/changeFootprint(of:by:purgeable:at:)`` throws.
    /// - Complexity: O(log n) plus one actor hop, plus the pressure response if a level changes.
    public func changeFootprint(
        of reference: AppReference, by delta: Bytes, purgeable: Bool = false, at time: Double
    ) throws(EngineError) {
        defer { publisher.publish(from: engine) }
        try engine.changeFootprint(of: reference, by: delta, purgeable: purgeable, at: time)
    }

    /// Applies `changes` in order at `time` in one hop, stopping at the first that fails.
    ///
    /// - Throws: ``BatchError``; the changes before the failed one took effect.
    /// - Complexity: O(log n) per change plus one actor hop.
    public func changeFootprints(_ changes: [FootprintChange], at time: Double) throws(BatchError) {
        defer { publisher.publish(from: engine) }
        try engine.changeFootprints(changes, at: time)
    }

    /// The memory books at this moment.
    public var accountant: ResourceAccountant { engine.accountant }

    /// The pressure level at this moment.
    public var level: PressureLevel { engine.level }

    /// The next `limit` victims in kill order.
    ///
    /// - Complexity: O(limit log n)
    public func killOrder(limit: Int) -> [KillCandidate] { engine.killOrder(limit: limit) }
}
