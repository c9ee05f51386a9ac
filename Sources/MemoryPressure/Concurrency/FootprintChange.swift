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

/// A batch stopped at a failed element; the elements before it took effect, the rest did not run.
public struct BatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many elements took effect (the failed one is at this index).
    public var completed: Int
    /// Why the element at ``completed`` failed.
    public var error: EngineError

    /// A failure of the element at `completed`.
    ///
    /// - Complexity: O(1)
    public init(completed: Int, error: EngineError) {
        self.completed = completed
        self.error = error
    }

    /// The failed element's position and error.
    public var description: String { "batch element \(completed) failed: \(error.description)" }
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
                throw BatchError(completed: completed, error: error)
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
                throw BatchError(completed: completed, error: error)
            }
            completed += 1
        }
    }
}
