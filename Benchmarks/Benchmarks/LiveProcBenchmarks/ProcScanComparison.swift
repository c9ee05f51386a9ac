import Benchmark
import CEarlyoomScan
import MemoryPressure
import MemoryPressureLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `/proc` scan of `kill-order --live` and `watch` against earlyoom's, over the same live
/// `/proc`, in one run (issue 14). Both pick the process they would kill; neither reads
/// `/proc/meminfo` (earlyoom reads it once per poll outside its scan, `parse_meminfo()`; here
/// the page total is read in setup).
///
/// - **MemoryPressure**: `LinuxProcessTable.read(from: .live, includingKernelScores: false)` (what
///   a live refresh reads: `status` and `oom_score_adj` of every process, parsed in place; a
///   kernel thread costs one `readlink`), then the process with the most
///   `LinuxOOMBadness.points` (linux-oom's victim; pid 1 and this process excluded).
/// - **earlyoom**: `find_largest_process()` from earlyoom's `kill.c` (v1.9.0-9-g5c3e3ea), compiled
///   from its C source (`CEarlyoomScan`, MIT licence) with its default options: `stat` and
///   `oom_score` of every entry above pid 2 whose parent is not kthreadd, `oom_score_adj` of each
///   new leader, `comm`, `cmdline` and the uid of the victim.
/// - **side by side**: both, alternately, in every iteration, each timed with
///   `clock_gettime(CLOCK_MONOTONIC)`; teardown prints the mean time of each per numeric `/proc`
///   entry (what both visit) and the ratio.
///
/// earlyoom keeps one victim, so it reads `oom_score_adj` only for a process that beats the
/// current one; this scan keeps every process (the engine ranks them all), so it reads every
/// process's `oom_score_adj` and the three sizes the kernel's `oom_badness()` adds.
final class ProcScanComparison {
    /// Numeric `/proc` entries the scans visit, per iteration.
    static let entries = BenchmarkMetric.custom("entries", polarity: .prefersLarger, useScalingFactor: false)

    private var totalPages = 0
    private var pageSize = 4096
    private var entryCount = 0
    private var ownTime = 0.0
    private var earlyoomTime = 0.0
    private var pairs = 0

    func setUp() {
        do {
            let memory = try LinuxMemoryInfo.read(from: .live)
            pageSize = ProcFileSystem.live.pageSize
            totalPages = LinuxOOMBadness.totalPages(of: memory, pageSize: pageSize)
        } catch {
            fatalError("proc scan comparison: \(error)")
        }
        entryCount = ProcFileSystem.live.processIDs().count
        ownTime = 0
        earlyoomTime = 0
        pairs = 0
    }

    /// The project's scan: every process read, linux-oom's victim picked.
    func ownScan() -> ProcessID? {
        let table = LinuxProcessTable.read(from: .live, includingKernelScores: false)
        let own = getpid()
        var victim: ProcessID?
        var most = Int.min
        for process in table.processes where process.pid.rawValue != own {
            if let points = LinuxOOMBadness.points(of: process, totalPages: totalPages, pageSize: pageSize),
                points > most || (points == most && victim.map { process.pid > $0 } ?? true)
            {
                most = points
                victim = process.pid
            }
        }
        return victim
    }

    /// earlyoom's scan, compiled from its source.
    func earlyoomScan() -> Int32 {
        earlyoom_find_largest_process("/proc").pid
    }

    func own(_ benchmark: Benchmark) {
        for _ in benchmark.scaledIterations { blackHole(ownScan()) }
        benchmark.measurement(Self.entries, entryCount)
    }

    func earlyoom(_ benchmark: Benchmark) {
        for _ in benchmark.scaledIterations { blackHole(earlyoomScan()) }
        benchmark.measurement(Self.entries, entryCount)
    }

    func sideBySide(_ benchmark: Benchmark) {
        for iteration in benchmark.scaledIterations {
            // Alternate which goes first, so neither always finds the other's dentries warm.
            if (iteration + pairs) % 2 == 0 {
                ownTime += Self.time { blackHole(ownScan()) }
                earlyoomTime += Self.time { blackHole(earlyoomScan()) }
            } else {
                earlyoomTime += Self.time { blackHole(earlyoomScan()) }
                ownTime += Self.time { blackHole(ownScan()) }
            }
        }
        pairs += benchmark.scaledIterations.count
        benchmark.measurement(Self.entries, entryCount)
    }

    func tearDown() {
        guard pairs > 0, entryCount > 0 else { return }
        let own = ownTime / Double(pairs) / Double(entryCount) * 1e6
        let earlyoom = earlyoomTime / Double(pairs) / Double(entryCount) * 1e6
        print(
            "Live proc scan, side by side (\(pairs) pairs, \(entryCount) /proc entries): "
                + "MemoryPressure \(Self.format(own)) µs per entry, earlyoom find_largest_process() "
                + "\(Self.format(earlyoom)) µs per entry; MemoryPressure ÷ earlyoom = \(Self.format(own / earlyoom))×")
    }

    private static func time(_ body: () -> Void) -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }

    private static func format(_ value: Double) -> String {
        let scaled = (value * 100).rounded() / 100
        return "\(scaled)"
    }
}
