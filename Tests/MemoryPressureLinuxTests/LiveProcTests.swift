import Foundation
import MemoryPressure
import MemoryPressureLinux
import Testing
import TestSupport

/// Reading this machine's real `/proc` (read-only).
@Suite(.tags(.machine), .machineDependent) struct LiveProcTests {
    @Test func thisProcessAppearsWithAPlausibleFootprint() throws {
        let snapshot = try LinuxSystemSnapshot.read()
        #expect(snapshot.memory.total.value > 0)
        #expect(snapshot.memory.available <= snapshot.memory.total)
        #expect(snapshot.memory.free <= snapshot.memory.total)
        #expect(snapshot.pageSize == Int(sysconf(Int32(_SC_PAGESIZE))))
        let me = try #require(snapshot.processes.process(ProcessID(rawValue: getpid())))
        #expect(me.resident > .mebibytes(1) && me.resident < snapshot.memory.total)
        #expect(me.pageTables.value > 0)
        #expect(me.uid == getuid())
        #expect(!me.name.isEmpty)
        #expect(me.kernelOOMScore != nil)
        #expect(snapshot.processes.processes.count + snapshot.processes.skipped.count >= 2)
    }

    @Test func kernelThreadsAreSkipped() throws {
        let table = LinuxProcessTable.read()
        // kthreadd is pid 2 in the initial pid namespace; in a container it is not visible at all.
        guard FileManager.default.fileExists(atPath: "/proc/2/status"),
            let status = try? String(contentsOfFile: "/proc/2/status", encoding: .utf8), status.contains("kthreadd")
        else { return }
        #expect(table.process(ProcessID(rawValue: 2)) == nil)
        #expect(table.skipped.contains(SkippedProcess(pid: ProcessID(rawValue: 2), reason: .kernelThread)))
    }

    @Test func pressureAndCgroupReadWithoutErrors() throws {
        let pressure = try MemoryPressureStall.read()
        if FileManager.default.isReadableFile(atPath: "/proc/pressure/memory") {
            let some = try #require(pressure?.some)
            #expect(some.avg10 >= 0 && some.avg10 <= 100)
        }
        if let cgroup = try CgroupMemory.read() {
            #expect(cgroup.current.value > 0)
            if let limit = cgroup.limit { #expect(limit.value > 0) }
        }
    }
}
