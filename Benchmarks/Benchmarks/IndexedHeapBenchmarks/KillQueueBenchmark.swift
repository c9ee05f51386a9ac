import Benchmark

/// The state of one mixed kill-queue benchmark: a queue of `apps` apps spread as `distribution`
/// says, and the seeded operation stream, built in `setup` and freed in `teardown`; each iteration runs
/// `benchmark.scaledIterations.count` operations of the stream, continuing where the last stopped.
final class KillQueueBenchmark<Queue: KillQueue> {
    /// How many operations the stream holds before it wraps around.
    static var streamLength: Int { 1 << 17 }

    let distribution: KillQueueDistribution
    let apps: Int
    var queue: Queue?
    var operations: [KillQueueOperation] = []
    var cursor = 0
    var checksum: UInt64 = 0

    init(_ distribution: KillQueueDistribution, apps: Int) {
        self.distribution = distribution
        self.apps = apps
    }

    func setUp() {
        // The uniform distribution keeps the seed it had before there were others.
        let seed =
            0x6B11_1E5 &+ UInt64(apps) &+ UInt64(KillQueueDistribution.allCases.firstIndex(of: distribution)!) << 32
        let workload = KillQueueWorkload(distribution, apps: apps, operations: Self.streamLength, seed: seed)
        queue = Queue(keys: workload.initialKeys, bandCount: distribution.bandCount)
        operations = workload.operations
        cursor = 0
        checksum = 0
    }

    func tearDown() {
        queue = nil
        operations = []
    }

    func run(_ benchmark: Benchmark) {
        let count = benchmark.scaledIterations.count
        var local = queue!
        queue = nil  // `local` is now the only reference to the queue's storage
        var checksum = self.checksum
        operations.withUnsafeBufferPointer { operations in
            benchmark.startMeasurement()
            cursor = local.run(operations, from: cursor, count: count, checksum: &checksum)
            benchmark.stopMeasurement()
        }
        self.checksum = checksum
        blackHole(checksum)
        queue = local
    }
}
