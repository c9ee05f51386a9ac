import Benchmark
import Foundation
import MemoryPressure
import MemoryPressureFormats

/// `kill-order` on a snapshot of 100,000 apps under `ios4`: the steps of the command (load the
/// snapshot text, build the engine, read the top 100 from the kill queue, format them), each on
/// its own and together, against ranking by a full sort of every app.
///
/// The snapshot text is generated in setup (``SnapshotText``); file reading and writing are left
/// out (the command adds them). Setup checks that both sorts below pick the same 100 apps, in the
/// same order, as `killOrder(limit: 100)`.
final class KillOrderBenchmark {
    let apps: Int
    var text = ""
    var policy: Policy?
    var snapshot: Snapshot?
    var engine: PressureEngine?
    var rows: [KillCandidate] = []
    /// Every killable app's kill key, in app order (as a sort would find them).
    var keys: [UInt64] = []
    var checksum = 0

    init(apps: Int) { self.apps = apps }

    func setUp() {
        text = SnapshotText.server(apps: apps)
        let policy = Policy.ios4
        self.policy = policy
        do {
            let snapshot = try Snapshot(text: text, file: "server-\(apps).json")
            let engine = try PressureEngine(snapshot: snapshot, policy: policy)
            self.snapshot = snapshot
            self.engine = engine
        } catch {
            fatalError("kill-order benchmark: \(error)")
        }
        rows = engine!.killOrder(limit: 100)
        guard rows.count == 100 else { fatalError("kill-order benchmark: only \(rows.count) victims") }
        // Every key, placed at its app's index (the tie-breaker is 2^20 - 1 - index).
        let all = engine!.killOrder(limit: apps)
        var byApp = [UInt64](repeating: 0, count: apps)
        for row in all { byApp[Int((1 << 20) - 1 - (row.key & ((1 << 20) - 1)))] = row.key }
        keys = byApp.filter { $0 != 0 }
        guard keys.count == all.count else { fatalError("kill-order benchmark: tie-breakers collide") }
        guard Self.topBySortingKeys(keys) == rows.map(\.key) else {
            fatalError("kill-order benchmark: sorting the keys disagrees with killOrder")
        }
        guard Self.topBySortingApps(engine!) == rows.map(\.app) else {
            fatalError("kill-order benchmark: sorting the apps disagrees with killOrder")
        }
    }

    func tearDown() {
        text = ""
        snapshot = nil
        engine = nil
        rows = []
        keys = []
    }

    // MARK: the steps

    func load() -> Snapshot {
        do { return try Snapshot(text: text, file: "server-\(apps).json") } catch { fatalError("\(error)") }
    }

    func rank(_ snapshot: Snapshot) -> [KillCandidate] {
        do {
            return try PressureEngine(snapshot: snapshot, policy: policy!).killOrder(limit: 100)
        } catch {
            fatalError("\(error)")
        }
    }

    // MARK: the alternatives

    /// The 100 highest keys by sorting all of them (descending) — the cheapest possible full sort:
    /// integers, computed beforehand.
    static func topBySortingKeys(_ keys: [UInt64]) -> [UInt64] {
        Array(keys.sorted(by: >).prefix(100))
    }

    /// The first 100 victims by sorting every app the engine holds in `ios4`'s order: suspended,
    /// then background, then foreground; heaviest first (at the kill key's resolution); earlier
    /// apps first among ties.
    static func topBySortingApps(_ engine: PressureEngine) -> [AppID] {
        var shift: Int64 = 0
        while (Swift.max(engine.device.usable.value, 1) &* 2) >> shift >= (1 << 36) { shift += 1 }
        let statuses = engine.allApps
        var order: [(rank: Int, value: Int64, index: Int)] = []
        order.reserveCapacity(statuses.count)
        for (index, status) in statuses.enumerated() {
            let rank: Int
            switch status.state {
            case .suspended: rank = 3
            case .background: rank = 2
            case .active, .inactive: rank = 1
            case .notRunning: continue
            }
            order.append((rank, status.footprint.value >> shift, index))
        }
        order.sort { a, b in
            if a.rank != b.rank { return a.rank > b.rank }
            if a.value != b.value { return a.value > b.value }
            return a.index < b.index
        }
        return order.prefix(100).map { statuses[$0.index].id }
    }

    // MARK: printing

    /// The top rows as an aligned table (rank, app, state, band, footprint, notice, reason), the
    /// layout of `mempressure kill-order --format table`.
    static func table(_ rows: [KillCandidate]) -> String {
        var cells = [["RANK", "APP", "STATE", "BAND", "FOOTPRINT", "NOTICE", "REASON"]]
        cells.reserveCapacity(rows.count + 1)
        for row in rows {
            cells.append([
                "\(row.rank)", row.app.rawValue, row.state.rawValue, row.band, row.footprint.formatted,
                row.notice.rawValue, row.reason,
            ])
        }
        var widths = [Int](repeating: 0, count: 7)
        for line in cells {
            for (column, cell) in line.enumerated() { widths[column] = Swift.max(widths[column], cell.count) }
        }
        var out = ""
        for line in cells {
            var text = ""
            for (column, cell) in line.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column > 0 { text += "  " }
                text += column == 0 || column == 4 ? padding + cell : cell + padding
            }
            while text.hasSuffix(" ") { text.removeLast() }
            out += text + "\n"
        }
        return out
    }
}

/// `kill-order` at scale (issue 14): loading and ranking 100,000 and 1,000,000 apps from JSON and
/// 1,000,000 from YAML, and — in the same run, on the same file — CPython's C `json` module
/// parsing the JSON (`python3` run as a child process that reads the file, then times
/// `json.loads` with its own clock and prints the seconds).
///
/// Setup generates the text (``SnapshotText``) and writes it to a temporary file for Python; one
/// iteration is `Snapshot(text:file:)` + `PressureEngine(snapshot:policy:)` +
/// `killOrder(limit: 100)`. After the measured iterations, Python parses the file three times;
/// its best time is recorded as the custom metric "CPython json.loads (µs)" and printed with the
/// best load + rank time and their ratio.
final class KillOrderScaleBenchmark {
    /// CPython's own parse time of the same file, per run of the benchmark (best of three).
    static let pythonParse = BenchmarkMetric.custom(
        "CPython json.loads (µs)", polarity: .prefersSmaller, useScalingFactor: false)

    let apps: Int
    let yaml: Bool
    var text = ""
    var path = ""
    var policy: Policy?

    init(apps: Int, yaml: Bool) {
        self.apps = apps
        self.yaml = yaml
    }

    var name: String { "\(apps >= 1_000_000 ? "\(apps / 1_000_000)M" : "\(apps / 1_000)K") \(yaml ? "YAML" : "JSON")" }

    func setUp() {
        text = yaml ? SnapshotText.serverYAML(apps: apps) : SnapshotText.server(apps: apps)
        policy = Policy.ios4
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "kill-order-scale-\(apps)-\(ProcessInfo.processInfo.processIdentifier).\(yaml ? "yaml" : "json")"
            ).path
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            fatalError("kill-order scale benchmark: cannot write \(path)")
        }
        guard loadAndRank().count == 100 else { fatalError("kill-order scale benchmark: fewer than 100 victims") }
    }

    func tearDown() {
        try? FileManager.default.removeItem(atPath: path)
        text = ""
    }

    /// One run of the command's work: load the snapshot, build the engine, read the top 100.
    func loadAndRank() -> [KillCandidate] {
        do {
            let snapshot = try Snapshot(text: text, file: path)
            return try PressureEngine(snapshot: snapshot, policy: policy!).killOrder(limit: 100)
        } catch {
            fatalError("kill-order scale benchmark: \(error)")
        }
    }

    /// The measured loop, then (unmeasured) CPython on the same file and the comparison.
    func run(_ benchmark: Benchmark) {
        var best = Duration.seconds(1_000)
        let clock = ContinuousClock()
        for _ in benchmark.scaledIterations {
            let start = clock.now
            blackHole(loadAndRank())
            best = Swift.min(best, clock.now - start)
        }
        benchmark.stopMeasurement()
        let ours = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        guard !yaml else {
            print("kill-order scale \(name): load + rank \(Self.format(ours)) s (best)")
            return
        }
        let python = (0..<3).map { _ in Self.pythonParseSeconds(path) }.min()!
        benchmark.measurement(Self.pythonParse, Int((python * 1e6).rounded()))
        print(
            "kill-order scale \(name): load + rank \(Self.format(ours)) s (best), CPython json.loads "
                + "\(Self.format(python)) s (best of 3, its own clock), ratio \(Self.format(ours / python))×")
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    /// The seconds `json.loads` takes in a `python3` child process for the file at `path`, as
    /// Python's `time.perf_counter()` reports them (reading the file is not timed).
    static func pythonParseSeconds(_ path: String) -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import json,sys,time\ntext=open(sys.argv[1],encoding='utf-8').read()\nstart=time.perf_counter()\n"
                + "json.loads(text)\nprint(time.perf_counter()-start)\n",
            path,
        ]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { fatalError("kill-order scale benchmark: cannot run python3: \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let seconds = Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { fatalError("kill-order scale benchmark: python3 failed (\(process.terminationStatus))") }
        return seconds
    }
}
