import CoreMetrics
import Foundation
import MemoryPressure
import MemoryPressureMetrics
import MetricsTestKit
import Prometheus
import Testing
import TestSupport

/// Counts the events of `log` the way the catalog defines the counters, independently of
/// `EngineMetrics` (the reference the counters are checked against).
private struct LogCounts {
    var warnings: [Int: Int64] = [:]
    var kills = 0
    var killedBytes: Int64 = 0
    var levelsEntered: [PressureLevel: Int64] = [:]

    init(_ log: [Event]) {
        for event in log {
            switch event.kind {
            case .callback(_, .didReceiveMemoryWarning, let level?): warnings[level, default: 0] += 1
            case .kill(_, _, _, _, let freed):
                kills += 1
                killedBytes += freed.value
            case .level(_, let to, _): levelsEntered[to, default: 0] += 1
            default: break
            }
        }
    }
}

@Suite("EngineMetrics")
struct EngineMetricsTests {
    /// The ios4 policy on a 512 MiB phone (416 MiB usable): four apps fill it to level 1 (free 46 MiB
    /// < 15 %), then 10 MiB more to level 2 (36 MiB < 10 %), where the heaviest suspended app (A,
    /// the first by id of three 100 MiB apps) is killed and free memory (136 MiB) clears every level.
    private static func scriptedPhoneRun(_ engine: PressureEngine, drain: () -> [Event]) throws -> [Event] {
        var log: [Event] = []
        try engine.apply(.launch("A", mib: 100), at: 0)
        try engine.apply(.open("B", mib: 100), at: 1)
        try engine.apply(.open("C", mib: 100), at: 2)
        log += drain()
        try engine.apply(.open("D", mib: 70), at: 3)
        log += drain()
        try engine.apply(.allocate("D", mib: 10), at: 4)
        log += drain()
        return log
    }

    @Test("a scripted phone run gives exact warning, kill, level-change and freed-byte counts")
    func scriptedRunCounts() throws {
        let backend = TestMetrics()
        let engine = PressureEngine.scenario()
        let metrics = try EngineMetrics(engine: engine, factory: backend)
        let log = try Self.scriptedPhoneRun(engine) { metrics.takeEvents() }

        #expect(try backend.expectCounter("mempressure_memory_warnings_total", [("level", "1")]).totalValue == 1)
        #expect(try backend.expectCounter("mempressure_memory_warnings_total", [("level", "2")]).totalValue == 1)
        #expect(
            try backend.expectCounter("mempressure_kills_total", [("reason", "pressure"), ("band", "suspended")])
                .totalValue == 1)
        for band in engine.policy.bands.map(\.name) where band != "suspended" {
            #expect(
                try backend.expectCounter("mempressure_kills_total", [("reason", "pressure"), ("band", band)])
                    .totalValue == 0)
        }
        #expect(
            try backend.expectCounter("mempressure_kills_total", [("reason", "memory_limit_fatal"), ("band", "none")])
                .totalValue == 0)
        #expect(try backend.expectCounter("mempressure_freed_bytes_total", [("by", "kill")]).totalValue == 100 << 20)
        #expect(
            try backend.expectCounter("mempressure_pressure_level_changes_total", [("to", "warning")]).totalValue == 1)
        #expect(
            try backend.expectCounter("mempressure_pressure_level_changes_total", [("to", "urgent")]).totalValue == 1)
        #expect(
            try backend.expectCounter("mempressure_pressure_level_changes_total", [("to", "critical")]).totalValue == 0)

        // The same figures, counted from the log itself.
        let reference = LogCounts(log)
        #expect(reference.warnings == [1: 1, 2: 1])
        #expect(reference.kills == 1)
        #expect(reference.killedBytes == 100 << 20)
        for level in PressureLevel.allCases {
            #expect(
                try backend.expectCounter("mempressure_pressure_level_changes_total", [("to", level.name)]).totalValue
                    == reference.levelsEntered[level, default: 0])
        }
        // Gauges: the engine's state after the run.
        #expect(try backend.expectGauge("mempressure_pressure_level").lastValue == Double(engine.level.rawValue))
        #expect(try backend.expectGauge("mempressure_memory_free_bytes").lastValue == Double(engine.free.value))
        #expect(try backend.expectGauge("mempressure_memory_free_bytes").lastValue == Double(136 << 20))
        #expect(try backend.expectGauge("mempressure_memory_used_bytes").lastValue == Double(280 << 20))
        #expect(try backend.expectGauge("mempressure_memory_limit_bytes").lastValue == Double(416 << 20))
    }

    @Test("memory-limit kills are counted by reason with band none, apart from pressure kills")
    func limitKills() throws {
        let backend = TestMetrics()
        let engine = PressureEngine.scenario(
            memory: .gibibytes(1), reserved: .mebibytes(100), policy: try Policy.shipped("jetsam"))
        let metrics = try EngineMetrics(engine: engine, labelPrefix: "jet", factory: backend)
        // jetsam.yaml: a fatal highwater limit of 650 MiB active, 450 MiB inactive.
        try engine.apply(.launch("A", mib: 600), at: 0)
        try engine.apply(.allocate("A", mib: 100), at: 1)  // 700 MiB active: killed at once
        try engine.apply(.launch("B", mib: 500), at: 2)
        try engine.apply(.home, at: 3)  // 500 MiB inactive: killed on leaving the foreground
        let log = metrics.takeEvents()
        #expect(LogCounts(log).kills == 2)
        #expect(
            try backend.expectCounter("jet_kills_total", [("reason", "memory_limit_fatal"), ("band", "none")])
                .totalValue == 2)
        #expect(
            try backend.expectCounter("jet_kills_total", [("reason", "memory_limit_soft"), ("band", "none")])
                .totalValue == 0)
        for band in engine.policy.bands.map(\.name) {
            #expect(
                try backend.expectCounter("jet_kills_total", [("reason", "pressure"), ("band", band)]).totalValue == 0)
        }
        #expect(try backend.expectCounter("jet_freed_bytes_total", [("by", "kill")]).totalValue == 1200 << 20)
    }

    @Test("events passed to record(_:) count the same as events drained by takeEvents()")
    func recordMatchesTakeEvents() throws {
        let drained = TestMetrics()
        let passed = TestMetrics()
        let first = PressureEngine.scenario()
        let second = PressureEngine.scenario()
        let viaTake = try EngineMetrics(engine: first, factory: drained)
        let viaRecord = try EngineMetrics(engine: second, factory: passed)
        let logA = try Self.scriptedPhoneRun(first) { viaTake.takeEvents() }
        let logB = try Self.scriptedPhoneRun(second) {
            let events = second.takeEvents()
            viaRecord.record(events)
            return events
        }
        #expect(logA == logB)
        let counters = drained.counters.map { "\($0.label)\($0.dimensions.map { "\($0)=\($1)" }) \($0.totalValue)" }
        let others = passed.counters.map { "\($0.label)\($0.dimensions.map { "\($0)=\($1)" }) \($0.totalValue)" }
        #expect(counters.sorted() == others.sorted())
        #expect(counters.count == 4 + 2 + 2 + 3 + 5)  // levels, warnings, limit kills, ios4's 3 bands, freed-by
    }

    @Test("with no backend, nothing is made or recorded, and the engine's log is unchanged")
    func noBackend() throws {
        let engine = PressureEngine.scenario()
        let twin = PressureEngine.scenario()
        let metrics = try EngineMetrics(engine: engine, factory: NOOPMetricsHandler.instance)
        #expect(!metrics.isEnabled)
        let log = try Self.scriptedPhoneRun(engine) { metrics.takeEvents() }
        let plain = try Self.scriptedPhoneRun(twin) { twin.takeEvents() }
        #expect(log == plain)
        #expect(!log.isEmpty)
        let enabled = try EngineMetrics(engine: PressureEngine.scenario(), factory: TestMetrics())
        #expect(enabled.isEnabled)
    }

    @Test("a label prefix that cannot start a metric name is refused with the position and what is expected")
    func labelPrefix() throws {
        let engine = PressureEngine.scenario()
        for good in ["", "mempressure", "a:b_c9", "_x"] {
            #expect(throws: Never.self) { try EngineMetrics(engine: engine, labelPrefix: good, factory: TestMetrics()) }
        }
        for (bad, position) in [("9lives", 1), ("mem-pressure", 4), ("a b", 2), ("é", 1)] {
            do {
                _ = try EngineMetrics(engine: engine, labelPrefix: bad, factory: TestMetrics())
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.description.contains("character \(position)"), "\(error)")
                #expect(error.description.contains("[a-zA-Z_:][a-zA-Z0-9_:]*"))
            }
        }
        #expect(throws: EngineMetricsError.self) {
            try EngineMetrics(engine: engine, labelPrefix: String(repeating: "a", count: 65), factory: TestMetrics())
        }
    }

    @Test("the catalog names exactly the metrics a Prometheus registry receives, each with its type")
    func catalogMatchesExposition() throws {
        let registry = PrometheusCollectorRegistry()
        let engine = PressureEngine.scenario()
        let metrics = try EngineMetrics(engine: engine, factory: PrometheusMetricsFactory(registry: registry))
        _ = try Self.scriptedPhoneRun(engine) { metrics.takeEvents() }
        let text = registry.emitToString()
        var types: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            let parts = line.split(separator: " ")
            types[String(parts[2])] = String(parts[3])
        }
        let catalog = EngineMetrics.catalog()
        #expect(Set(types.keys) == Set(catalog.map(\.name)))
        for metric in catalog {
            #expect(types[metric.name] == metric.kind.rawValue, "\(metric.name)")
            #expect(!metric.help.isEmpty && !metric.analogue.isEmpty && !metric.unit.isEmpty)
        }
        #expect(text.contains("mempressure_kills_total{reason=\"pressure\",band=\"suspended\"} 1\n"))
        #expect(text.contains("mempressure_memory_warnings_total{level=\"2\"} 1\n"))
        #expect(text.contains("mempressure_freed_bytes_total{by=\"kill\"} \(100 << 20)\n"))
        #expect(text.contains("mempressure_memory_limit_bytes \(Double(416 << 20))\n"))
    }

    @Test(
        "a kill reason is reduced to bounded labels: limit kills, each band, oom_score bands, unknown text, systemd-oomd's pressure rule"
    )
    func killReasonLabels() throws {
        let backend = TestMetrics()
        let engine = try PressureEngine(device: .iPhone4, policy: try Policy.shipped("earlyoom"))
        let metrics = try EngineMetrics(engine: engine, factory: backend)
        let band = try #require(engine.policy.bands.first { $0.order == .oomScore }).name
        func kill(_ reason: String) -> Event {
            Event(time: 0, kind: .kill(app: "x", state: .suspended, reason: reason, notice: .none, freed: .zero))
        }
        metrics.record([
            kill("over its active memory limit of 650.0 MiB (fatal)"),
            kill("over its inactive memory limit of 1.0 GiB (soft)"),
            kill("oom_score 672 (oom_score_adj 0)"),
            kill("something no band of this policy says"),
            kill(
                "memory pressure above 50.00% for > 20s with reclaim activity (full avg10 93.91%): highest pgscan rate: "
                    + "720.0 MiB resident"),
        ])
        let pairs = [
            ("memory_limit_fatal", "none"), ("memory_limit_soft", "none"), ("pressure", band),
            ("pressure", "unknown"), ("pressure", "none"),
        ]
        for (reason, band) in pairs {
            #expect(
                try backend.expectCounter("mempressure_kills_total", [("reason", reason), ("band", band)]).totalValue
                    == 1, "\(reason) \(band)")
        }
    }

    @Test("docs/metrics.md's Metrics for operators table lists every catalogued metric with its type")
    func readmeListsCatalog() throws {
        let readme = try String(contentsOfFile: PackagePaths.path("docs/metrics.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "\n## Metrics for operators\n"))
        let rest = readme[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        for metric in EngineMetrics.catalog() {
            #expect(section.contains("| `\(metric.name)` | \(metric.kind.rawValue) |"), "\(metric.name)")
        }
    }
}
