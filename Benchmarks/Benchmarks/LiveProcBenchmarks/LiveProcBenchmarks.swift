// Benchmarks of reading and ranking the live Linux process table (issue 6): one refresh of
// `LiveKillOrder` (re-read /proc, update the engine in place, read the top 10) against a naive
// refresh that re-reads /proc and fully sorts every process, on this machine's /proc and on a
// synthetic tree of 10,000 entries in tmpfs; and the /proc scan against earlyoom's
// find_largest_process() (compiled from its C source) over the same /proc, side by side (issue 14).
// See ../../README.md for the measured figures.

import Benchmark
import BenchmarkSupport

let benchmarks: @Sendable () -> Void = {
    warnIfBuiltWithInternalChecks()

    // One iteration = one refresh (or one step of it).
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, LiveProcBenchmark.processes],
        timeUnits: .microseconds, warmupIterations: 2, scalingFactor: .one, maxDuration: .seconds(5),
        maxIterations: 1_000)
    for source in [LiveProcBenchmark.Source.live, .synthetic(count: 10_000)] {
        func step(_ name: String, _ body: @escaping (LiveProcBenchmark, Benchmark) -> Void) {
            let state = LiveProcBenchmark(source: source)
            Benchmark("Live proc \(source.label): \(name)", configuration: configuration) { benchmark in
                body(state, benchmark)
            } setup: {
                state.setUp()
            } teardown: {
                state.tearDown()
            }
        }
        step("refresh in place + killOrder 10") { $0.refreshInPlace($1) }
        step("naive: read + full sort") { $0.naiveRefresh($1) }
        step("read only") { $0.readOnly($1) }
        step("rank only, in place") { $0.rankInPlace($1) }
        step("rank only, full sort") { $0.rankBySorting($1) }
    }

    // The /proc scan against earlyoom's, over this machine's /proc; one iteration = one scan (or
    // one of each, side by side).
    let comparison = ProcScanComparison()
    func scan(_ name: String, _ body: @escaping (ProcScanComparison, Benchmark) -> Void) {
        Benchmark("Live proc scan: \(name)", configuration: configuration) { benchmark in
            body(comparison, benchmark)
        } setup: {
            comparison.setUp()
        } teardown: {
            comparison.tearDown()
        }
    }
    scan("MemoryPressure (status + oom_score_adj, bytes in place) + linux-oom victim") { $0.own($1) }
    scan("earlyoom find_largest_process() (C, from kill.c)") { $0.earlyoom($1) }
    scan("side by side, alternating") { $0.sideBySide($1) }
}
