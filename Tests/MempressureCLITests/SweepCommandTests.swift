import Foundation
import Testing
import TestSupport

/// Whether `command` runs and exits 0 (used to skip tests whose tool is absent).
private func succeeds(_ command: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command + " >/dev/null 2>&1"]
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}

/// What a shell command printed and its exit status.
private struct ShellResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Collects a pipe's bytes on its own thread.
private final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    init(_ pipe: Pipe) {
        Thread { [self] in
            let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
            lock.withLock { data = bytes }
        }.start()
    }
    var value: Data {
        while lock.withLock({ data == nil }) { usleep(1000) }
        return lock.withLock { data! }
    }
}

/// Runs `command` with /bin/sh in the repository root.
private func shell(_ command: String) throws -> ShellResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = PackagePaths.root
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let errorReader = PipeReader(error)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errorData = errorReader.value
    return ShellResult(
        status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData, as: UTF8.self))
}

private let hasKubernetesValidate = succeeds("python3 -m kubernetes_validate --version")
private let hasContainerEngine = succeeds("docker info") || succeeds("podman info")

@Suite("mempressure sweep and merge")
struct SweepCommandTests {
    /// A small sweep: 3 policies × 2 memory sizes × 2 warning thresholds × 4 seeds of 2 hours.
    static let arguments = [
        "sweep", "--policies", "ios4,lru,oracle", "--param", "memory=256MiB,512MiB",
        "--param", "policy.thresholds.warning.enter=12%,18%", "--seeds", "4", "--hours", "2",
    ]

    static func directory(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mempressure-sweep-\(getpid())-\(name)"
        ).path
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes the `count` parts of the small sweep into `directory` and returns their paths.
    static func parts(_ count: Int, in directory: String, arguments: [String] = arguments) throws -> [String] {
        try (1...count).map { index in
            let path = "\(directory)/part-\(index)-of-\(count)"
            let result = try runMempressure(arguments + ["--shard", "\(index)/\(count)", "--output", path])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            return path
        }
    }

    @Test("merging the parts of 1, 2, 3 and 7 shards prints the unsharded run's JSON byte for byte")
    func mergeIsByteIdentical() throws {
        let whole = try runMempressure(Self.arguments + ["--format", "json"])
        #expect(whole.status == 0, "\(whole.standardError)")
        #expect(whole.standardOutput.hasPrefix("{\"workload\":\"phone\",\"fingerprint\":"))
        #expect(!whole.standardOutput.contains("eventsPerSecond"))
        #expect(!whole.standardOutput.contains("nanosecondsPerDecision"))
        let object = try JSONSerialization.jsonObject(with: Data(whole.standardOutput.utf8)) as! [String: Any]
        #expect((object["cells"] as! [Any]).count == 4)
        let directory = try Self.directory("identical")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for count in [1, 2, 3, 7] {
            let parts = try Self.parts(count, in: directory)
            let merged = try runMempressure(["merge"] + parts.reversed() + ["--format", "json"])
            #expect(merged.status == 0, "\(merged.standardError)")
            #expect(merged.standardOutput == whole.standardOutput, "\(count) shards")
        }
        // Table and CSV merge the same way.
        let parts = try Self.parts(2, in: directory)
        for format in ["table", "csv"] {
            let direct = try runMempressure(Self.arguments + ["--format", format])
            let merged = try runMempressure(["merge"] + parts + ["--format", format])
            #expect(direct.status == 0 && merged.status == 0)
            #expect(merged.standardOutput == direct.standardOutput, "\(format)")
        }
    }

    @Test("with an oracle among the policies, the table shows each cell's share of the gap, and the JSON its interval")
    func gapClosed() throws {
        let arguments = [
            "sweep", "--param", "memory=512MiB,1GiB", "--seeds", "20", "--policies",
            "jetsam,predictive,oracle@predictive", "--baseline", "jetsam",
        ]
        let table = try runMempressure(arguments)
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.standardOutput.contains("GAP CLOSED (%)"))
        #expect(table.standardOutput.contains("gap from its baseline to oracle@predictive"))
        let rows = table.standardOutput.split(separator: "\n").filter { $0.hasPrefix("512MiB") }
        #expect(rows.count == 3 && rows[0].hasSuffix(" 0") && rows[2].hasSuffix(" 100"), "\(rows)")
        #expect(rows[1].contains(/predictive .* -?[0-9.]+ \[-?[0-9.]+, -?[0-9.]+\]$/), "\(rows[1])")
        let json = try runMempressure(arguments + ["--format", "json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let cells = try #require(document["cells"] as? [[String: Any]])
        let policies = try #require(cells[0]["policies"] as? [[String: Any]])
        let share = try #require(policies[1]["gapToOracleClosed"] as? Double)
        let interval = try #require(policies[1]["gapToOracleClosedInterval"] as? [Double])
        #expect(interval.count == 2 && interval[0] <= share && share <= interval[1], "\(interval) around \(share)")
        #expect(policies[0]["gapToOracleClosedInterval"] == nil && policies[2]["gapToOracleClosedInterval"] == nil)
        let csv = try runMempressure(arguments + ["--format", "csv"])
        #expect(
            csv.standardOutput.contains("\n512MiB,predictive,launchWait,gapToOracleClosedLow,,"),
            "\(csv.standardOutput.prefix(300))")
        // Without an oracle there is no such column.
        let plain = try runMempressure([
            "sweep", "--param", "memory=512MiB", "--seeds", "5", "--policies", "jetsam,lru",
        ])
        #expect(plain.status == 0 && !plain.standardOutput.contains("GAP CLOSED"))
    }

    @Test("a part goes to standard output without --output, so sweep and merge compose in a shell")
    func partsComposeInAShell() throws {
        let directory = try Self.directory("shell")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let binary = PackagePaths.executable.path
        let sweep = "'\(binary)' sweep --policies ios4,lru --param memory=256MiB,1GiB --seeds 3 --hours 1"
        let result = try shell(
            "\(sweep) --shard 1/2 > '\(directory)/p1' && \(sweep) --shard 2/2 > '\(directory)/p2' && "
                + "'\(binary)' merge '\(directory)/p2' '\(directory)/p1' --format json > '\(directory)/merged' && "
                + "\(sweep) --format json > '\(directory)/whole' && cmp '\(directory)/merged' '\(directory)/whole'")
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("bad part sets are refused with clear errors (exit 65)")
    func badPartSets() throws {
        let directory = try Self.directory("bad")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let three = try Self.parts(3, in: directory)
        let otherDirectory = try Self.directory("bad-other")
        defer { try? FileManager.default.removeItem(atPath: otherDirectory) }
        let other = try Self.parts(3, in: otherDirectory, arguments: Self.arguments.map { $0 == "4" ? "5" : $0 })
        func expectRefused(_ parts: [String], _ fragments: String...) throws {
            let result = try runMempressure(["merge"] + parts + ["--format", "json"])
            #expect(result.status == 65, "\(parts)")
            #expect(result.standardOutput.isEmpty)
            for fragment in fragments {
                #expect(result.standardError.contains(fragment), "\(result.standardError)")
            }
        }
        try expectRefused([three[0], three[1], other[2]], "is a part of another sweep", "fingerprint")
        try expectRefused([three[0], three[1], three[1], three[2]], "shard 2/3 is given twice")
        try expectRefused([three[0], three[2]], "missing shard 2/3")
        let notAPart = directory + "/notes.txt"
        try "hello\n".write(toFile: notAPart, atomically: true, encoding: .utf8)
        try expectRefused([notAPart], "notes.txt:1: expected a sweep part")
        let text = try String(contentsOfFile: three[1], encoding: .utf8)
        let cut = directory + "/cut"
        try String(text.dropLast(40)).write(toFile: cut, atomically: true, encoding: .utf8)
        try expectRefused([three[0], cut, three[2]], "cut:")
        let missing = try runMempressure(["merge", directory + "/nope"])
        #expect(missing.status == 66)
        let none = try runMempressure(["merge"])
        #expect(none.status == 64)
    }

    @Test("bad sweeps are refused before any run, naming what was expected")
    func badSweeps() throws {
        let unknown = try runMempressure(["sweep", "--param", "memroy=1GiB", "--seeds", "1"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("unknown parameter \"memroy\"; expected one of memory"))
        let shard = try runMempressure(["sweep", "--param", "memory=1GiB", "--shard", "4/3"])
        #expect(shard.status == 64)
        #expect(shard.standardError.contains("expected i/n with 1 ≤ i ≤ n"))
        let impossible = try runMempressure(["sweep", "--param", "memory=128MiB", "--seeds", "1", "--hours", "1"])
        #expect(impossible.status == 64)
        #expect(impossible.standardError.contains("expected reserved (187.0 MiB) below memory (128.0 MiB)"))
        let directory = try Self.directory("file")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/sweep.yaml"
        try "parameters:\n  memory: [256MiB, lots]\n".write(toFile: file, atomically: true, encoding: .utf8)
        let malformed = try runMempressure(["sweep", "--sweep", file])
        #expect(malformed.status == 65)
        #expect(
            malformed.standardError.contains("sweep.yaml:2:11: parameters.memory: parameter memory: expected a size"))
        let metric = try runMempressure([
            "sweep", "--param", "memory=1GiB", "--svg", directory + "/chart.svg", "--metric", "eventsPerSecond",
        ])
        #expect(metric.status == 64)
        #expect(metric.standardError.contains("--metric eventsPerSecond: expected one of"), "\(metric.standardError)")
        let format = try runMempressure(["sweep", "--param", "memory=1GiB", "--shard", "1/2", "--format", "json"])
        #expect(format.status == 64)
        #expect(format.standardError.contains("give --format to merge"))
    }

    @Test("a sweep file gives the grid, policies and seeds; --svg draws the metric against the parameter")
    func sweepFileAndChart() throws {
        let directory = try Self.directory("chart")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/sweep.yaml"
        try "policies: [ios4, lru]\nseeds: 3\nparameters:\n  memory: [256MiB, 384MiB, 1GiB]\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let svg = directory + "/chart.svg"
        let result = try runMempressure(["sweep", "--sweep", file, "--hours", "1", "--svg", svg])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("3 cells × 2 policies × 3 samples"))
        let chart = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(chart.hasPrefix("<svg"))
        #expect(chart.contains("launch wait (s) against memory"))
        #expect(chart.components(separatedBy: "<polygon").count == 3)
        #expect(chart.contains(">384MiB</text>"))
    }

    @Test("usage logs with --hours: each sample's first hours, as compare replays them")
    func usageLogHours() throws {
        func coldLaunches(_ extra: [String]) throws -> Double {
            let result = try runMempressure(
                [
                    "sweep", "--usage-log", "Examples/usage/lsapp-layout.tsv", "--sample", "user", "--policies", "ios4",
                    "--param", "memory=512MiB", "--format", "json",
                ] + extra)
            #expect(result.status == 0, "\(result.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let cell = try #require((object["cells"] as? [[String: Any]])?.first)
            let metrics = try #require((cell["policies"] as? [[String: Any]])?.first?["metrics"] as? [String: Any])
            return try #require((metrics["coldLaunches"] as? [String: Any])?["mean"] as? Double)
        }
        // The two users launch 5 and 3 apps in all, 4 and 3 in their first 24 hours (CompareOptionsTests).
        #expect(try coldLaunches([]) == 4)
        #expect(try coldLaunches(["--hours", "24"]) == 3.5)
    }

    @Test("usage logs: several files and directories, one sample per user of each file, sharded by user")
    func usageLogs() throws {
        let directory = try Self.directory("logs")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sample = try String(contentsOfFile: PackagePaths.path("Examples/usage/sample.csv"), encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory + "/day2", withIntermediateDirectories: true)
        try sample.write(toFile: directory + "/day1.csv", atomically: true, encoding: .utf8)
        try sample.write(toFile: directory + "/day2/a.csv", atomically: true, encoding: .utf8)
        try sample.write(toFile: directory + "/day2/b.csv", atomically: true, encoding: .utf8)
        let arguments = [
            "sweep", "--usage-log", directory + "/day1.csv", directory + "/day2", "--policies", "ios4,lru",
            "--param", "memory=256MiB,512MiB",
        ]
        let whole = try runMempressure(arguments + ["--format", "json"])
        #expect(whole.status == 0, "\(whole.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(whole.standardOutput.utf8)) as! [String: Any]
        let samples = object["samples"] as! [String]
        let users = Set(samples.map { $0.split(separator: ":").last! }).count
        #expect(samples.count == 3 * users)
        #expect(samples.first!.hasPrefix("day1.csv:"))
        #expect(samples.last!.hasPrefix("b.csv:"))
        for count in [2, 3] {
            let parts = try (1...count).map { index in
                let path = "\(directory)/part\(index)"
                let result = try runMempressure(arguments + ["--shard", "\(index)/\(count)", "--output", path])
                #expect(result.status == 0, "\(result.standardError)")
                return path
            }
            let merged = try runMempressure(["merge"] + parts + ["--format", "json"])
            #expect(merged.standardOutput == whole.standardOutput, "\(count) shards")
        }
        let generated = try runMempressure(arguments + ["--param", "hours=2"])
        #expect(generated.status == 64)
        #expect(
            generated.standardError.contains("with --usage-log only memory, reserved and policy.* parameters apply"))
    }

    @Test("scripts/sweep-local.sh runs the shards as local processes and merges them: the unsharded output")
    func localScript() throws {
        let arguments = "--policies ios4,lru --param memory=256MiB,512MiB --seeds 3 --hours 1"
        let whole = try runMempressure(
            ["sweep"] + arguments.split(separator: " ").map(String.init) + ["--format", "json"])
        let local = try shell(
            "MEMPRESSURE='\(PackagePaths.executable.path)' scripts/sweep-local.sh 3 \(arguments) -- --format json")
        #expect(local.status == 0, "\(local.standardError)")
        #expect(local.standardOutput == whole.standardOutput)
        let failing = try shell(
            "MEMPRESSURE='\(PackagePaths.executable.path)' scripts/sweep-local.sh 2 --param memroy=1GiB")
        #expect(failing.status == 64)
        #expect(failing.standardError.contains("a shard failed"))
    }

    @Test(
        "the Kubernetes manifest is valid (kubernetes-validate, offline, strict) and maps the index to --shard",
        .enabled(if: hasKubernetesValidate, "kubernetes-validate is not installed: scripts/install-deps.sh installs it")
    )
    func kubernetesManifest() throws {
        let path = "deploy/kubernetes/sweep-job.yaml"
        let result = try shell("python3 -m kubernetes_validate --strict --quiet \(path)")
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let text = try String(contentsOfFile: PackagePaths.path(path), encoding: .utf8)
        #expect(text.contains("completionMode: Indexed"))
        #expect(text.contains("--shard \"$((JOB_COMPLETION_INDEX + 1))/$SHARDS\""))
        #expect(text.contains("mempressure merge"))
        // The validator does reject a broken manifest.
        let scratch = try Self.directory("k8s")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let broken = scratch + "/broken.yaml"
        try text.replacingOccurrences(of: "completionMode: Indexed", with: "completionMode: [Indexed]")
            .write(toFile: broken, atomically: true, encoding: .utf8)
        #expect(try shell("python3 -m kubernetes_validate --strict --quiet '\(broken)'").status != 0)
    }

    @Test(
        "the Dockerfile builds and its image runs a sweep",
        .enabled(if: hasContainerEngine, "no container engine is running (docker/podman info failed): skipped"))
    func dockerImage() throws {
        let engine = succeeds("docker info") ? "docker" : "podman"
        let build = try shell("\(engine) build -q -t mempressure-test .")
        #expect(build.status == 0, "\(build.standardError)")
        let run = try shell(
            "\(engine) run --rm mempressure-test sweep --policies ios4,lru --param memory=256MiB,1GiB --seeds 2 --hours 1"
        )
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("2 cells × 2 policies × 2 samples"))
    }
}
