import Synchronization

/// A ``PressureEngine`` that any number of threads share: every call takes one lock, in the style
/// of swift-nio's `NIOLockedValueBox`; batch calls take it once per batch.
///
/// Use it where a server's request handlers, running on many threads, report their tenants'
/// allocations to one engine. Calls never suspend, so they can be made from synchronous code; a
/// call waits while another thread holds the lock. (``PressureEngineActor`` is the alternative
/// for callers already in async code: it suspends instead of blocking a thread, at a higher cost
/// per call — `Benchmarks/README.md`, "Concurrent front", measures both.)
///
/// Events go to ``events``, an `AsyncStream` with a bounded buffer: a consumer that falls behind
/// loses the oldest events, counted by ``droppedEvents``.
///
/// Callbacks (delegates, observers) run on the calling thread while the lock is held. A callback
/// may call back into this front on the same thread: the call goes straight to the engine, which
/// defers the mutation until the current one finishes (``PressureEngine/isMutating``). A callback
/// must not wait for another thread that uses the front, which would deadlock.
///
///     let shared = try SharedPressureEngine(device: .iPhone4, policy: .ios4)
///     try shared.apply(.launch(AppLaunch(id: "tenant-1", footprint: .mebibytes(40))), at: 0)
///     let tenant = shared.reference(to: "tenant-1")!
///     // From any thread:
///     try shared.changeFootprint(of: tenant, by: .mebibytes(2), at: 1)
@available(macOS 15.0, *)  // Synchronization.Atomic
public final class SharedPressureEngine: @unchecked Sendable {
    // Invariant: `engine` is touched only while `lock` is held, by the thread recorded in `owner`.
    private let lock = Lock()
    private nonisolated(unsafe) let engine: PressureEngine
    private let owner = Atomic<UInt>(0)
    private let publisher: EventPublisher
    private let clock: (@Sendable () -> Double)?

    /// A shared engine for `device` following `policy`.
    ///
    /// - Parameters:
    ///   - device: the device whose memory the engine accounts.
    ///   - policy: the policy it follows.
    ///   - eventBuffer: how many events ``events`` buffers for a consumer that falls behind
    ///     (0: no events are kept at all, for callers that only need the engine's state).
    ///   - clock: the time, in seconds, for the calls that take none (`apply(_:)` with one action,
    ///     ``changeFootprint(of:by:purgeable:)``). It is read while the lock is held, so threads
    ///     racing to report see times in the order their calls took effect; `nil` uses the time of
    ///     the engine's last action.
    /// - Throws: what ``PressureEngine/init(device:policy:)`` throws.
    /// - Complexity: O(size of the policy)
    public convenience init(
        device: Device, policy: Policy, eventBuffer: Int = 4096, clock: (@Sendable () -> Double)? = nil
    ) throws(EngineError) {
        self.init(wrapping: try PressureEngine(device: device, policy: policy), eventBuffer: eventBuffer, clock: clock)
    }

    /// Wraps an engine already set up (the caller must not use `engine` directly afterwards).
    /// The events the engine logged before and still holds (up to `eventBuffer` of them) reach
    /// ``events`` with the first call's, so the stream starts with the set-up; call
    /// ``PressureEngine/takeEvents()`` before wrapping it to leave them out.
    ///
    /// - Complexity: O(1)
    public init(wrapping engine: PressureEngine, eventBuffer: Int = 4096, clock: (@Sendable () -> Double)? = nil) {
        engine.eventRetention = eventBuffer > 0 ? .newest(eventBuffer) : .none
        self.engine = engine
        self.clock = clock
        publisher = EventPublisher(capacity: eventBuffer)
    }

    /// The time for a call that gives none: the clock's, never before the engine's last action.
    private func currentTime(_ engine: PressureEngine) -> Double {
        Swift.max(engine.now, clock?() ?? engine.now)
    }

    /// Applies `action` now: at the clock's time (see ``init(device:policy:eventBuffer:clock:)``).
    ///
    /// - Throws: what ``PressureEngine/apply(_:at:)`` throws.
    /// - Complexity: as ``PressureEngine/apply(_:at:)``, plus one lock.
    public func apply(_ action: Action) throws(EngineError) {
        try withEngine { (engine) throws(EngineError) in try engine.apply(action, at: currentTime(engine)) }
    }

    /// Changes the footprint of the app `reference` refers to now: at the clock's time.
    ///
    /// - Throws: what ``PressureEngine/changeFootprint(of:by:purgeable:at:)`` throws.
    /// - Complexity: O(log n) plus one lock, plus the pressure response if a level changes.
    public func changeFootprint(of reference: AppReference, by delta: Bytes, purgeable: Bool = false)
        throws(EngineError)
    {
        try withEngine { (engine) throws(EngineError) in
            try engine.changeFootprint(of: reference, by: delta, purgeable: purgeable, at: currentTime(engine))
        }
    }

    /// Applies `changes` in order now (the clock's time) under one lock, stopping at the first that fails.
    ///
    /// - Throws: ``BatchError``; the changes before the failed one took effect.
    /// - Complexity: O(log n) per change plus one lock, plus the pressure response where a level changes.
    public func changeFootprints(_ changes: [FootprintChange]) throws(BatchError) {
        try withEngine { (engine) throws(BatchError) in try engine.changeFootprints(changes, at: currentTime(engine)) }
    }

    deinit { publisher.finish() }

    /// The engine's events, in order, for one consumer. Bounded (see ``init(device:policy:eventBuffer:clock:)``).
    public var events: AsyncStream<Event> { publisher.stream }

    /// Ends ``events``: its consumer's loop ends after the events already buffered. Later events
    /// are dropped. Call it when shutting down.
    ///
    /// - Complexity: O(1)
    public func finishEvents() { publisher.finish() }

    /// Events lost because the consumer of ``events`` fell behind (or there is none).
    ///
    /// - Complexity: O(1) plus the lock.
    public var droppedEvents: Int { withEngine { publisher.droppedCount(engineDropped: $0.droppedEvents) } }

    /// Runs `body` with exclusive access to the engine, then publishes the events it caused.
    /// Everything the other methods do goes through here; use it for anything they do not offer
    /// (queries, delegates, several calls that must see no other thread in between). Do not let
    /// the engine escape `body`.
    ///
    /// - Complexity: `body`'s cost plus one lock.
    public func withEngine<R, E: Error>(_ body: (PressureEngine) throws(E) -> R) throws(E) -> R {
        let me = currentThreadID()
        if owner.load(ordering: .relaxed) == me {
            // A callback on the thread that holds the lock: the engine defers its mutations.
            return try body(engine)
        }
        return try lock.withLock { () throws(E) -> R in
            owner.store(me, ordering: .relaxed)
            defer {
                publisher.publish(from: engine)
                owner.store(0, ordering: .relaxed)
            }
            return try body(engine)
        }
    }

    /// Applies `action` at `time` (see ``PressureEngine/apply(_:at:)``).
    ///
    /// - Throws: what ``PressureEngine/apply(_:at:)`` throws.
    /// - Complexity: as ``PressureEngine/apply(_:at:)``, plus one lock.
    public func apply(_ action: Action, at time: Double) throws(EngineError) {
        try withEngine { (engine) throws(EngineError) in try engine.apply(action, at: time) }
    }

    /// Applies `actions` in order under one lock, stopping at the first that fails.
    ///
    /// - Throws: ``BatchError``; the elements before the failed one took effect.
    /// - Complexity: the sum of the actions' costs, plus one lock.
    public func apply(_ actions: [TimedAction]) throws(BatchError) {
        try withEngine { (engine) throws(BatchError) in try engine.apply(actions) }
    }

    /// A reference to `app` for ``changeFootprint(of:by:purgeable:at:)``, or `nil` if the engine
    /// has never seen it.
    ///
    /// - Complexity: O(1) plus the lock.
    public func reference(to app: AppID) -> AppReference? { withEngine { $0.reference(to: app) } }

    /// Changes the footprint of the app `reference` refers to (see
    /// ``PressureEngine/changeFootprint(of:by:purgeable:at:)``).
    ///
    /// - Throws: what ``PressureEngine/changeFootprint(of:by:purgeable:at:)`` throws.
    /// - Complexity: O(log n) plus one lock, plus the pressure response if a level changes.
    public func changeFootprint(
        of reference: AppReference, by delta: Bytes, purgeable: Bool = false, at time: Double
    ) throws(EngineError) {
        try withEngine { (engine) throws(EngineError) in
            try engine.changeFootprint(of: reference, by: delta, purgeable: purgeable, at: time)
        }
    }

    /// Applies `changes` in order at `time` under one lock, stopping at the first that fails.
    ///
    /// - Throws: ``BatchError``; the changes before the failed one took effect.
    /// - Complexity: O(log n) per change plus one lock, plus the pressure response where a level changes.
    public func changeFootprints(_ changes: [FootprintChange], at time: Double) throws(BatchError) {
        try withEngine { (engine) throws(BatchError) in try engine.changeFootprints(changes, at: time) }
    }

    /// The memory books (device, total footprint, free memory) at this moment.
    ///
    /// - Complexity: O(1) plus the lock.
    public var accountant: ResourceAccountant { withEngine { $0.accountant } }

    /// The pressure level at this moment.
    ///
    /// - Complexity: O(1) plus the lock.
    public var level: PressureLevel { withEngine { $0.level } }

    /// The next `limit` victims in kill order (see ``PressureEngine/killOrder(limit:)``).
    ///
    /// - Complexity: O(limit log n) plus the lock.
    public func killOrder(limit: Int) -> [KillCandidate] { withEngine { $0.killOrder(limit: limit) } }
}
