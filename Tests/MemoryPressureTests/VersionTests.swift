import Foundation
import MemoryPressure
import Testing
import TestSupport

/// The version lives in one place (`MemoryPressureVersion.current`); the changelog's newest release
/// says the same, so a release cannot ship with the two apart.
@Suite("Version")
struct VersionTests {
    @Test("is a semantic version")
    func semantic() {
        let parts = MemoryPressureVersion.current.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3, "\(MemoryPressureVersion.current)")
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        #expect(parts.allSatisfy { $0 == "0" || !$0.hasPrefix("0") }, "no leading zeros")
    }

    @Test("is CHANGELOG.md's newest release, which has a date")
    func changelogAgrees() throws {
        let text = try String(contentsOfFile: PackagePaths.path("CHANGELOG.md"), encoding: .utf8)
        let releases = text.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let newest = try #require(releases.first, "CHANGELOG.md has no release heading")
        #expect(newest.hasPrefix("## [\(MemoryPressureVersion.current)] - "), "\(newest)")
        let date = newest.split(separator: " ").last.map(String.init) ?? ""
        #expect(date.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, "\(newest): no yyyy-mm-dd date")
    }
}
