import Foundation
import MemoryPressure
import Testing
import TestSupport

@testable import MemoryPressureLinux

// Issue 14: the /proc scan reads fewer files than before — kernel threads found through
// kthreadd's children cost one readlink instead of a status read, and oom_score is read only
// when asked for — and must still give the same table.

@Suite("The /proc scan: the kernel-thread shortcut and the optional kernel score", .tags(.machine), .machineDependent)
struct ProcScanTests {
    @Test("every entry the live scan skips as a kernel thread is one by its status file too")
    func kernelThreadShortcutAgreesWithStatus() throws {
        let table = LinuxProcessTable.read(from: .live)
        let kernelThreads = table.skipped.filter { $0.reason == .kernelThread }
        for skipped in kernelThreads {
            do {
                let process = try LinuxProcess.read(skipped.pid, from: .live)
                Issue.record("pid \(skipped.pid) was skipped as a kernel thread but reads as \(process)")
            } catch {
                #expect(error.reason == .kernelThread || error.reason == .vanished, "\(error)")
            }
        }
        #expect(!table.processes.contains { $0.pid.rawValue == 2 })
    }

    @Test("kthreadd's children are the kernel-thread candidates when the tree has them")
    func candidatesComeFromKthreadd() throws {
        let candidates = ProcScanner(procRoot: "/proc").kernelThreadCandidates()
        if let comm = try? String(contentsOfFile: "/proc/2/comm", encoding: .utf8), comm == "kthreadd\n",
            let children = try? String(contentsOfFile: "/proc/2/task/2/children", encoding: .utf8)
        {
            let listed = children.split(separator: " ").compactMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            #expect(candidates == ([2] + listed).sorted())
        } else {
            #expect(candidates.isEmpty)
        }
        #expect(ProcScanner(procRoot: Fixture.machine.fileSystem.procRoot).kernelThreadCandidates().isEmpty)
    }

    @Test("without kernel scores the table is the same but for kernelOOMScore")
    func kernelScoresAreOptional() {
        let fileSystem = Fixture.machine.fileSystem
        let full = LinuxProcessTable.read(from: fileSystem)
        let lean = LinuxProcessTable.read(from: fileSystem, includingKernelScores: false)
        #expect(lean.skipped == full.skipped)
        #expect(lean.processes.allSatisfy { $0.kernelOOMScore == nil })
        #expect(full.processes.contains { $0.kernelOOMScore != nil })
        var stripped = full.processes
        for index in stripped.indices { stripped[index].kernelOOMScore = nil }
        #expect(lean.processes == stripped)
    }

    @Test("the scanner's buffer grows for files larger than it, and paths are rebuilt per file")
    func largeFilesAndPaths() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/4194304", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/7", withIntermediateDirectories: true)
        let padding = String(repeating: "Groups:\t1 2 3 4 5 6 7 8 9 10\n", count: 1_000)
        try ("Name:\tbig\n" + padding + "VmRSS:\t 8 kB\n").write(
            toFile: root + "/4194304/status", atomically: true, encoding: .utf8)
        try "-17\n".write(toFile: root + "/4194304/oom_score_adj", atomically: true, encoding: .utf8)
        try "Name:\tsmall\nVmRSS:\t4 kB\n".write(toFile: root + "/7/status", atomically: true, encoding: .utf8)
        try "3".write(toFile: root + "/7/oom_score_adj", atomically: true, encoding: .utf8)
        for name in ["12x", "x12", "99999999999"] {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
        }
        let table = LinuxProcessTable.read(from: ProcFileSystem(procRoot: root))
        #expect(table.processes.map(\.pid.rawValue) == [7, 4_194_304])
        #expect(table.processes.map(\.name) == ["small", "big"])
        #expect(table.processes.map(\.resident) == [.kibibytes(4), .kibibytes(8)])
        #expect(table.processes.map(\.oomScoreAdj) == [3, -17])
        #expect(table.processes.allSatisfy { $0.kernelOOMScore == nil })
    }
}
