import Benchmark
import IndexedHeapModule
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureJemalloc

/// Bytes of engine memory per tracked app, measured in a clean child process (``CleanProcess``):
/// jemalloc's `stats.allocated` (the whole process's live allocations by size class; jemalloc is
/// its malloc) after adding `apps` apps with no view controllers to an empty `ios4` engine, minus
/// before. The apps are suspended (so each is in the kill queue), with no views, purgeable caches
/// or background modes, on a device big enough that no level is entered; their ids are made
/// inside the measured span, so id storage counts when an id is too long to be stored inline in
/// its `String` (more than 15 UTF-8 bytes).
///
/// To show what the total is made of, the same process measures, on their own and grown the same
/// way (one insertion at a time, no reservation), the structures the engine keeps besides its
/// array of app records: a `[AppID: Int32]` of the ids (the id index, without the ids' own
/// storage, which the engine shares with its records), an `IndexedHeap<UInt64>` with one key per
/// app (the kill queue), and an `[Int32]` with one entry per app (the kill queue's slot-to-app
/// table). The remainder is the array of app records and whatever else the engine holds.
struct EngineMemoryMeasurement {
    /// The figures, all in bytes for all `apps` apps; the benchmark records them per app.
    static let names = ["engine", "idIndex", "killQueue", "slotTable", "remainder"]

    let apps: Int
    /// The id prefix: "app" gives inline ids ("app000001", 9 bytes); a bundle-style prefix gives
    /// ids of more than 15 bytes, which Swift stores out of line.
    let prefix: String

    func id(_ index: Int) -> AppID {
        let digits = String(index)
        return AppID(prefix + String(repeating: "0", count: Swift.max(6 - digits.count, 0)) + digits)
    }

    func measure() -> [(String, Int)] {
        do {
            let device = Device(memory: .mebibytes(Int64(apps) * 4 + 1024), reserved: .mebibytes(1024))
            let engine = try PressureEngine(device: device, policy: .ios4)
            let before = try JemallocProcessStatistics.allocated()
            for index in 0..<apps {
                try engine.add(ResidentApp(id: id(index), state: .suspended, footprint: .mebibytes(1)))
            }
            let total = try JemallocProcessStatistics.allocated() - before
            precondition(engine.level == .normal && engine.killOrder(limit: apps).count == apps)

            let dictionary = try allocatedBytes {
                var index: [AppID: Int32] = [:]
                for app in 0..<apps { index[id(app)] = Int32(app) }
                return index
            }
            let heap = try allocatedBytes {
                var heap = IndexedHeap<UInt64>()
                for app in 0..<apps { heap.insert(UInt64(app)) }
                return heap
            }
            let slots = try allocatedBytes {
                var table: [Int32] = []
                for app in 0..<apps { table.append(Int32(app)) }
                return table
            }
            let idArray = try allocatedBytes { [AppID](repeating: AppID(""), count: apps) }
            let ids = try allocatedBytes { (0..<apps).map { id($0) } } - idArray
            let index = dictionary - ids
            withExtendedLifetime(engine) {}
            return [
                ("engine", total), ("idIndex", index), ("killQueue", heap), ("slotTable", slots),
                ("remainder", total - index - heap - slots),
            ]
        } catch {
            fatalError("engine memory measurement: \(error)")
        }
    }

    /// The bytes `build` leaves allocated while its result is alive.
    private func allocatedBytes<T>(_ build: () -> T) throws -> Int {
        let before = try JemallocProcessStatistics.allocated()
        let value = build()
        let bytes = try JemallocProcessStatistics.allocated() - before
        withExtendedLifetime(value) {}
        return bytes
    }
}

/// The benchmark: every iteration starts a clean process that makes the measurement; the figures
/// are recorded in bytes per app (rounded to whole bytes).
enum EngineMemoryBenchmark {
    static let metrics: [String: BenchmarkMetric] = [
        "engine": .custom("engine bytes per app", polarity: .prefersSmaller, useScalingFactor: false),
        "idIndex": .custom("id index [AppID: Int32] bytes per app", polarity: .prefersSmaller, useScalingFactor: false),
        "killQueue": .custom(
            "kill queue IndexedHeap<UInt64> bytes per app", polarity: .prefersSmaller, useScalingFactor: false),
        "slotTable": .custom("slot table [Int32] bytes per app", polarity: .prefersSmaller, useScalingFactor: false),
        "remainder": .custom(
            "remainder (app records) bytes per app", polarity: .prefersSmaller, useScalingFactor: false),
    ]

    static func run(_ benchmark: Benchmark, apps: Int, prefix: String) {
        let figures = CleanProcess.measure("engine-memory:\(apps):\(prefix)")
        for name in EngineMemoryMeasurement.names {
            guard let bytes = figures[name] else { fatalError("engine memory: no figure \(name)") }
            benchmark.measurement(metrics[name]!, Int((Double(bytes) / Double(apps)).rounded()))
        }
    }
}
