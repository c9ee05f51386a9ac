import Benchmark
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One refresh of the live kill order under `linux-oom`, the way `mempressure watch` does it,
/// against a naive refresh, on one process table (`/proc` of this machine, or a synthetic tree).
/// Every reading leaves out each process's kernel `oom_score` (`includingKernelScores: false`),
/// as `watch` and `kill-order --live` do.
///
/// - **refresh in place**: `LiveKillOrder.refresh(at:)` (re-reads `/proc`, updates the engine
///   built in setup app by app, forgets vanished processes, re-evaluates pressure as a dry run),
///   then `engine.killOrder(limit: 10)`.
/// - **naive**: `LinuxSystemSnapshot.read(from:)`, then every killable process's
///   `LinuxOOMBadness.points` and a full sort of all of them (points descending; among equal
///   points the higher pid first, as the engine and the kernel's last-scanned rule break ties),
///   then the first 10.
/// - the split: **read only** (`LinuxSystemSnapshot.read(from:)`, shared by both), **rank only, in
///   place** (the steps of `refresh(at:)` after its read, on a snapshot read in setup, against an
///   engine of its own) and **rank only, full sort** (the naive ranking of that snapshot).
///
/// Setup checks that the engine's top 10 and the full sort's top 10 are the same processes in the
/// same order on the setup snapshot.
final class LiveProcBenchmark {
    /// Where the process table comes from.
    enum Source {
        /// This machine's `/proc` (`ProcFileSystem.live`).
        case live
        /// `SyntheticProcTree.write(to:count:seed:)` into a directory under `/dev/shm` (tmpfs).
        case synthetic(count: Int)

        var label: String {
            switch self {
            case .live: "this machine"
            case .synthetic(let count): "synthetic N=\(count / 1_000)K"
            }
        }
    }

    /// Processes read by the refresh (user-space, kernel threads skipped), per iteration.
    static let processes = BenchmarkMetric.custom("processes", polarity: .prefersLarger, useScalingFactor: false)

    let source: Source
    var directory: String?
    var fileSystem = ProcFileSystem.live
    var policy: Policy?
    var live: LiveKillOrder?
    /// A reading taken in setup, for the rank-only steps.
    var snapshot: LinuxSystemSnapshot?
    /// The engine the in-place rank-only step updates, and the apps it holds.
    var engine: PressureEngine?
    var known: Set<AppID> = []
    var time = 0.0

    init(source: Source) { self.source = source }

    func setUp() {
        do {
            if case .synthetic(let count) = source {
                let directory = "/dev/shm/mempressure-live-proc-benchmark-\(getpid())"
                self.directory = directory
                fileSystem = try SyntheticProcTree.write(to: directory, count: count, seed: 6)
            }
            let policy = try Policy.shipped("linux-oom")
            self.policy = policy
            live = try LiveKillOrder(policy: policy, fileSystem: fileSystem, includingKernelScores: false)
            let snapshot = try LinuxSystemSnapshot.read(from: fileSystem, includingKernelScores: false)
            self.snapshot = snapshot
            let engine = try PressureEngine(snapshot: snapshot.engineSnapshot, policy: policy)
            self.engine = engine
            known = Set(engine.allApps.map(\.id))
            let byPid = Dictionary(uniqueKeysWithValues: snapshot.processes.processes.map { ($0.pid, $0.appID) })
            let sorted = Self.topBySorting(snapshot).map { byPid[$0]! }
            let ranked = engine.killOrder(limit: 10).map(\.app)
            guard sorted == ranked, !ranked.isEmpty else {
                fatalError("live proc benchmark: the full sort \(sorted) disagrees with killOrder \(ranked)")
            }
        } catch {
            fatalError("live proc benchmark (\(source.label)): \(error)")
        }
    }

    func tearDown() {
        live = nil
        engine = nil
        snapshot = nil
        known = []
        if let directory {
            try? FileManager.default.removeItem(atPath: directory)
            self.directory = nil
        }
    }

    // MARK: whole refreshes

    func refreshInPlace(_ benchmark: Benchmark) {
        let live = self.live!
        for _ in benchmark.scaledIterations {
            time += 1
            do { blackHole(try live.refresh(at: time)) } catch { fatalError("\(error)") }
            blackHole(live.engine.killOrder(limit: 10))
        }
        benchmark.measurement(Self.processes, live.snapshot.processes.processes.count)
    }

    func naiveRefresh(_ benchmark: Benchmark) {
        eachReading(benchmark) { blackHole(Self.topBySorting($0)) }
    }

    // MARK: the split

    func readOnly(_ benchmark: Benchmark) {
        eachReading(benchmark) { blackHole($0) }
    }

    /// Reads the process table once per iteration and hands the reading to `body`.
    private func eachReading(_ benchmark: Benchmark, _ body: (LinuxSystemSnapshot) -> Void) {
        let fileSystem = self.fileSystem
        var count = 0
        for _ in benchmark.scaledIterations {
            do {
                let snapshot = try LinuxSystemSnapshot.read(from: fileSystem, includingKernelScores: false)
                count = snapshot.processes.processes.count
                body(snapshot)
            } catch {
                fatalError("\(error)")
            }
        }
        benchmark.measurement(Self.processes, count)
    }

    /// What `LiveKillOrder.refresh(at:)` does after reading `/proc`, on the setup snapshot: the
    /// engine snapshot made, every app updated in place (added if new), vanished ones forgotten,
    /// the unattributed memory set, pressure re-evaluated; then the top 10.
    func rankInPlace(_ benchmark: Benchmark) {
        let snapshot = self.snapshot!
        let engine = self.engine!
        for _ in benchmark.scaledIterations {
            time += 1
            let apps = snapshot.engineSnapshot
            var current: Set<AppID> = []
            current.reserveCapacity(apps.apps.count)
            do {
                for app in apps.apps {
                    try engine.update(app)
                    current.insert(app.id)
                }
                for id in known where !current.contains(id) { engine.forget(id) }
                known = current
                engine.setUnattributedMemory(apps.unattributed)
                try engine.refreshPressure(at: time)
            } catch {
                fatalError("\(error)")
            }
            blackHole(engine.takeEvents())
            blackHole(engine.killOrder(limit: 10))
        }
        benchmark.measurement(Self.processes, snapshot.processes.processes.count)
    }

    func rankBySorting(_ benchmark: Benchmark) {
        let snapshot = self.snapshot!
        for _ in benchmark.scaledIterations { blackHole(Self.topBySorting(snapshot)) }
        benchmark.measurement(Self.processes, snapshot.processes.processes.count)
    }

    /// The first 10 victims of `linux-oom` by sorting every killable process of `snapshot` (not
    /// pid 1, not `oom_score_adj` −1000, not this benchmark's own process, which the live
    /// reading leaves out of the ranking) by `LinuxOOMBadness.points`, highest first; among equal
    /// points the higher pid (the later one scanned) first.
    static func topBySorting(_ snapshot: LinuxSystemSnapshot) -> [ProcessID] {
        let totalPages = snapshot.totalPages
        let pageSize = snapshot.pageSize
        var scored: [(points: Int, pid: ProcessID)] = []
        scored.reserveCapacity(snapshot.processes.processes.count)
        for process in snapshot.processes.processes where process.pid != snapshot.excludedProcessID {
            if let points = LinuxOOMBadness.points(of: process, totalPages: totalPages, pageSize: pageSize) {
                scored.append((points, process.pid))
            }
        }
        scored.sort { $0.points != $1.points ? $0.points > $1.points : $0.pid > $1.pid }
        return scored.prefix(10).map(\.pid)
    }
}
