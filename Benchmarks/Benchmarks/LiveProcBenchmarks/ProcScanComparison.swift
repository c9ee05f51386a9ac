import Benchmark
import CEarlyoomScan
import Foundation
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
///   `clock_gettime(CLOCK_MONOTONIC)`; teardown prints each one's median and mean time per
///   numeric `/proc` entry (what both visit) and their ratio, and, for reference, the installed
///   `earlyoom --dryrun -d` binary's own timer of its start-up scan.
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
    /// Seconds of each scan in each side-by-side pair.
    private var ownTimes: [Double] = []
    private var earlyoomTimes: [Double] = []

    func setUp() {
        do {
            let memory = try LinuxMemoryInfo.read(from: .live)
            pageSize = ProcFileSystem.live.pageSize
            totalPages = LinuxOOMBadness.totalPages(of: memory, pageSize: pageSize)
        } catch {
            fatalError("proc scan comparison: \(error)")
        }
        entryCount = ProcFileSystem.live.processIDs().count
        ownTimes = []
        earlyoomTimes = []
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
        for _ in benchmark.scaledIterations {
            // Alternate which goes first, so neither always finds the other's dentries warm.
            if ownTimes.count % 2 == 0 {
                ownTimes.append(Self.time { blackHole(ownScan()) })
                earlyoomTimes.append(Self.time { blackHole(earlyoomScan()) })
            } else {
                earlyoomTimes.append(Self.time { blackHole(earlyoomScan()) })
                ownTimes.append(Self.time { blackHole(ownScan()) })
            }
        }
        benchmark.measurement(Self.entries, entryCount)
    }

    /// Prints the side-by-side figures (after the side-by-side benchmark only): the median and
    /// mean time of each scan per numeric `/proc` entry, the median of the pairs' ratios, and the
    /// installed `earlyoom --dryrun -d` binary's own timer of its start-up scan for reference.
    func tearDown() {
        guard !ownTimes.isEmpty, entryCount > 0 else { return }
        let perEntry = 1e6 / Double(entryCount)
        let ratios = zip(ownTimes, earlyoomTimes).map { $0 / $1 }
        print(
            "Live proc scan, side by side (\(ownTimes.count) pairs, \(entryCount) /proc entries): "
                + "MemoryPressure median \(Self.format(Self.median(ownTimes) * perEntry)) µs per entry "
                + "(mean \(Self.format(Self.mean(ownTimes) * perEntry))), earlyoom find_largest_process() median "
                + "\(Self.format(Self.median(earlyoomTimes) * perEntry)) µs per entry "
                + "(mean \(Self.format(Self.mean(earlyoomTimes) * perEntry))); MemoryPressure ÷ earlyoom: median of "
                + "pairs \(Self.format(Self.median(ratios)))×, ratio of means "
                + "\(Self.format(Self.mean(ownTimes) / Self.mean(earlyoomTimes)))×")
        if let binary = Self.installedEarlyoomScans(runs: 5) {
            print(
                "Installed earlyoom (\(binary.version)) --dryrun -d, its own \"selecting victim took\" timer of the "
                    + "start-up scan (with its per-entry debug output), median of 5 runs: "
                    + "\(Self.format(binary.milliseconds * 1000 / Double(entryCount))) µs per entry")
        }
        ownTimes = []
        earlyoomTimes = []
    }

    /// Runs `/usr/bin/earlyoom --dryrun -d` `runs` times, each killed half a second later, after
    /// its start-up scan (`startup_selftests()` → `find_largest_process()`) has printed its debug
    /// timer; the median of those timers in milliseconds, or `nil` without earlyoom.
    private static func installedEarlyoomScans(runs: Int) -> (version: String, milliseconds: Double)? {
        let path = "/usr/bin/earlyoom"
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        var times: [Double] = []
        var version = "earlyoom"
        let log = "/tmp/mempressure-earlyoom-scan-\(getpid()).log"
        defer { unlink(log) }
        for _ in 0..<runs {
            // Its output goes to a file (no blocking reads); it is stopped with SIGKILL after 0.5 s,
            // long after the start-up scan (a few ms), whatever it does with SIGTERM.
            guard FileManager.default.createFile(atPath: log, contents: nil),
                let handle = FileHandle(forWritingAtPath: log)
            else { return nil }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = ["--dryrun", "-d"]
            process.standardOutput = handle
            process.standardError = handle
            guard (try? process.run()) != nil else { return nil }
            usleep(500_000)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? handle.close()
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let first = output.split(separator: "\n").first { version = String(first) }
            guard let line = output.split(separator: "\n").first(where: { $0.contains("selecting victim took") }),
                let value = line.split(separator: " ").dropLast().last.flatMap({ Double($0) })
            else { continue }
            times.append(value)
        }
        return times.isEmpty ? nil : (version, median(times))
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    private static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

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
