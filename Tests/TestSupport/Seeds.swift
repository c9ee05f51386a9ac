import Testing

/// Where the enclosing ``withEvery(_:in:sourceLocation:_:)`` loops are: one "label: value" entry
/// per loop, outermost first, as swift-collections' `TestContext` keeps it. Failure messages
/// built inside a loop append ``TestContext/trail`` so that a failing case can be reproduced.
public enum TestContext {
    /// The entries of the enclosing loops.
    @TaskLocal public static var entries: [String] = []

    /// "seed: 42, step: 7", or "" outside any loop.
    public static var trail: String { entries.joined(separator: ", ") }

    /// `message` followed by the trail, if inside a loop.
    public static func annotate(_ message: String) -> String {
        entries.isEmpty ? message : "\(message) [\(trail)]"
    }
}

/// Runs `body` once per value, so a failing case can be reproduced from the value named in its
/// message: a thrown error is recorded with the label and value (then rethrown), and checks made
/// inside read the same from ``TestContext``.
public func withEvery<S: Sequence>(
    _ label: String,
    in values: S,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (S.Element) throws -> Void
) rethrows {
    for value in values {
        let entries = TestContext.entries + ["\(label): \(value)"]
        try TestContext.$entries.withValue(entries) {
            do {
                try body(value)
            } catch let error as WithEveryFailure {
                throw error  // an inner loop recorded it, with the whole trail
            } catch {
                Issue.record(
                    Comment(rawValue: "withEvery failed at \(TestContext.trail): \(error)"),
                    sourceLocation: sourceLocation)
                throw WithEveryFailure(trail: TestContext.trail, underlying: error)
            }
        }
    }
}

/// An error thrown inside ``withEvery(_:in:sourceLocation:_:)``, already recorded with its trail.
public struct WithEveryFailure: Error, CustomStringConvertible {
    /// Where it was thrown: "seed: 42, step: 7".
    public var trail: String
    /// The error the body threw.
    public var underlying: any Error

    /// The trail and the error.
    public var description: String { "at \(trail): \(underlying)" }
}
