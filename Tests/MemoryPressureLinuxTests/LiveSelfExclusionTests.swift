import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureLinux
import Testing
import TestSupport

// Issue 12, item 11: live mode does not rank itself (earlyoom's kill.c find_largest_process()
// likewise drops its own pid), and lmkd's PSI triggers for reading /proc/pressure/memory.

@Suite("live mode leaves this process out; lmkd's PSI defaults", .tags(.machine), .machineDependent)
struct LiveSelfExclusionTests {
    @Test("the live /proc reading leaves this process out of the ranking and says which it is")
    func ownProcessLeftOut() throws {
        let own = ProcessID(rawValue: getpid())
        let machine = try LinuxSystemSnapshot.read(from: .live)
        #expect(machine.excludedProcessID == own)
        #expect(machine.processes.processes.contains { $0.pid == own })
        #expect(!machine.engineSnapshot.apps.contains { $0.id.rawValue.hasSuffix("[\(own.rawValue)]") })
        let ranking = try LiveKillOrder(policy: try Policy.shipped("earlyoom"))
        try ranking.refresh(at: 1)
        #expect(ranking.engine.status(of: AppID("\(machine.excludedProcess?.name ?? "")[\(own.rawValue)]")) == nil)
        #expect(!ranking.engine.killOrder(limit: .max).contains { $0.app.rawValue.hasSuffix("[\(own.rawValue)]") })
    }

    @Test("a fixture tree excludes nothing (its pids are not this machine's)")
    func fixtureExcludesNothing() throws {
        let root = try scratchDirectory("fixture").path
        try FileManager.default.createDirectory(atPath: root + "/proc", withIntermediateDirectories: true)
        try "MemTotal: 1048576 kB\nMemFree: 524288 kB\nMemAvailable: 524288 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n"
            .write(toFile: root + "/proc/meminfo", atomically: true, encoding: .utf8)
        let machine = try LinuxSystemSnapshot.read(from: ProcFileSystem(procRoot: root + "/proc"))
        #expect(machine.excludedProcessID == nil)
    }

    @Test("lmkd.cpp PSI defaults: some 70 ms and full 700 ms per 1 s window; 200 ms on low-RAM devices")
    func psiDefaults() {
        let defaults = LMKDStallThresholds.defaults
        #expect(defaults.partialStallPercent == 7 && defaults.completeStallPercent == 70)
        #expect(LMKDStallThresholds.lowRAM.partialStallPercent == 20)
        func stall(some: Double, full: Double?) -> MemoryPressureStall {
            MemoryPressureStall(
                some: .init(avg10: some, avg60: 0, avg300: 0, totalMicroseconds: 0),
                full: full.map { .init(avg10: $0, avg60: 0, avg300: 0, totalMicroseconds: 0) })
        }
        #expect(defaults.level(of: stall(some: 6.99, full: 0)) == LMKDStallLevel.none)
        #expect(defaults.level(of: stall(some: 7, full: 1)) == .medium)
        #expect(defaults.level(of: stall(some: 90, full: 70)) == .critical)
        #expect(defaults.level(of: stall(some: 90, full: nil)) == .medium)
    }
}
