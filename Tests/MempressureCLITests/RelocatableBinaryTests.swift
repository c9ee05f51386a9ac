import Foundation
import MemoryPressureFormats
import Testing
import TestSupport

/// A `mempressure` binary copied away from its build folder (as `make install PREFIX=…` does)
/// still has every shipped policy: they are compiled in, not read from a resource bundle.
@Suite("A copied binary")
struct RelocatableBinaryTests {
    @Test("runs policy list, policy show and compare from an empty folder")
    func copiedBinaryRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mempressure-install-\(UUID())")
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = bin.appendingPathComponent("mempressure")
        try FileManager.default.copyItem(at: PackagePaths.executable, to: copy)
        for arguments in [
            ["policy", "list"], ["policy", "show", "relaunch-aware"],
            ["compare", "--seeds", "2", "--policies", "ios4,jetsam"],
        ] {
            let process = Process()
            process.executableURL = copy
            process.arguments = arguments
            process.currentDirectoryURL = folder
            let output = Pipe()
            process.standardOutput = output
            process.standardError = Pipe()
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(arguments)")
            #expect(!data.isEmpty, "\(arguments)")
        }
    }
}
