import Foundation
import Testing

/// Whether this process is ThreadSanitizer's run of the suites (`scripts/sanitizers.sh thread`
/// sets `MEMORYPRESSURE_SANITIZER=thread`).
public enum ThreadSanitizerRun {
    /// True when `MEMORYPRESSURE_SANITIZER=thread` is set.
    public static let isActive = ProcessInfo.processInfo.environment["MEMORYPRESSURE_SANITIZER"] == "thread"

    /// Why a long single-threaded test is skipped there.
    public static let skipped: Comment = """
        long and single-threaded: a data race needs two threads touching the same memory, and this \
        test's code runs on one (its neighbours still run beside it); `make test`, `make test-checks` \
        and AddressSanitizer's release run keep it (docs/ci.md)
        """
}

extension Trait where Self == ConditionTrait {
    /// Skips a long, single-threaded test (a seeded property test, an exhaustive search) under
    /// ThreadSanitizer, which multiplies its time several-fold and can find nothing in it: the
    /// concurrent code (the fronts, the server, the sweeps' task groups, the streaming loader)
    /// keeps its tests there. Every such test still runs in the other configurations.
    public static var singleThreadedLongRun: Self {
        .disabled(if: ThreadSanitizerRun.isActive, ThreadSanitizerRun.skipped)
    }
}
