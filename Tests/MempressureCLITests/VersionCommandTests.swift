import MemoryPressure
import Testing
import TestSupport

/// `mempressure --version` names the version (`MemoryPressureVersion.current`) and the commit the
/// binary was built from: 12 hex digits (`-dirty` for a tree with changes) when scripts/dist.sh
/// stamped it (`make dist`, `make install`), "unknown" for a plain `swift build`.
@Suite("--version")
struct VersionCommandTests {
    @Test("prints the version and the commit, or unknown")
    func format() throws {
        let result = try runMempressure(["--version"])
        #expect(result.status == 0, "\(result.standardError)")
        let line = result.standardOutput
        let prefix = "mempressure \(MemoryPressureVersion.current) (commit "
        #expect(line.hasPrefix(prefix), "\(line)")
        let commit = line.dropFirst(prefix.count)
        #expect(commit.wholeMatch(of: /([0-9a-f]{12}(-dirty)?|unknown)\)\n/) != nil, "\(line)")
    }
}
