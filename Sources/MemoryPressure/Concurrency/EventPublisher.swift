import Synchronization

/// Delivers a shared engine's events to one `AsyncStream`, bounded: when the consumer falls
/// behind (or there is none), the stream keeps the newest `capacity` events and the rest are
/// counted as dropped — the same overflow policy as ``EventRetention/newest(_:)``.
@available(macOS 15.0, *)  // Synchronization.Atomic
final class EventPublisher: Sendable {
    /// The stream of events (one consumer).
    let stream: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let dropped = Atomic<Int>(0)
    /// Whether events are delivered at all (`capacity` > 0).
    let isEnabled: Bool

    init(capacity: Int) {
        isEnabled = capacity > 0
        (stream, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingNewest(max(capacity, 1)))
        if !isEnabled { continuation.finish() }
    }

    deinit { continuation.finish() }

    /// Events dropped so far: by the stream's buffer, and by the engine's own log between two
    /// publications (`engineDropped`).
    func droppedCount(engineDropped: Int) -> Int { dropped.load(ordering: .relaxed) + engineDropped }

    /// Moves the engine's logged events into the stream. Call holding the engine's lock (or on
    /// its actor), so events enter the stream in the order they happened.
    ///
    /// - Complexity: O(events logged since the last call)
    @inline(__always)
    func publish(from engine: PressureEngine) {
        guard isEnabled, !engine.events.isEmpty else { return }
        for event in engine.takeEvents() {
            switch continuation.yield(event) {
            case .enqueued: break
            // The buffer was full (the oldest went), or the stream has ended (finished, or its
            // consumer cancelled): either way an event is lost.
            case .dropped, .terminated: dropped.add(1, ordering: .relaxed)
            @unknown default: dropped.add(1, ordering: .relaxed)
            }
        }
    }

    /// Ends the stream: a consumer's `for await` loop ends after the buffered events.
    func finish() { continuation.finish() }
}
