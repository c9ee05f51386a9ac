#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutual-exclusion lock over a heap-allocated `pthread_mutex_t`, in the style of swift-nio's
/// `NIOLock` (a pthread mutex must not move in memory, so it is never stored inline). Unlike the
/// standard library's `Mutex`, which waits on futexes directly on Linux, ThreadSanitizer sees its
/// synchronization (it intercepts `pthread_mutex_lock`), so code guarded by it is checked, not
/// reported as racing.
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A new, unlocked lock.
    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    @inline(__always)
    package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// The calling thread's identity, for telling a callback that re-enters the front on the thread
/// that holds the lock from another thread.
@inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Glibc)
        UInt(pthread_self())  // pthread_t is an integer on glibc
    #else
        UInt(bitPattern: pthread_self())  // a pointer on Darwin and Musl
    #endif
}
