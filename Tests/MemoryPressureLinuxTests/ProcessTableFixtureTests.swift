import Foundation
import MemoryPressure
import MemoryPressureLinux
import Testing

/// Reading the process table of a fixture tree.
@Suite struct ProcessTableFixtureTests {
    let table = LinuxProcessTable.read(from: Fixture.machine.fileSystem)

    @Test func listsOnlyAllDigitEntries() {
        let ids = Fixture.machine.fileSystem.processIDs().map(\.rawValue)
        #expect(ids == [1, 2, 17, 1200, 1300, 1400, 1450, 1500, 1600, 1700, 1800, 1900, 2000])
    }

    @Test func readsUserProcesses() throws {
        #expect(table.processes.map(\.pid.rawValue) == [1, 1200, 1300, 1400, 1450])
        let firefox = try #require(table.process(ProcessID(rawValue: 1200)))
        #expect(firefox.name == "firefox")
        #expect(firefox.uid == 1000)
        #expect(firefox.resident == .mebibytes(1024))
        #expect(firefox.swap == .mebibytes(64))
        #expect(firefox.pageTables == .mebibytes(4))
        #expect(firefox.oomScoreAdj == 0)
        #expect(firefox.kernelOOMScore == 706)
        let sshd = try #require(table.process(ProcessID(rawValue: 1400)))
        #expect(sshd.oomScoreAdj == -1000 && sshd.uid == 0 && sshd.resident == .mebibytes(8))
        let initProcess = try #require(table.process(ProcessID(rawValue: 1)))
        #expect(initProcess.name == "systemd" && initProcess.resident.value > 0)
        #expect(table.process(ProcessID(rawValue: 2)) == nil)
    }

    @Test func skipsWhatCannotBeReadWholeAndSaysWhy() {
        let reasons = Dictionary(uniqueKeysWithValues: table.skipped.map { ($0.pid.rawValue, $0.reason) })
        #expect(reasons[2] == .kernelThread, "Kthread: 1")
        #expect(reasons[17] == .kernelThread, "no Kthread line, no VmRSS: an older kernel's kernel thread")
        #expect(reasons[1500] == .zombie)
        #expect(reasons[1600] == .malformed(file: "status", field: "VmRSS"))
        #expect(reasons[1700] == .vanished)
        #expect(reasons[1800] == .malformed(file: "oom_score_adj", field: "an integer from -1000 to 1000"))
        #expect(reasons[1900] == .vanished)
        #expect(reasons[2000] == .unreadable(file: "status", errno: 21), "EISDIR")
        #expect(table.skipped.count == 8)
        #expect(table.skipped.map(\.pid) == table.skipped.map(\.pid).sorted())
        #expect("\(table.skipped[0])" == "pid 2 skipped: kernel thread")
    }

    @Test func readingOneProcessThrowsWhyItIsSkipped() throws {
        let fileSystem = Fixture.machine.fileSystem
        #expect(throws: SkippedProcess(pid: ProcessID(rawValue: 99), reason: .vanished)) {
            try LinuxProcess.read(ProcessID(rawValue: 99), from: fileSystem)
        }
        #expect(try LinuxProcess.read(ProcessID(rawValue: 1300), from: fileSystem).oomScoreAdj == 300)
    }

    /// A root that is not `/proc` may name a file without end: each read stops at 64 MiB.
    @Test func aFileWithoutEndIsUnreadableNotEndless() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("endless-proc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("77"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("meminfo").path, withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("77/status").path, withDestinationPath: "/dev/zero")
        let fileSystem = ProcFileSystem(procRoot: root.path)
        #expect(throws: LinuxReadError.unreadable(path: root.path + "/meminfo", errno: EFBIG)) {
            try LinuxMemoryInfo.read(from: fileSystem)
        }
        let table = LinuxProcessTable.read(from: fileSystem)
        #expect(table.skipped.map(\.reason) == [.unreadable(file: "status", errno: EFBIG)])
    }

    @Test func aMissingProcRootIsAnEmptyTable() {
        let table = LinuxProcessTable.read(from: ProcFileSystem(procRoot: "/nonexistent/proc"))
        #expect(table.processes.isEmpty && table.skipped.isEmpty)
    }
}
