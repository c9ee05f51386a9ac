import MemoryPressure

/// The generated traces of a comparison's seeds, made on demand and dropped once every policy
/// has run on them: with the runs started sample by sample, memory holds the traces of the
/// samples in flight, not one per seed (a week of a server's tenants is megabytes a seed).
///
/// Guarded by the engine package's pthread `Lock`, which ThreadSanitizer understands (the
/// standard library's `Mutex` waits on futexes directly on Linux and is reported as a race).
final class GeneratedTraces: @unchecked Sendable {
    private let generator: WorkloadGenerator
    private let seeds: [UInt64]
    private let lock = Lock()
    /// The traces made and still needed, by sample (guarded by `lock`).
    private var traces: [Int: Trace] = [:]
    /// The runs each sample still waits for (guarded by `lock`).
    private var remaining: [Int]

    /// The traces of `seeds` from `generator`, each used by `runsEach` runs.
    ///
    /// - Complexity: O(seeds)
    init(generator: WorkloadGenerator, seeds: [UInt64], runsEach: Int) {
        self.generator = generator
        self.seeds = seeds
        remaining = Array(repeating: runsEach, count: seeds.count)
    }

    /// The trace of sample `sample`, made if it is not held (while the lock is held, so it is made
    /// once).
    ///
    /// - Complexity: one ``WorkloadGenerator/trace(seed:)`` the first time, O(1) after.
    @Sendable func take(_ sample: Int) -> Trace {
        lock.withLock {
            if let trace = traces[sample] { return trace }
            let trace = generator.trace(seed: seeds[sample])
            traces[sample] = trace
            return trace
        }
    }

    /// Notes that one run of sample `sample` ended; its trace is dropped after the last.
    ///
    /// - Complexity: O(1)
    @Sendable func finish(_ sample: Int) {
        lock.withLock {
            remaining[sample] -= 1
            if remaining[sample] == 0 { traces[sample] = nil }
        }
    }

    /// How many traces are held now (for tests).
    var held: Int { lock.withLock { traces.count } }
}
