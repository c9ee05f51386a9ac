// The internal checks' switch: compiled in by MEMORYPRESSURE_INTERNAL_CHECKS, or, in a debug build,
// taken from the environment, so `make test-checks` runs on `make test`'s build (docs/ci.md).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import IndexedHeapModule
import Testing

@Suite("Internal checks' switch")
struct InternalChecksSwitchTests {
    /// `make test-checks` sets the variable on a debug build: were the checks off, that step would
    /// check nothing and still pass.
    @Test("a debug build run with MEMORYPRESSURE_INTERNAL_CHECKS in the environment checks")
    func followsTheEnvironmentInDebug() {
        #if DEBUG
            if getenv("MEMORYPRESSURE_INTERNAL_CHECKS") != nil {
                #expect(IndexedHeap<UInt64>._isInternalChecksEnabled)
            }
        #endif
    }
}
