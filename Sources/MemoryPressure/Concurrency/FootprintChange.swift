/// One footprint change of a batch (``SharedPressureEngine/changeFootprints(_:at:)``,
/// ``PressureEngineActor/changeFootprints(_:at:)``).
public struct FootprintChange: Sendable, Hashable {
    /// The app.
    public var app: AppReference
    /// Bytes allocated (positive) or freed (negative).
    public var delta: Bytes
    /// Whether the bytes are purgeable caches rather than base memory.
    public var purgeable: Bool

    /// A change of `delta` bytes to `app`'s base memory, or to its purgeable caches.
    ///
    /// - Complexity: O(1)
    public init(_ app: AppReference, by delta: Bytes, purgeable: Bool = false) {
        self.app = app
        self.delta = delta
        self.purgeable = purgeable
    }
}

/// An action of a batch and its time (``SharedPressureEngine/apply(_:)-([TimedAction])``).
public struct TimedAction: Sendable, Hashable {
    /// The action.
    public var action: Action
    /// Its time in seconds (never earlier than the previous action's).
    public var time: Double

    /// `action` at `time`.
    ///
    /// - Complexity: O(1)
    public init(_ action: Action, at time: Double) {
        self.action = action
        self.time = time
    }
}

/// A batch stopped at an element that failed; the elements after it did not run.
///
/// Usually the failed element changed nothing, and ``completed`` is its index. When its error is
/// ``EngineError/deferredActionsFailed(_:)``, the element itself took effect (only what its
/// callbacks deferred failed), so it counts as completed: retrying from ``completed`` never
/// applies an element twice.
public struct BatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many elements took effect, from the first.
    public var completed: Int
    /// Why the batch stopped.
    public var error: EngineError

    /// A failure of the element at `completed`.
    ///
    /// - Complexity: O(1)
    public init(completed: Int, error: EngineError) {
        self.completed = completed
        self.error = error
    }

    /// The stop of a batch whose element `index` (0-based) threw `error`: counted as completed if
    /// it took effect.
    init(failedAfter index: Int, _ error: EngineError) {
        if case .deferredActionsFailed = error {
            self.init(completed: index + 1, error: error)
        } else {
            self.init(completed: index, error: error)
        }
    }

    /// How many elements took effect and why the batch stopped.
    public var description: String { "batch stopped after \(completed) element(s) took effect: \(error.description)" }
}

extension PressureEngine {
    /// Applies `actions` in order, stopping at the first that fails.
    ///
    /// - Throws: ``BatchError`` naming the failed element; the elements before it took effect.
    /// - Complexity: the sum of the actions' costs (see ``apply(_:at:)``).
    public func apply(_ actions: some Sequence<TimedAction>) throws(BatchError) {
        var completed = 0
        for element in actions {
            do {
                try apply(element.action, at: element.time)
            } catch {
                throw BatchError(failedAfter: completed, error)
            }
            completed += 1
        }
    }

    /// Applies `changes` in order at `time`, stopping at the first that fails.
    ///
    /// - Throws: ``BatchError`` naming the failed element; the elements before it took effect.
    /// - Complexity: O(log n) per change, plus the pressure response where a level changes.
    public func changeFootprints(_ changes: some Sequence<FootprintChange>, at time: Double) throws(BatchError) {
        var completed = 0
        for change in changes {
            do {
                try changeFootprint(of: change.app, by: change.delta, purgeable: change.purgeable, at: time)
            } catch {
                throw BatchError(failedAfter: completed, error)
            }
            completed += 1
        }
    }
}
