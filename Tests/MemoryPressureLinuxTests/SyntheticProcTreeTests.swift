import Foundation
import MemoryPressure
import MemoryPressureLinux
import Testing

/// Synthetic `/proc` trees for benchmarks.
@Suite struct SyntheticProcTreeTests {
    /// A fresh temporary directory, on tmpfs when there is one (creating files on disk is slow),
    /// removed by the caller.
    func temporaryDirectory() throws -> String {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = base + "/proc-tree-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every file of a tree with its contents, by relative path.
    func contents(of root: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                result[relative] = FileManager.default.contents(atPath: root + "/" + relative)
            }
        }
        return result
    }

    @Test func tenThousandEntriesReadBack() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fileSystem = try SyntheticProcTree.write(to: root, count: 10_000, seed: 42)
        #expect(fileSystem.processIDs().count == 10_000)
        let snapshot = try LinuxSystemSnapshot.read(from: fileSystem)
        let table = snapshot.processes
        #expect(table.processes.count + table.skipped.count == 10_000)
        #expect(table.skipped.allSatisfy { $0.reason == .kernelThread })
        #expect(table.skipped.count > 100 && table.skipped.count < 300, "about 2 % kernel threads")
        #expect(table.processes.contains { $0.oomScoreAdj == -1000 } && table.processes.contains { $0.oomScoreAdj > 0 })
        #expect(table.processes.contains { $0.swap > .zero })
        let residentTotal = table.processes.reduce(Bytes.zero) { $0 + $1.resident }
        #expect(
            snapshot.cgroup == CgroupMemory(version: .v2, path: "/synthetic.slice", current: residentTotal, limit: nil))
        #expect(snapshot.memory.total > residentTotal)
        #expect(snapshot.pressure?.full != nil)
        for process in table.processes {
            let points = LinuxOOMBadness.points(of: process, totalPages: snapshot.totalPages, pageSize: 4096)
            #expect(process.kernelOOMScore == LinuxOOMBadness.oomScore(points: points, totalPages: snapshot.totalPages))
        }
    }

    @Test func theSeedAloneDecidesTheTree() throws {
        let first = try temporaryDirectory()
        let second = try temporaryDirectory()
        let third = try temporaryDirectory()
        defer { for root in [first, second, third] { try? FileManager.default.removeItem(atPath: root) } }
        try SyntheticProcTree.write(to: first, count: 300, seed: 7)
        try SyntheticProcTree.write(to: second, count: 300, seed: 7)
        try SyntheticProcTree.write(to: third, count: 300, seed: 8)
        let one = try contents(of: first)
        #expect(one.count > 800)
        #expect(one == (try contents(of: second)))
        #expect(one != (try contents(of: third)))
    }

    @Test func anEmptyTreeHasMachineFilesOnly() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let snapshot = try LinuxSystemSnapshot.read(from: SyntheticProcTree.write(to: root, count: 0, seed: 1))
        #expect(snapshot.processes.processes.isEmpty && snapshot.memory.total == .gibibytes(1))
    }

    @Test func anUnwritableLocationIsATypedError() {
        #expect(throws: SyntheticProcTreeError.self) {
            try SyntheticProcTree.write(to: "/proc/no-such-directory/tree", count: 1, seed: 1)
        }
        let error = SyntheticProcTreeError.cannotWrite(path: "/x/meminfo", errno: 13)
        #expect(error.description == "/x/meminfo: could not write the file (errno 13); expected a writable location")
    }
}
