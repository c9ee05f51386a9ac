import MemoryPressure

// Comparing policies on trace files read line by line (`compare --trace`).

extension Comparison {
    /// Replays every trace that `readers` opens (one per sample, labelled by `samples`) under
    /// every policy, reading each file again for each policy instead of keeping it: a first
    /// streamed pass per file finds its ``TraceSummary`` (and checks every line, so a malformed
    /// file is reported before any run, the first in `samples` order), then every run reads its
    /// file line by line. Memory holds, per run in flight, one reader's buffer and one engine —
    /// plus, when a policy is clairvoyant, each trace's opens.
    ///
    /// `readers(sample)` must return a new reader at the start of the sample's trace each time
    /// it is called, from any task (``ByteLineReader/Source/file(_:)`` shares one descriptor).
    ///
    /// - Throws: `InputError` for a malformed line, ``ReplayError`` as
    ///   ``run(traces:name:policies:samples:launchCost:warmUp:informedScores:parallelism:progress:)``.
    /// - Complexity: O((policies + 1) × length of the traces) reading, plus the runs.
    public static func run(
        reading readers: @escaping @Sendable (Int) throws -> TraceReader, name: String, policies: [Policy],
        samples: [String], launchCost: LaunchCost = .phone, parallelism: Int = 2,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Comparison {
        let keepingOpens = policies.contains(where: Oracle.isClairvoyant)
        var summaries = [Result<TraceSummary, any Error>?](repeating: nil, count: samples.count)
        try await withThrowingTaskGroup(of: (Int, Result<TraceSummary, any Error>).self) { group in
            var next = 0
            func submit() {
                let sample = next
                next += 1
                group.addTask {
                    do {
                        var reader = try readers(sample)
                        return (sample, .success(try TraceSummary(reading: &reader, keepingOpens: keepingOpens)))
                    } catch {
                        return (sample, .failure(error))
                    }
                }
            }
            while next < min(max(parallelism, 1), samples.count) { submit() }
            while let (sample, summary) = try await group.next() {
                summaries[sample] = summary
                if next < samples.count { submit() }
            }
        }
        let known = try summaries.map { try $0!.get() }
        let runs = try await runJobs(
            policies: policies.count, samples: samples.count, parallelism: parallelism, progress: progress
        ) { policy, sample in
            var reader = try readers(sample)
            return try SimulationRun.run(
                &reader, summary: known[sample], policy: policies[policy], launchCost: launchCost,
                file: samples[sample])
        }
        return Comparison(
            workload: name, policies: policies.map(\.name), samples: samples, runs: runs,
            device: known.first?.device ?? .iPhone4, policyValues: policies)
    }

    /// Runs `run(policy, sample)` for every policy and sample on `parallelism` tasks and returns
    /// `runs[policy][sample]`; `progress` receives the number of finished runs and the total.
    /// The runs start sample by sample (every policy on the first sample, then on the second…),
    /// so a sample's input is needed only for a short while. The result is the same whatever the
    /// parallelism (every run is independent). Only the first sample's runs keep their free-memory
    /// timeline.
    ///
    /// - Complexity: policies × samples runs.
    static func runJobs(
        policies: Int, samples: Int, parallelism: Int, progress: (@Sendable (Int, Int) -> Void)?,
        run: @escaping @Sendable (Int, Int) throws -> SimulationRun
    ) async throws -> [[SimulationRun]] {
        let jobs = (0..<samples).flatMap { sample in (0..<policies).map { ($0, sample) } }
        var results = [[SimulationRun?]](
            repeating: [SimulationRun?](repeating: nil, count: samples), count: policies)
        try await withThrowingTaskGroup(of: (Int, Int, SimulationRun).self) { group in
            var next = 0
            var done = 0
            func submit() {
                let (policy, sample) = jobs[next]
                next += 1
                group.addTask { (policy, sample, try run(policy, sample)) }
            }
            while next < min(max(parallelism, 1), jobs.count) { submit() }
            while let (policy, sample, finished) = try await group.next() {
                results[policy][sample] = finished
                // Only the first sample's timeline is drawn (`Comparison.runs`): 6.4 KB a run,
                // 320 MB over 10,000 samples of 5 policies, kept for nothing.
                if sample > 0 { results[policy][sample]?.freeMemory = [] }
                done += 1
                progress?(done, jobs.count)
                if next < jobs.count { submit() }
            }
        }
        return results.map { $0.map { $0! } }
    }
}
