import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

// Fleet's cached-app experiment replayed (FleetCachedApps): the scripted sequence is Fleet's, the
// count is Fleet's definition, and the measured series compiled into the library are the
// repository's evidence/papers/fleet-cached-apps.csv.

/// The rows of evidence/papers/fleet-cached-apps.csv, by column name.
private func measuredRows() throws -> [[String: String]] {
    let text = try String(contentsOfFile: PackagePaths.path("evidence/papers/fleet-cached-apps.csv"), encoding: .utf8)
    let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let header = lines[0].map(String.init)
    return lines.dropFirst().map { cells in
        Dictionary(uniqueKeysWithValues: zip(header, cells.map(String.init)))
    }
}

@Suite("Fleet's cached-app experiment")
struct FleetCachedAppsTests {
    @Test("36 steps: the 18 apps in Fleet's order, twice, as the measured CSV lists them")
    func stepsInFleetsOrder() throws {
        let rows = try measuredRows()
        #expect(rows.count == 36)
        #expect(FleetCachedApps.steps.count == 36)
        #expect(Set(FleetCachedApps.apps.map(\.package)).count == 18)
        for (step, row) in zip(FleetCachedApps.steps, rows) {
            #expect("\(step.number)" == row["step"])
            #expect("\(step.round)" == row["round"])
            #expect(step.app.name == row["app"])
            #expect(step.app.package == row["package"])
        }
        // One `open` per step, in step order, and a Home before every launch but the first.
        let trace = FleetCachedApps().trace
        let opened = trace.entries.compactMap { entry -> String? in
            if case .open(let launch) = entry.action { return launch.id.rawValue }
            return nil
        }
        #expect(opened == FleetCachedApps.steps.map(\.app.package))
        #expect(trace.entries.count { $0.action == .home } == 35)
        #expect(zip(trace.entries, trace.entries.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(trace.device == Device(memory: .gibibytes(4), reserved: .mebibytes(1_536)))
    }

    @Test("the measured series compiled in are the evidence CSV's columns")
    func measuredEqualsTheCSV() throws {
        let rows = try measuredRows()
        #expect(FleetCachedApps.measuredNoSwap == rows.map { Int($0["android_no_swap"]!)! })
        #expect(FleetCachedApps.measuredSwapFile == rows.map { Int($0["android_swap_file"]!)! })
        #expect(FleetCachedApps.measuredFleet == rows.map { Int($0["fleet"]!)! })
        #expect(FleetCachedApps.measured("android_no_swap") == FleetCachedApps.measuredNoSwap)
        #expect(FleetCachedApps.measured("android_swap_file") == FleetCachedApps.measuredSwapFile)
        // The figures docs/phone-2024-sources.md §9 gives for the measured series.
        let noSwap = FleetCachedApps.Summary(FleetCachedApps.measuredNoSwap, measured: FleetCachedApps.measuredNoSwap)
        #expect(noSwap.range == 2...14)
        #expect((noSwap.mean * 100).rounded() == 928)
        #expect((noSwap.meanRound2 * 100).rounded() == 1067)
        #expect(noSwap.peak == 14 && noSwap.peakStep == 33)
        #expect(noSwap.withinMeasuredRange == 26)
        let swap = FleetCachedApps.Summary(
            FleetCachedApps.measuredSwapFile, measured: FleetCachedApps.measuredSwapFile)
        #expect((swap.mean * 100).rounded() == 1053)
        #expect((swap.meanRound2 * 100).rounded() == 1222)
        #expect(swap.peak == 14 && swap.peakStep == 25)
    }

    @Test("every footprint states its source; the three Ariadne measured are its Table 1 figures")
    func footprintsCiteTheirSources() {
        for app in FleetCachedApps.apps {
            #expect(app.source.hasPrefix("measured: ") || app.source.hasPrefix("assumption: "), "\(app.name)")
            #expect(app.atFiveMinutes > app.atLaunch, "\(app.name)")
        }
        let measured = FleetCachedApps.apps.filter { $0.source.hasPrefix("measured: ") }
        #expect(measured.map(\.name) == ["Twitter", "YouTube", "Firefox"])
        #expect(measured.map(\.atLaunch.value) == [182_000_000, 177_000_000, 560_000_000])
        #expect(measured.map(\.atFiveMinutes.value) == [273_000_000, 358_000_000, 716_000_000])
    }

    /// The count after each step, from the event log alone: the apps launched and not killed since.
    private func countsFromEvents(_ experiment: FleetCachedApps, policy: Policy) throws -> [Int] {
        let engine = try PressureEngine(device: experiment.device, policy: policy)
        var player = TracePlayer(engine: engine)
        var live: Set<AppID> = []
        var counts: [Int] = []
        for entry in experiment.trace.entries {
            for event in try player.apply(entry) ?? [] {
                switch event.kind {
                case .callback(let app, .didFinishLaunching, _): live.insert(app)
                case .kill(let app, _, _, _, _): live.remove(app)
                default: break
                }
            }
            if case .open = entry.action { counts.append(live.count) }
        }
        return counts
    }

    @Test(
        "the count is the apps with a live process right after each launch, the launched one included",
        arguments: ["linux_oom", "android_lmkd_pixel3", "android_lmkd_psi", "linux_oom_swap_file"])
    func countDefinition(key: String) throws {
        let experiment = FleetCachedApps()
        let configuration = try #require(try FleetCachedApps.configurations().first { $0.key == key })
        let series = try experiment.replay(under: configuration.policy)
        #expect(series.counts.count == 36)
        #expect(series.counts == (try countsFromEvents(experiment, policy: configuration.policy)))
        // Deterministic: the same counts on every run.
        #expect(series == (try experiment.replay(under: configuration.policy)))
        // Before the first kill the count is the number of apps launched so far.
        #expect(series.counts[0] == 1 && series.counts[1] == 2)
        #expect(series.counts.allSatisfy { (1...18).contains($0) })
    }

    @Test("without pressure nothing dies: a phone with every byte free keeps all 18")
    func noPressureKeepsEveryApp() throws {
        let experiment = FleetCachedApps()
        let engine = try PressureEngine(device: Device(memory: .gibibytes(64)), policy: try FleetCachedApps.linuxOOM())
        var player = TracePlayer(engine: engine)
        var counts: [Int] = []
        for entry in experiment.trace.entries {
            _ = try player.apply(entry)
            if case .open = entry.action { counts.append(engine.residentCount) }
        }
        #expect(counts == Array(1...18) + Array(repeating: 18, count: 18))
    }

    @Test("the kernel's killer takes cached apps first: the foreground app survives its own launch")
    func linuxOOMSparesTheForegroundApp() throws {
        let experiment = FleetCachedApps()
        let log = try Replay.events(experiment.trace, policy: try FleetCachedApps.linuxOOM())
        let kills = log.compactMap { event -> AppState? in
            if case .kill(_, let state, _, _, _) = event.kind { return state }
            return nil
        }
        #expect(!kills.isEmpty)
        #expect(kills.allSatisfy { $0 == .suspended })
    }
}
