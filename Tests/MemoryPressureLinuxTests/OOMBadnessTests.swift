import MemoryPressure
import MemoryPressureLinux
import Testing

/// The kernel's `oom_badness` and `oom_score` formulas on worked examples.
@Suite struct OOMBadnessTests {
    let pageSize = 4096
    /// 16 GiB of RAM, no swap: 4,194,304 pages; one adjustment point is 4,194 pages.
    let totalPages = 4_194_304

    @Test func totalPagesCountRamAndSwap() {
        let memory = LinuxMemoryInfo(total: .gibibytes(16), available: .zero, free: .zero, swapTotal: .gibibytes(2))
        #expect(LinuxOOMBadness.totalPages(of: memory, pageSize: pageSize) == 4_718_592)
    }

    @Test func pointsAreResidentSwapAndPageTablePagesPlusTheScaledAdjustment() {
        let points = LinuxOOMBadness.points(
            resident: .mebibytes(400), swap: .mebibytes(100), pageTables: .kibibytes(800), oomScoreAdj: 0,
            totalPages: totalPages, pageSize: pageSize)
        #expect(points == 102_400 + 25_600 + 200)
        let adjusted = LinuxOOMBadness.points(
            resident: .mebibytes(400), swap: .zero, pageTables: .zero, oomScoreAdj: -30, totalPages: totalPages,
            pageSize: pageSize)
        #expect(adjusted == 102_400 - 30 * 4_194, "the adjustment is scaled by totalpages / 1000, divided first")
    }

    @Test func minimumAdjustmentAndInitAreUnkillable() {
        #expect(
            LinuxOOMBadness.points(
                resident: .gibibytes(8), swap: .zero, pageTables: .zero, oomScoreAdj: -1000, totalPages: totalPages,
                pageSize: pageSize) == nil)
        let initProcess = LinuxProcess(pid: ProcessID(rawValue: 1), name: "init", resident: .gibibytes(1))
        #expect(LinuxOOMBadness.points(of: initProcess, totalPages: totalPages, pageSize: pageSize) == nil)
        #expect(LinuxOOMBadness.oomScore(points: nil, totalPages: totalPages) == 0)
    }

    @Test func oomScoreIsTwoThirdsOfOneThousandPlusPerMille() {
        #expect(LinuxOOMBadness.oomScore(points: 0, totalPages: totalPages) == 666)
        #expect(LinuxOOMBadness.oomScore(points: totalPages, totalPages: totalPages) == 1333)
        #expect(LinuxOOMBadness.oomScore(points: totalPages / 2, totalPages: totalPages) == 1000)
        #expect(LinuxOOMBadness.oomScore(points: 2 * totalPages, totalPages: totalPages) == 2000, "the maximum")
        #expect(LinuxOOMBadness.oomScore(points: -totalPages, totalPages: totalPages) == 0, "the minimum")
        // C division truncates toward zero: -0.9 per mille is 0, not -1.
        #expect(LinuxOOMBadness.oomScore(points: -3_000, totalPages: totalPages) == 666)
    }

    @Test func fixtureScoresMatchTheFormula() throws {
        let snapshot = try LinuxSystemSnapshot.read(from: Fixture.machine.fileSystem)
        for process in snapshot.processes.processes {
            let points = LinuxOOMBadness.points(of: process, totalPages: snapshot.totalPages, pageSize: 4096)
            #expect(
                LinuxOOMBadness.oomScore(points: points, totalPages: snapshot.totalPages) == process.kernelOOMScore,
                "\(process.name)")
        }
    }
}
