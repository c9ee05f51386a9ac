/// How much of the event log a ``PressureEngine`` keeps until the caller takes it
/// (``PressureEngine/takeEvents()``).
///
/// A simulation reads every event; a server or a long-running `watch` may never read them, or
/// read them only now and then. The overflow policy is to keep the newest events: a reader that
/// falls behind sees what happened last, and ``PressureEngine/droppedEvents`` counts what it missed.
public enum EventRetention: Sendable, Hashable {
    /// Keep every event (the default; memory grows until the events are taken).
    case all
    /// Keep at most this many (at least 1): when the log is full, the oldest events are dropped.
    case newest(Int)
    /// Keep none: events are counted as dropped (the engine's state, queries and callbacks are
    /// unaffected).
    case none

    /// The most events kept (`Int.max`: all).
    var capacity: Int {
        switch self {
        case .all: .max
        case .newest(let count): Swift.max(count, 1)
        case .none: 0
        }
    }
}

extension PressureEngine {
    /// Drops the events beyond what ``eventRetention`` keeps, and sets the trim point: the log
    /// may grow to twice its capacity between trims, so each event costs O(1) amortized.
    ///
    /// - Complexity: O(events kept)
    func trimEvents() {
        let capacity = eventRetention.capacity
        eventTrimPoint = capacity > Int.max / 2 ? .max : 2 * capacity
        guard events.count > capacity else { return }
        let excess = events.count - capacity
        droppedEvents += excess
        events.removeFirst(excess)
    }

    /// Called when the log reaches its trim point; returns whether the new event is kept.
    ///
    /// - Complexity: O(capacity), once per `capacity` events.
    @inline(never)
    func makeRoomForEvent() -> Bool {
        let capacity = eventRetention.capacity
        guard capacity > 0 else {
            droppedEvents += 1
            return false
        }
        // Keep the newest capacity − 1, so that with the new one the log holds `capacity`.
        let excess = events.count - (capacity - 1)
        droppedEvents += excess
        events.removeFirst(excess)
        return true
    }
}
