import Foundation
import MemoryPressure
import MemoryPressureLinux
import Testing
import TestSupport

/// Our `oom_badness` against the running kernel's `/proc/<pid>/oom_score`, on child processes
/// holding different amounts of memory with different `oom_score_adj`.
@Suite(.tags(.machine), .machineDependent) struct KernelOOMScoreTests {
    /// One child: how much it holds and the adjustment it gets.
    struct Child {
        var mebibytes: Int
        var adjustment: Int
    }

    /// Children chosen so that the adjustment reorders them against their sizes. Adjustments
    /// below zero need `CAP_SYS_RESOURCE` (root alone is not enough in some containers), so they
    /// are used only with it.
    static var children: [Child] {
        var children = [
            Child(mebibytes: 300, adjustment: 0), Child(mebibytes: 64, adjustment: 15),
            Child(mebibytes: 32, adjustment: 0), Child(mebibytes: 16, adjustment: 40),
        ]
        if MemoryHogs.hasSystemResourceCapability {
            children += [Child(mebibytes: 400, adjustment: -12), Child(mebibytes: 64, adjustment: -1000)]
        } else {
            children += [Child(mebibytes: 400, adjustment: 2), Child(mebibytes: 128, adjustment: 1000)]
        }
        return children
    }

    @Test
    func rankingByOurBadnessMatchesTheKernelsOOMScore() throws {
        let hogs = try MemoryHogs(
            Self.children.map { MemoryHogs.Spec(mebibytes: $0.mebibytes, adjustment: $0.adjustment) })
        defer { hogs.stop() }
        let fileSystem = ProcFileSystem.live
        // Read now that they are steady: our score and the kernel's together.
        let processes = try hogs.pids.map { try LinuxProcess.read(ProcessID(rawValue: $0), from: fileSystem) }
        let memory = try LinuxMemoryInfo.read(from: fileSystem)
        let totalPages = LinuxOOMBadness.totalPages(of: memory, pageSize: fileSystem.pageSize)

        var comparedPairs = 0
        for (index, first) in processes.enumerated() {
            let firstPoints = LinuxOOMBadness.points(of: first, totalPages: totalPages, pageSize: fileSystem.pageSize)
            let firstKernel = try #require(first.kernelOOMScore)
            // Our score for it agrees with the kernel's up to rounding of a few drifting pages.
            let ours = LinuxOOMBadness.oomScore(points: firstPoints, totalPages: totalPages)
            #expect(abs(ours - firstKernel) <= 1, "\(first): ours \(ours), kernel \(firstKernel)")
            for second in processes[(index + 1)...] {
                let secondKernel = try #require(second.kernelOOMScore)
                guard firstKernel != secondKernel else { continue }  // ties aside
                let secondPoints = LinuxOOMBadness.points(
                    of: second, totalPages: totalPages, pageSize: fileSystem.pageSize)
                let oursOrder = (firstPoints ?? Int.min) > (secondPoints ?? Int.min)
                #expect(oursOrder == (firstKernel > secondKernel), "\(first) vs \(second)")
                comparedPairs += 1
            }
        }
        #expect(comparedPairs >= 8, "too many ties to compare: \(processes)")
    }
}
