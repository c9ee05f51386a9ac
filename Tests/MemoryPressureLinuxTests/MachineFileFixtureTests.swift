import MemoryPressure
import MemoryPressureLinux
import Testing

/// Machine-wide files of fixture trees: meminfo, PSI, cgroups, and their typed errors.
@Suite struct MachineFileFixtureTests {
    @Test func readsMeminfo() throws {
        let memory = try LinuxMemoryInfo.read(from: Fixture.machine.fileSystem)
        #expect(
            memory
                == LinuxMemoryInfo(
                    total: .kibibytes(16_384_000), available: .kibibytes(8_192_000), free: .kibibytes(2_048_000),
                    swapTotal: .kibibytes(2_097_152), swapFree: .kibibytes(1_048_576)))
    }

    @Test func readsPressureStallInformation() throws {
        let pressure = try #require(try MemoryPressureStall.read(from: Fixture.machine.fileSystem))
        #expect(pressure.some == .init(avg10: 1.23, avg60: 0.45, avg300: 0.06, totalMicroseconds: 987_654))
        #expect(pressure.full == .init(avg10: 0.50, avg60: 0.10, avg300: 0.01, totalMicroseconds: 123_456))
    }

    @Test func pressureStallInformationIsOptional() throws {
        #expect(try MemoryPressureStall.read(from: Fixture.hybrid.fileSystem) == nil)
    }

    @Test func readsCgroupV2() throws {
        let cgroup = try #require(try CgroupMemory.read(from: Fixture.machine.fileSystem))
        #expect(
            cgroup
                == CgroupMemory(
                    version: .v2, path: "/user.slice/user-1000.slice/session-2.scope", current: Bytes(734_003_200),
                    limit: .gibibytes(2)))
    }

    @Test func readsCgroupV1OnAHybridMachine() throws {
        let cgroup = try #require(try CgroupMemory.read(from: Fixture.hybrid.fileSystem))
        #expect(
            cgroup
                == CgroupMemory(
                    version: .v1, path: "/system.slice/app.service", current: Bytes(894_500_864), limit: nil))
    }

    @Test func cgroupIsOptional() throws {
        #expect(try CgroupMemory.read(from: ProcFileSystem(procRoot: Fixture.machine.root + "/proc")) == nil)
        #expect(try CgroupMemory.read(for: ProcessID(rawValue: 1200), from: Fixture.machine.fileSystem) == nil)
    }

    @Test func snapshotsAWholeMachine() throws {
        let snapshot = try LinuxSystemSnapshot.read(from: Fixture.machine.fileSystem)
        #expect(snapshot.memory.total == .kibibytes(16_384_000))
        #expect(snapshot.pressure != nil && snapshot.cgroup?.version == .v2)
        #expect(snapshot.processes.processes.count == 5)
        #expect(snapshot.pageSize == 4096)
        #expect(snapshot.totalPages == (16_384_000 + 2_097_152) / 4)
        let hybrid = try LinuxSystemSnapshot.read(from: Fixture.hybrid.fileSystem)
        #expect(hybrid.pressure == nil && hybrid.cgroup?.version == .v1 && hybrid.processes.processes.isEmpty)
    }

    @Test func garbledMeminfoNamesFileAndLine() throws {
        let fileSystem = Fixture.broken.fileSystem
        let path = fileSystem.procPath("meminfo")
        #expect(
            throws: LinuxReadError.malformedLine(
                path: path, line: 3, text: "MemAvailable:   lots kB", expected: "\"MemAvailable: <integer> kB\"")
        ) {
            try LinuxMemoryInfo.read(from: fileSystem)
        }
        #expect(throws: LinuxReadError.self) { try LinuxSystemSnapshot.read(from: fileSystem) }
    }

    @Test func garbledPressureNamesFileAndLine() throws {
        let fileSystem = Fixture.broken.fileSystem
        do {
            _ = try MemoryPressureStall.read(from: fileSystem)
            Issue.record("expected an error")
        } catch {
            guard case .malformedLine(let path, let line, _, let expected) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == fileSystem.procPath("pressure/memory") && line == 2 && expected.contains("avg10="))
        }
    }

    @Test func garbledCgroupFilesNameFileAndLine() throws {
        let broken = Fixture.broken.fileSystem
        #expect(
            throws: LinuxReadError.malformedLine(
                path: broken.procPath("self/cgroup"), line: 2, text: "this is not a cgroup line",
                expected: "\"<hierarchy-id>:<controllers>:/<path>\" such as \"0::/user.slice\"")
        ) {
            try CgroupMemory.read(from: broken)
        }
        let value = Fixture.brokenCgroupValue.fileSystem
        #expect(
            throws: LinuxReadError.malformedLine(
                path: value.cgroupRoot! + "/app.slice/memory.current", line: 1, text: "12ab",
                expected: "a number of bytes")
        ) {
            try CgroupMemory.read(from: value)
        }
    }

    @Test func missingMeminfoIsATypedError() {
        let fileSystem = ProcFileSystem(procRoot: "/nonexistent/proc")
        #expect(throws: LinuxReadError.missingFile(path: "/nonexistent/proc/meminfo")) {
            try LinuxMemoryInfo.read(from: fileSystem)
        }
    }
}
