import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureJemalloc
import TestSupport
import Testing

extension JemallocTests {
    /// The server example of docs/library.md ("Tenants on real memory"), verbatim between the
    /// markers, so that it keeps compiling and keeps doing what the README says.
    @Suite struct ServerExampleTests {
        @Test func theReadmeServerExampleWarnsRunningTenantsAndEvictsTheHeaviestIdleOne() throws {
            // README begin
            // A process with a 256 MiB budget (32 MiB held back) hosting tenants, each in its own arena.
            let host = try RealMemoryHost(
                device: Device(memory: .mebibytes(256), reserved: .mebibytes(32)), policy: .ios4,
                configuration: RealMemoryConfiguration(scale: 1))  // allocate every byte for real
            var log: [String] = []
            let tenants = [
                AppLaunch(id: "stream", footprint: .mebibytes(40), backgroundModes: [.voip], purgeable: .mebibytes(8)),
                AppLaunch(id: "alpha", footprint: .mebibytes(50), purgeable: .mebibytes(8)),
                AppLaunch(id: "beta", footprint: .mebibytes(30), purgeable: .mebibytes(8)),
                AppLaunch(id: "gamma", footprint: .mebibytes(40), purgeable: .mebibytes(8)),
            ]
            for (second, tenant) in tenants.enumerated() {
                // Serving a tenant brings it to the front; the one before goes idle (suspended),
                // unless it keeps running in the background (stream holds a VoIP-style connection).
                try host.apply(.open(tenant), at: Double(second))
                try host.engine.addMemoryWarningObserver(for: tenant.id) { level in
                    log.append("\(tenant.id): warning \(level), dropping caches")
                    return .comply  // the host frees the tenant's purgeable caches in its arena
                }
            }
            try host.apply(.allocate(app: "gamma", bytes: .mebibytes(40), purgeable: false), at: 10)
            try host.apply(.allocate(app: "gamma", bytes: .mebibytes(25), purgeable: false), at: 11)
            for release in host.report.releases {
                log.append(
                    "\(release.app) \(release.cause): expected \(release.expected), measured \(release.measured)")
            }
            // README end
            let lines = log.map {
                $0.replacingOccurrences(of: #"measured [0-9.]+ MiB"#, with: "measured …", options: .regularExpression)
            }
            #expect(
                lines == [
                    "gamma: warning 1, dropping caches",
                    "stream: warning 1, dropping caches",
                    "gamma: warning 2, dropping caches",
                    "stream: warning 2, dropping caches",
                    "gamma purgeableCaches: expected 8.0 MiB, measured …",
                    "stream purgeableCaches: expected 8.0 MiB, measured …",
                    "alpha kill: expected 50.0 MiB, measured …",
                ], "\(log)")
            #expect(host.engine.status(of: "alpha")?.state == .notRunning)
            #expect(try host.memory(of: "alpha")?.statistics().activePages == 0)
            #expect(host.report.all.isWithin(0.05))
            #expect(host.report.largestRelativeDifference < 0.01)
        }

        @Test func theReadmeShowsThisCode() throws {
            let source = try String(contentsOfFile: #filePath, encoding: .utf8)
            let begin = try #require(source.range(of: "// README begin\n"))
            let end = try #require(source.range(of: "// README end", range: begin.upperBound..<source.endIndex))
            let lines = source[begin.upperBound..<end.lowerBound]
                .split(separator: "\n", omittingEmptySubsequences: false)
            let code = lines.map { $0.hasPrefix("            ") ? $0.dropFirst(12) : $0.drop { $0 == " " } }
                .joined(separator: "\n")
            let page = try String(contentsOfFile: PackagePaths.path("docs/library.md"), encoding: .utf8)
            let shown = page.contains("import MemoryPressureJemalloc\n\n" + code + "// log:\n")
            #expect(shown, "docs/library.md (Tenants on real memory) no longer shows this test's code")
        }
    }
}
