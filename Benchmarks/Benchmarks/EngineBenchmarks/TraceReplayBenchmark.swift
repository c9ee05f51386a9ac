import Benchmark
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Engine throughput: a generated server trace (`Workload.server` with `residentApps` tenants, all
/// of them opened at the start, then one hour of requests) replayed through a fresh
/// `PressureEngine` under `Policy.ios4`, the way `Replay`/`SimulationRun` drive it: every action
/// applied with `apply(_:at:)`, an action the engine refuses is skipped, and the events are taken
/// after every action (`takeEvents()`), so the log never accumulates.
///
/// Two forms: the whole trace (engine creation and the preload included), and the hour after the
/// preload only, measured on an engine that was created and preloaded outside the measurement.
final class TraceReplayBenchmark {
    /// The custom metrics every replay reports, per iteration.
    static let actionsPerSecond = BenchmarkMetric.custom(
        "actions per second", polarity: .prefersLarger, useScalingFactor: false)
    static let eventsPerSecond = BenchmarkMetric.custom(
        "events per second", polarity: .prefersLarger, useScalingFactor: false)
    static let actionsPerReplay = BenchmarkMetric.custom(
        "actions per replay", polarity: .prefersLarger, useScalingFactor: false)
    static let eventsPerReplay = BenchmarkMetric.custom(
        "events per replay", polarity: .prefersLarger, useScalingFactor: false)
    static let skippedPerReplay = BenchmarkMetric.custom(
        "skipped actions per replay", polarity: .prefersSmaller, useScalingFactor: false)

    let residentApps: Int
    var trace = Trace()
    var policy: Policy?
    /// The index of the first entry after the preload (the opens and the Home that follows them).
    var afterPreload = 0
    /// A preloaded engine for the next "after preload" iteration.
    var prepared: PressureEngine?

    init(residentApps: Int) { self.residentApps = residentApps }

    /// The workload of this benchmark: the server profile with `residentApps` tenants, one hour.
    static func workload(residentApps: Int) -> Workload {
        var workload = Workload.server
        workload.apps = residentApps
        workload.preload = residentApps
        workload.hours = 1
        return workload
    }

    func setUp() {
        let workload = Self.workload(residentApps: residentApps)
        trace = WorkloadGenerator(workload: workload).trace(seed: 1)
        policy = Policy.ios4
        // The generator emits `preload` opens, then one Home, then the hour of requests.
        afterPreload = workload.preload + 1
        precondition(trace.entries.count > afterPreload, "the trace has no entries after its preload")
        if case .home = trace.entries[afterPreload - 1].action {
        } else {
            fatalError("replay benchmark: expected the preload to end with a Home at entry \(afterPreload - 1)")
        }
    }

    func tearDown() {
        trace = Trace()
        prepared = nil
    }

    /// An engine for the trace's device that has applied entries `0..<end`.
    func preloadedEngine(replaying end: Int) -> PressureEngine {
        guard let engine = try? PressureEngine(device: trace.device, policy: policy!) else {
            fatalError("replay benchmark: the policy does not compile")
        }
        for entry in trace.entries[0..<end] {
            try? engine.apply(entry.action, at: entry.time)
            _ = engine.takeEvents()
        }
        return engine
    }

    /// One iteration: the whole trace, engine creation included.
    func replayWhole(_ benchmark: Benchmark) {
        let entries = trace.entries
        let policy = self.policy!
        let device = trace.device
        var events = 0
        var skipped = 0
        let start = MonotonicClock.nanoseconds()
        benchmark.startMeasurement()
        guard let engine = try? PressureEngine(device: device, policy: policy) else { fatalError("policy") }
        for entry in entries {
            do {
                try engine.apply(entry.action, at: entry.time)
            } catch {
                skipped += 1
            }
            events += engine.takeEvents().count
        }
        benchmark.stopMeasurement()
        let elapsed = MonotonicClock.nanoseconds() - start
        blackHole(engine)
        report(benchmark, actions: entries.count, events: events, skipped: skipped, nanoseconds: elapsed)
    }

    /// One iteration: the hour after the preload, on an engine preloaded outside the measurement.
    func replayAfterPreload(_ benchmark: Benchmark) {
        let engine = prepared ?? preloadedEngine(replaying: afterPreload)
        prepared = nil
        var events = 0
        var skipped = 0
        trace.entries.withUnsafeBufferPointer { all in
            let entries = UnsafeBufferPointer(rebasing: all[afterPreload...])
            let start = MonotonicClock.nanoseconds()
            benchmark.startMeasurement()
            for entry in entries {
                do {
                    try engine.apply(entry.action, at: entry.time)
                } catch {
                    skipped += 1
                }
                events += engine.takeEvents().count
            }
            benchmark.stopMeasurement()
            let elapsed = MonotonicClock.nanoseconds() - start
            report(benchmark, actions: entries.count, events: events, skipped: skipped, nanoseconds: elapsed)
        }
        blackHole(engine)
        // Prepare the next iteration's engine now, outside the measurement.
        prepared = preloadedEngine(replaying: afterPreload)
    }

    private func report(_ benchmark: Benchmark, actions: Int, events: Int, skipped: Int, nanoseconds: UInt64) {
        let seconds = Double(nanoseconds) / 1e9
        benchmark.measurement(Self.actionsPerSecond, Int((Double(actions) / seconds).rounded()))
        benchmark.measurement(Self.eventsPerSecond, Int((Double(events) / seconds).rounded()))
        benchmark.measurement(Self.actionsPerReplay, actions)
        benchmark.measurement(Self.eventsPerReplay, events)
        benchmark.measurement(Self.skippedPerReplay, skipped)
    }
}

/// A monotonic clock in nanoseconds (`CLOCK_MONOTONIC`), read around the measured region to turn
/// counts into rates.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// Issue 14: a trace replayed from its JSON Lines file, four ways in the same run, on the same
/// file and policy (`Policy.ios4`):
///
/// - **in memory**: the parsed trace (`Trace`, built in setup) through `Replay.run(_:policy:file:sink:)`
///   — the engine's rate, what the other replay benchmarks measure;
/// - **streamed**: `TraceReader` over the file (`ByteLineReader`, `pread` through one 64 KiB
///   buffer) through `Replay.run(_:policy:openTimes:file:sink:)`, one action at a time — what
///   `mempressure replay` and `compare --trace` do (one pass);
/// - **whole file**: the file read into a `String`, parsed with `Trace(jsonLines:file:)`, then
///   replayed — what `replay` did before;
/// - **parse only**: the streamed reader without the engine, to separate parsing from replaying.
///
/// Every form counts the actions and the events it delivers; setup checks that the streamed and
/// the in-memory replays deliver the same number of events.
final class StreamedReplayBenchmark {
    /// What a form does per iteration.
    enum Form: String, CaseIterable {
        case inMemory = "in memory"
        case streamed = "streamed from the file"
        case wholeFile = "whole file read, parsed, replayed"
        case parseOnly = "parse only (streamed)"
    }

    /// The two traces: `allocate`/`free` lines of one app, and a generated server trace.
    enum Kind: String, CaseIterable {
        case allocateFree = "allocate/free 100K lines"
        case server = "server 12 h 1K tenants"
    }

    let kind: Kind
    let form: Form
    var path = ""
    var trace = Trace()
    var descriptor: Int32 = -1

    init(kind: Kind, form: Form) {
        self.kind = kind
        self.form = form
    }

    /// The trace of `kind`.
    static func makeTrace(_ kind: Kind) -> Trace {
        switch kind {
        case .allocateFree:
            var entries = [
                Trace.Entry(time: 0, action: .launch(AppLaunch(id: "com.example.a", footprint: .mebibytes(40))))
            ]
            for index in 1..<100_000 {
                let bytes = Bytes(4096)
                entries.append(
                    Trace.Entry(
                        time: Double(index),
                        action: index % 2 == 1
                            ? .allocate(app: "com.example.a", bytes: bytes, purgeable: false)
                            : .free(app: "com.example.a", bytes: bytes, purgeable: false)))
            }
            return Trace(device: .iPhone4, entries: entries)
        case .server:
            var workload = TraceReplayBenchmark.workload(residentApps: 1_000)
            workload.hours = 12
            return WorkloadGenerator(workload: workload).trace(seed: 1)
        }
    }

    func setUp() {
        let generated = Self.makeTrace(kind)
        path =
            "/tmp/mempressure-streamed-replay-\(getpid())-\(kind.hashValue & 0xFFFF)-\(form.hashValue & 0xFFFF).jsonl"
        let text = generated.jsonLines
        guard let file = fopen(path, "w"), fwrite(text, 1, text.utf8.count, file) == text.utf8.count else {
            fatalError("streamed replay benchmark: cannot write \(path)")
        }
        fclose(file)
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { fatalError("streamed replay benchmark: cannot open \(path)") }
        do {
            trace = try Trace(jsonLines: text, file: path)
            var inMemory = 0
            try Replay.run(trace, policy: .ios4) { inMemory += $0.count }
            var reader = TraceReader(ByteLineReader(.file(descriptor), file: path))
            var streamed = 0
            try Replay.run(&reader, policy: .ios4, openTimes: nil, file: path) { streamed += $0.count }
            precondition(inMemory == streamed, "streamed and in-memory replays differ")
        } catch {
            fatalError("streamed replay benchmark: \(error)")
        }
    }

    func tearDown() {
        close(descriptor)
        unlink(path)
        trace = Trace()
    }

    /// One iteration of this form.
    func run(_ benchmark: Benchmark) {
        var events = 0
        var actions = 0
        var skipped = 0
        let start = MonotonicClock.nanoseconds()
        benchmark.startMeasurement()
        do {
            switch form {
            case .inMemory:
                skipped = try Replay.run(trace, policy: .ios4, file: path) { events += $0.count }.skipped
                actions = trace.entries.count
            case .streamed:
                var reader = TraceReader(ByteLineReader(.file(descriptor), file: path))
                skipped = try Replay.run(&reader, policy: .ios4, openTimes: nil, file: path) { events += $0.count }
                    .skipped
                actions = reader.lines.lineNumber - 1  // every line but the device line is an action
            case .wholeFile:
                var info = stat()
                fstat(descriptor, &info)
                var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
                let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
                precondition(count == bytes.count, "short read")
                let whole = try Trace(jsonLines: String(decoding: bytes, as: UTF8.self), file: path)
                skipped = try Replay.run(whole, policy: .ios4, file: path) { events += $0.count }.skipped
                actions = whole.entries.count
            case .parseOnly:
                var reader = TraceReader(ByteLineReader(.file(descriptor), file: path))
                while try reader.next() != nil { actions += 1 }
            }
        } catch {
            fatalError("streamed replay benchmark: \(error)")
        }
        benchmark.stopMeasurement()
        let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
        benchmark.measurement(TraceReplayBenchmark.actionsPerSecond, Int((Double(actions) / seconds).rounded()))
        benchmark.measurement(TraceReplayBenchmark.eventsPerSecond, Int((Double(events) / seconds).rounded()))
        benchmark.measurement(TraceReplayBenchmark.actionsPerReplay, actions)
        benchmark.measurement(TraceReplayBenchmark.eventsPerReplay, events)
        benchmark.measurement(TraceReplayBenchmark.skippedPerReplay, skipped)
        blackHole(events)
    }
}
