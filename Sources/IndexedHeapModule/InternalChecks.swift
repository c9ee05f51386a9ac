// Whether the queues' mutators check every invariant, decided once per process.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether every mutator of ``IndexedHeap`` and ``IndexedTournament`` checks every invariant
/// after its change (O(n) each).
///
/// - Built with `MEMORYPRESSURE_INTERNAL_CHECKS=1` in the environment (any configuration): always.
/// - A debug build without it: when the process starts with `MEMORYPRESSURE_INTERNAL_CHECKS` set,
///   so `make test-checks` runs the heap's and the engine's suites on `make test`'s own build
///   instead of compiling the package once more (docs/ci.md).
/// - A release build without it: never, and the checks are not compiled in.
@usableFromInline
internal let _internalChecksEnabled: Bool = {
    #if MEMORYPRESSURE_INTERNAL_CHECKS
        return true
    #elseif DEBUG
        return getenv("MEMORYPRESSURE_INTERNAL_CHECKS") != nil
    #else
        return false
    #endif
}()
