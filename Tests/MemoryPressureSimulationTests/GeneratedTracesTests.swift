import MemoryPressure
@testable import MemoryPressureSimulation
import Testing

/// A comparison of generated samples makes each seed's trace when its first run starts and drops
/// it after its last: memory holds the samples in flight, and the runs are those of the traces
/// made up front.
@Suite("Generated traces, made on demand")
struct GeneratedTracesTests {
    @Test("a trace is made once, is the generator's, and is dropped after its last run")
    func madeOnceAndDropped() {
        let generator = WorkloadGenerator(workload: .phone)
        let traces = GeneratedTraces(generator: generator, seeds: [7, 8], runsEach: 2)
        #expect(traces.held == 0)
        let first = traces.take(0)
        #expect(first.entries == generator.trace(seed: 7).entries)
        #expect(traces.take(0).entries == first.entries && traces.held == 1)
        traces.finish(0)
        #expect(traces.held == 1, "one run of seed 7 is still to come")
        traces.finish(0)
        #expect(traces.held == 0)
        #expect(traces.take(1).entries == generator.trace(seed: 8).entries)
    }

    @Test("generating on demand gives the runs of the traces made up front, whatever the parallelism")
    func sameRuns() async throws {
        let seeds: [UInt64] = Array(1...6)
        let policies: [Policy] = [.ios4, try .shipped("jetsam"), Oracle.policy]
        let generator = WorkloadGenerator(workload: .phone)
        let upFront = try await Comparison.run(
            traces: seeds.map { generator.trace(seed: $0) }, name: "phone", policies: policies,
            samples: seeds.map(String.init), parallelism: 1)
        for parallelism in [1, 2, 3] {
            let lazy = try await Comparison.run(
                workload: .phone, policies: policies, seeds: seeds, parallelism: parallelism)
            #expect(lazy.samples == upFront.samples)
            #expect(lazy.runs.map { $0.map(\.metrics.launchWait) } == upFront.runs.map { $0.map(\.metrics.launchWait) })
            #expect(lazy.runs.map { $0.map(\.metrics.kills) } == upFront.runs.map { $0.map(\.metrics.kills) })
        }
    }
}
