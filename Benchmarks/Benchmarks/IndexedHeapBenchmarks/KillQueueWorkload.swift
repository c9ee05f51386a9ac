import BenchmarkSupport
import MemoryPressure
import MemoryPressureSimulation

/// One operation of the mixed kill-queue workload.
struct KillQueueOperation {
    enum Kind: UInt8 {
        /// The app's footprint drifts by `value` per mille (-10 ... +10, that is ±1 %).
        case footprint
        /// The app moves to band `value` (remove + insert, or an update).
        case band
        /// Kill the app with the highest key, then relaunch an app in its place with key `value`
        /// (band and footprint; the app bits are the victim's), so the number of apps stays constant.
        case victim
        /// A report of the 10 highest keys (a "who dies next" listing).
        case report
    }

    var kind: Kind
    var app: UInt32
    var value: UInt64
}

/// The mixed workload: 95 % footprint updates, 4 % band changes, 1 % victim selections, and one
/// operation in a thousand a top-10 report; apps and drifts drawn from a seeded generator, bands
/// and the keys of relaunched apps from the `distribution`.
struct KillQueueWorkload {
    /// How the apps spread over bands and sizes.
    let distribution: KillQueueDistribution
    /// The initial key of every app; `initialKeys[i]` has app index `i`.
    let initialKeys: [UInt64]
    /// The operations, replayed cyclically.
    let operations: [KillQueueOperation]

    init(_ distribution: KillQueueDistribution, apps: Int, operations operationCount: Int, seed: UInt64) {
        precondition(apps > 0 && apps <= Int(KillKey.appMask) + 1)
        self.distribution = distribution
        var rng = SeededGenerator(seed: seed)
        initialKeys = (0..<apps).map { app in distribution.randomKey(using: &rng) | UInt64(app) }
        operations = (0..<operationCount).map { _ in
            let app = UInt32(rng.next(below: apps))
            if rng.next(below: 1000) == 0 { return KillQueueOperation(kind: .report, app: 0, value: 0) }
            let draw = rng.next(below: 100)
            if draw < 95 {
                let drift = Int64(rng.next(below: 21)) - 10
                return KillQueueOperation(kind: .footprint, app: app, value: UInt64(bitPattern: drift))
            } else if draw < 99 {
                return KillQueueOperation(kind: .band, app: app, value: UInt64(distribution.randomBand(using: &rng)))
            } else {
                return KillQueueOperation(kind: .victim, app: 0, value: distribution.randomKey(using: &rng))
            }
        }
    }
}

/// A kill queue: apps `0..<n`, each with a unique packed key, the highest key killed first.
protocol KillQueue {
    /// Creates the queue holding app `i` with key `keys[i]`, whose bands are below `bandCount`.
    init(keys: [UInt64], bandCount: Int)
    /// The current key of a live app.
    func key(of app: Int) -> UInt64
    /// Changes the key of a live app (its footprint or its band).
    mutating func update(app: Int, to key: UInt64)
    /// Changes the key of a live app into `transform` of its current key: a queue whose handles
    /// support it reads and writes through one lookup, as the engine's footprint path does.
    mutating func update(app: Int, with transform: (UInt64) -> UInt64)
    /// Removes the app with the highest key and returns its index.
    mutating func killHeaviest() -> Int
    /// Adds app `app` (which must not be live) with `key`.
    mutating func relaunch(app: Int, key: UInt64)
    /// An order-sensitive checksum of the `k` highest keys, highest first.
    mutating func reportTop(_ k: Int) -> UInt64
}

extension KillQueue {
    /// Reads the key, then writes the new one: two lookups.
    @inline(__always)
    mutating func update(app: Int, with transform: (UInt64) -> UInt64) {
        update(app: app, to: transform(key(of: app)))
    }

    /// Runs `count` operations of `operations` starting at `start` (wrapping around), returns the
    /// next start and a checksum of every victim and report; `onVictim` sees each victim.
    @inline(__always)
    mutating func run(
        _ operations: UnsafeBufferPointer<KillQueueOperation>,
        from start: Int,
        count: Int,
        checksum: inout UInt64,
        onVictim: (Int) -> Void = { _ in }
    ) -> Int {
        var cursor = start
        for _ in 0..<count {
            let operation = operations[cursor]
            cursor &+= 1
            if cursor == operations.count { cursor = 0 }
            let app = Int(truncatingIfNeeded: operation.app)
            switch operation.kind {
            case .footprint:
                let drift = Int64(bitPattern: operation.value)
                update(app: app) { current in
                    let footprint = KillKey.footprint(current)
                    let drifted = UInt64(
                        truncatingIfNeeded: Int64(truncatingIfNeeded: footprint) &+ Int64(truncatingIfNeeded: footprint)
                            / 1000 &* drift)
                    let clamped = Swift.min(Swift.max(drifted, KillKey.minFootprint), KillKey.maxFootprint)
                    return KillKey.withFootprint(current, clamped)
                }
            case .band:
                update(app: app, to: KillKey.withBand(key(of: app), Int(truncatingIfNeeded: operation.value)))
            case .victim:
                let victim = killHeaviest()
                onVictim(victim)
                checksum = mix(checksum, UInt64(victim))
                relaunch(app: victim, key: operation.value | UInt64(victim))
            case .report:
                checksum = mix(checksum, reportTop(10))
            }
        }
        return cursor
    }
}
