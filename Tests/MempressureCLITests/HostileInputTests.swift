import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

// Hostile input and safe output, as a user (or an attacker) runs the tool: every case asserts the
// exit code, that standard error holds one clear message (no trap, no stack trace, under 1 KB,
// no raw control character) and that no file was harmed.

/// What a run printed, and whether it had to be killed.
private struct Run {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var timedOut: Bool
}

/// Runs `mempressure` with a deadline; a run past it is killed and reported as timed out.
private func run(
    _ arguments: [String], input: String = "", environment extra: [String: String] = [:], timeout: Double = 60,
    directory: URL? = nil, shell: Bool = false
) throws -> Run {
    let process = Process()
    process.executableURL = shell ? URL(fileURLWithPath: "/bin/sh") : PackagePaths.executable
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? PackagePaths.root
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = stdin
    try process.run()
    let box = PipeBox()
    let outReader = Thread { box.setOutput(output.fileHandleForReading.readDataToEndOfFile()) }
    let errReader = Thread { box.setError(error.fileHandleForReading.readDataToEndOfFile()) }
    outReader.start()
    errReader.start()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try? stdin.fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(timeout)
    var timedOut = false
    while process.isRunning {
        if Date() > deadline {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            break
        }
        usleep(10_000)
    }
    process.waitUntilExit()
    while !box.isDone { usleep(1000) }
    return Run(
        status: process.terminationStatus, standardOutput: String(decoding: box.output, as: UTF8.self),
        standardError: String(decoding: box.error, as: UTF8.self), timedOut: timedOut)
}

private final class PipeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var outputData: Data?
    private var errorData: Data?
    func setOutput(_ data: Data) { lock.withLock { outputData = data } }
    func setError(_ data: Data) { lock.withLock { errorData = data } }
    var isDone: Bool { lock.withLock { outputData != nil && errorData != nil } }
    var output: Data { lock.withLock { outputData ?? Data() } }
    var error: Data { lock.withLock { errorData ?? Data() } }
}

/// Checks that `result` failed with `status` and one clear message containing `words`.
private func expectRefused(
    _ result: Run, _ status: Int32, _ words: String..., sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(!result.timedOut, "timed out", sourceLocation: sourceLocation)
    #expect(result.status == status, "exit \(result.status): \(result.standardError)", sourceLocation: sourceLocation)
    expectClearMessage(result.standardError, sourceLocation: sourceLocation)
    for word in words {
        #expect(
            result.standardError.contains(word), "\(word) not in: \(result.standardError)",
            sourceLocation: sourceLocation)
    }
}

/// One message, under 1 KB, no trap or stack trace, no raw control character.
private func expectClearMessage(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!text.isEmpty, "nothing on stderr", sourceLocation: sourceLocation)
    #expect(text.utf8.count < 1024, "stderr is \(text.utf8.count) bytes", sourceLocation: sourceLocation)
    for trap in ["Fatal error", "Stack dump", "Crash", "#0 ", "Illegal instruction", "Segmentation"] {
        #expect(!text.contains(trap), "stderr shows a trap: \(text)", sourceLocation: sourceLocation)
    }
    let errorLines = text.split(separator: "\n").filter {
        $0.hasPrefix("mempressure: error:") || $0.hasPrefix("Error:")
    }
    #expect(errorLines.count == 1, "expected one error line: \(text)", sourceLocation: sourceLocation)
    let raw = text.unicodeScalars.first { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }
    #expect(raw == nil, "raw control character in: \(text.debugDescription)", sourceLocation: sourceLocation)
}

/// A fresh directory for one test's files.
private func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "mempressure-hostile-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func write(_ text: String, _ name: String, in directory: URL) throws -> String {
    let path = directory.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
}

private let device = "device: { memory: 1GiB, reserved: 200MiB }\n"

private func snapshot(_ apps: [String]) -> String {
    device + "apps:\n" + apps.map { "  - " + $0 + "\n" }.joined()
}

private let launch = "{\"t\":0,\"event\":\"launch\",\"app\":\"A\",\"footprint\":\"40MiB\"}\n"

@Suite("Hostile input: every case a clear error, a bounded cost or correct behaviour")
struct HostileInputTests {
    // MARK: Sizes and arithmetic

    @Test(
        "sizes past 2^50 bytes in a snapshot are refused with the limit",
        arguments: ["9223372036854775807", "9223372036854775808", "1e30GiB", "99999999999TiB", "1e400", "2048TiB"])
    func hugeSnapshotSize(size: String) throws {
        let result = try run(
            ["kill-order", "-"], input: snapshot(["{ id: a, state: suspended, footprint: \(size) }"]))
        expectRefused(result, 65, "<stdin>:3:")
    }

    @Test("footprints whose sum passes the engine's 2^62 limit are refused, naming the app")
    func hugeSum() throws {
        var text = "device: { memory: 1024TiB }\napps:\n"
        for index in 0..<4100 { text += "  - { id: a\(index), state: suspended, footprint: 1024TiB }\n" }
        let result = try run(["kill-order", "-"], input: text)
        expectRefused(result, 65, "apps[4096]", "2^62")
    }

    @Test(
        "huge or non-finite numbers in a trace are refused with the line",
        arguments: [
            "{\"t\":0,\"event\":\"allocate\",\"app\":\"A\",\"bytes\":1e300}",
            "{\"t\":0,\"event\":\"allocate\",\"app\":\"A\",\"bytes\":\"1e30GiB\"}",
            "{\"t\":0,\"event\":\"allocate\",\"app\":\"A\",\"bytes\":9223372036854775807}",
            "{\"t\":1e308,\"event\":\"tick\"}",
            "{\"t\":1e999,\"event\":\"tick\"}",
            "{\"t\":-1,\"event\":\"tick\"}",
            "{\"t\":0,\"event\":\"beginBackgroundTask\",\"app\":\"A\",\"seconds\":1e300}",
            "{\"t\":0,\"event\":\"launch\",\"app\":\"B\",\"footprint\":\"1024TiB\",\"views\":["
                + Array(repeating: "{\"name\":\"v\",\"bytes\":\"1024TiB\"}", count: 1).joined(separator: ",") + ","
                + (0..<20).map { "{\"name\":\"v\($0)\",\"bytes\":\"1024TiB\"}" }.joined(separator: ",") + "]}",
        ])
    func hugeTraceNumbers(line: String) throws {
        let result = try run(["replay", "-"], input: launch + line + "\n")
        expectRefused(result, 65, "<stdin>:2")
    }

    @Test("allocations that would pass 2^50 bytes for one app are refused with the line")
    func allocationsPastTheLimit() throws {
        let lines =
            launch
            + (1...3).map { "{\"t\":\($0),\"event\":\"allocate\",\"app\":\"A\",\"bytes\":\"512TiB\"}\n" }
            .joined()
        let result = try run(["replay", "-", "--policy", "ios4"], input: lines)
        expectRefused(result, 65, "2^50")
    }

    // MARK: Bounded cost

    @Test("a YAML alias bomb is refused at once in a snapshot, a policy and a workload")
    func aliasBomb() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<15 {
            bomb +=
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
                + "]\n"
        }
        let path = try write(bomb, "bomb.yaml", in: directory)
        expectRefused(try run(["kill-order", path], timeout: 20), 65, "aliases expand")
        expectRefused(
            try run(["kill-order", "-", "--policy", path], input: snapshot([]), timeout: 20), 65, "aliases expand")
        expectRefused(try run(["policy", "validate", path], timeout: 20), 65, "aliases expand")
        expectRefused(try run(["simulate", "--workload", path], timeout: 20), 65, "aliases expand")
    }

    @Test("a catastrophic regular expression in a policy runs in linear time")
    func catastrophicPattern() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try String(contentsOfFile: PackagePaths.path("policies/earlyoom.yaml"), encoding: .utf8)
        let policy = try write(
            source.replacingOccurrences(of: "name: earlyoom", with: "name: evil").replacingOccurrences(
                of: "preferences: []", with: "preferences:\n  - { pattern: \"^(a+)+$\", score: 300 }"),
            "evil.yaml", in: directory)
        let id = String(repeating: "a", count: 1000) + "!"
        let apps = (0..<50).map { "{ id: \"\(id)\($0)\", state: suspended, footprint: 10MiB }" }
        let result = try run(["kill-order", "-", "--policy", policy], input: snapshot(apps), timeout: 30)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test(
        "unsupported patterns are refused when the policy loads",
        arguments: ["(a)\\\\1", "(?=x)", "a{1000}", "((a{100}){100}){100}"])
    func unsupportedPattern(pattern: String) throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try String(contentsOfFile: PackagePaths.path("policies/earlyoom.yaml"), encoding: .utf8)
        let policy = try write(
            source.replacingOccurrences(
                of: "preferences: []", with: "preferences:\n  - { pattern: \"\(pattern)\", score: 300 }"),
            "p.yaml", in: directory)
        expectRefused(try run(["policy", "validate", policy]), 65, "invalid regular expression")
    }

    @Test("a trace with endless distinct views or notification names is refused at the limit, not run quadratically")
    func viewsAndNotifications() throws {
        let views =
            launch
            + (0..<5000).map { "{\"t\":1,\"event\":\"showView\",\"app\":\"A\",\"view\":\"v\($0)\",\"bytes\":1}\n" }
            .joined()
        expectRefused(try run(["replay", "-"], input: views, timeout: 30), 65, "<stdin>:1002:", "1000 distinct views")
        let notes = launch + (0..<5000).map { "{\"t\":1,\"event\":\"notify\",\"name\":\"n\($0)\"}\n" }.joined()
        expectRefused(try run(["replay", "-"], input: notes, timeout: 30), 65, "<stdin>:1002:", "notification names")
    }

    @Test("/dev/zero as an input is refused at the size limit, not read forever")
    func endlessInput() throws {
        expectRefused(try run(["kill-order", "/dev/zero"], timeout: 60), 65, "256 MiB")
    }

    @Test("deep nesting is refused in JSON and YAML")
    func deepNesting() throws {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        expectRefused(try run(["kill-order", "-"], input: "{\"device\":" + json + "}"), 65, "nesting")
        expectRefused(try run(["kill-order", "-"], input: "device: " + json), 65, "nesting")
    }

    // MARK: Terminal injection

    @Test(
        "control characters in app ids are refused in snapshots and traces, and never echoed raw",
        arguments: ["\\u001b]0;owned\\u0007", "\\u001b[2J", "a\\rb", "a\\nb", "nul\\u0000", "\\u009b31m", "\\u202e"])
    func controlCharacters(id: String) throws {
        let json =
            "{\"device\":{\"memory\":\"1GiB\"},\"apps\":[{\"id\":\"\(id)\",\"state\":\"suspended\",\"footprint\":1}]}"
        expectRefused(try run(["kill-order", "-"], input: json), 65, "printable characters")
        let trace = "{\"t\":0,\"event\":\"launch\",\"app\":\"\(id)\",\"footprint\":\"1MiB\"}\n"
        expectRefused(try run(["replay", "-"], input: trace), 65, "printable characters")
    }

    @Test("control characters in a usage log's app names are refused")
    func controlCharactersInUsageLog() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try write(
            "user,session,timestamp,app,event\nu1,1,0,\"evil\u{1B}[2J\",Opened\n", "log.csv", in: directory)
        expectRefused(try run(["simulate", "--usage-log", log]), 65, "log.csv:2:", "printable characters")
    }

    @Test(
        "a live process named with control characters is printed escaped in every format", .tags(.machine),
        .machineDependent)
    func liveProcessName() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "evil\u{1B}[31m\u{07}"
        let link = directory.appendingPathComponent(name).path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/bin/sleep")
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: link)
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate() }
        usleep(200_000)
        for format in ["table", "csv", "json"] {
            let result = try run(["kill-order", "--live", "--policy", "linux-oom", "--format", format])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(!result.standardOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
            let escaped = format == "json" ? "evil\\u001b[31m\\u0007" : "evil\\u{1B}[31m\\u{7}"
            #expect(result.standardOutput.contains(escaped), "\(format): \(result.standardOutput.prefix(2000))")
        }
    }

    // MARK: Usage logs

    @Test(
        "usage-log timestamps that are not finite, out of range or invalid dates are refused",
        arguments: [
            "1e308", "-1e308", "1e999", "nan", "inf", "2016-02-30T08:00:00Z", "2015-02-29T08:00:00Z",
            "2016-13-01T08:00:00Z", "2016-05-03T24:00:00Z", "2016-05-03T08:60:00Z", "0000-01-01T00:00:00Z",
            "2016-05-03T08:00:00+99:00", "2016-05-03T08:00:00.Z",
        ])
    func invalidTimestamps(timestamp: String) throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try write(
            "user,session,timestamp,app,event\nu1,1,0,com.a,Opened\nu1,1,\(timestamp),com.a,Closed\n", "log.csv",
            in: directory)
        expectRefused(try run(["simulate", "--usage-log", log]), 65, "log.csv:3:", "timestamp")
    }

    @Test("a leap day is a valid date")
    func leapDay() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try write(
            "user,session,timestamp,app,event\nu1,1,2016-02-29T08:00:00Z,com.a,Opened\n"
                + "u1,1,2016-02-29T09:00:00+01:00,com.a,Closed\n", "log.csv", in: directory)
        let result = try run(["simulate", "--usage-log", log])
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("an RFC 4180 quoted field keeps its comma and quotes; CRLF and a BOM are accepted")
    func quotedCSV() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try write(
            "\u{FEFF}user,session,timestamp,app,event\r\nu1,1,0,\"Foo, Inc.\",Opened\r\nu1,1,60,\"Say \"\"hi\"\"\",Opened\r\n"
                + "u1,1,120,\"Say \"\"hi\"\"\",Closed\r\n", "log.csv", in: directory)
        let trace = directory.appendingPathComponent("trace.jsonl").path
        let result = try run(["simulate", "--usage-log", log, "--trace-out", trace])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(written.contains("\"app\":\"Foo, Inc.\""), "\(written)")
        #expect(written.contains("\"app\":\"Say \\\"hi\\\"\""), "\(written)")
        // The trace it wrote reads back.
        let replay = try run(["replay", trace])
        #expect(replay.status == 0, "\(replay.standardError)")
    }

    @Test("a usage-log error never prints the whole file")
    func usageLogErrorIsShort() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let wide = (0..<20_000).map { "column\($0)" }.joined(separator: ",")
        let one = try write(wide + "\r\n" + wide + "\r\n", "wide.csv", in: directory)
        expectRefused(try run(["simulate", "--usage-log", one]), 65, "expected a column named timestamp")
        let unterminated = try write(
            "user,session,timestamp,app,event\nu1,1,0,\"never closed,Opened\n" + String(repeating: "x", count: 50_000),
            "open.csv", in: directory)
        expectRefused(try run(["simulate", "--usage-log", unterminated]), 65, "open.csv:2:", "never ends")
    }

    // MARK: Input conventions and clear errors

    @Test("CRLF traces replay exactly as LF traces; a BOM is accepted")
    func crlfTrace() throws {
        let text = try String(
            contentsOfFile: PackagePaths.path("Examples/traces/13-pressure-episode.jsonl"), encoding: .utf8)
        let lf = try run(["replay", "-", "--format", "jsonl"], input: text)
        let crlf = try run(
            ["replay", "-", "--format", "jsonl"], input: "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(lf.status == 0)
        #expect(crlf.status == 0, "\(crlf.standardError)")
        #expect(crlf.standardOutput == lf.standardOutput)
    }

    @Test("a snapshot with a BOM and CRLF line ends loads")
    func crlfSnapshot() throws {
        let text = try String(contentsOfFile: PackagePaths.path("Examples/snapshots/phone.yaml"), encoding: .utf8)
        let result = try run(
            ["kill-order", "-"], input: "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("a duplicate YAML key points at its second occurrence")
    func duplicateKey() throws {
        let text = snapshot(["{ id: a, state: suspended, footprint: 1MiB, state: active }"])
        expectRefused(try run(["kill-order", "-"], input: text), 65, "<stdin>:3:49:", "appears twice")
        let top = device + "apps: []\napps: []\n"
        expectRefused(try run(["kill-order", "-"], input: top), 65, "<stdin>:3:1:", "appears twice")
    }

    @Test(
        "YAML syntax errors are in our words, with a line and column",
        arguments: ["device: { memory: 1GiB\n", "device: a: b\n", "apps:\n  - x\n - y\n", "device: \"open\n"])
    func yamlWording(text: String) throws {
        let result = try run(["kill-order", "-"], input: text)
        expectRefused(result, 65, "YAML syntax")
        for libyaml in ["while scanning", "while parsing", "could not find expected", "did not find expected"] {
            #expect(!result.standardError.contains(libyaml), "\(result.standardError)")
        }
    }

    @Test("two active apps: the error names the line of each")
    func twoActiveApps() throws {
        let text = snapshot([
            "{ id: a, state: active, footprint: 1MiB }", "{ id: b, state: suspended, footprint: 1MiB }",
            "{ id: c, state: inactive, footprint: 1MiB }",
        ])
        expectRefused(try run(["kill-order", "-"], input: text), 65, "<stdin>:5:", "apps[2]", "line 3")
    }

    @Test("invalid UTF-8, a directory and a missing file")
    func unreadable() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.yaml").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x64, 0x3A, 0x20, 0xFF, 0xFE, 0x0A])))
        expectRefused(try run(["kill-order", path]), 65, "UTF-8")
        expectRefused(try run(["kill-order", directory.path]), 66, "is a directory")
        expectRefused(try run(["kill-order", directory.appendingPathComponent("none").path]), 66, "no such file")
        expectRefused(try run(["replay", directory.appendingPathComponent("none").path]), 66, "no such file")
    }

    @Test("a huge unknown key is quoted briefly")
    func hugeKey() throws {
        let key = String(repeating: "k", count: 200_000)
        expectRefused(try run(["kill-order", "-"], input: device + "\(key): 1\n"), 65, "<stdin>:2:")
        expectRefused(
            try run(["kill-order", "-"], input: "{\"device\":{\"memory\":1},\"\(key)\":1}"), 65, "unknown key")
    }

    // MARK: Numeric flags

    @Test(
        "numeric flags refuse NaN, infinities and negative numbers with the flag's range",
        arguments: [
            (["watch", "--interval", "nan"], "--interval"), (["watch", "--interval", "inf"], "--interval"),
            (["watch", "--interval", "-1"], "--interval"), (["watch", "--interval", "0"], "--interval"),
            (["watch", "--top", "-5"], "--top"), (["watch", "--count", "0"], "--count"),
            (["kill-order", "Examples/snapshots/phone.yaml", "--limit", "-1"], "--limit"),
        ])
    func numericFlags(arguments: [String], flag: String) throws {
        let result = try run(arguments, timeout: 10)
        expectRefused(result, 64, flag)
        #expect(!result.standardError.contains("Missing value"))
    }

    @Test("every numeric flag of watch and kill-order states its range in --help")
    func helpRanges() throws {
        let watch = try run(["watch", "--help"]).standardOutput
        #expect(watch.contains("at most 3600"))
        #expect(watch.contains("1...10000"))
        #expect(watch.contains("1...1000000"))
        let killOrder = try run(["kill-order", "--help"]).standardOutput
        #expect(killOrder.contains("0 or more"))
    }

    // MARK: Output files

    @Test("/dev/null stays a character device, and /dev/full is a write error (exit 74)")
    func devices() throws {
        let result = try run(["simulate", "--hours", "1", "--trace-out", "/dev/null", "--events-out", "/dev/null"])
        #expect(result.status == 0, "\(result.standardError)")
        var info = stat()
        #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        expectRefused(try run(["simulate", "--hours", "1", "--trace-out", "/dev/full"]), 74, "/dev/full")
        let shell = try run(
            ["-c", "exec \"$0\" kill-order Examples/snapshots/phone.yaml > /dev/full", PackagePaths.executable.path],
            shell: true)
        expectRefused(shell, 74, "standard output")
    }

    @Test("a symlink is followed to its target, which keeps its mode; the link stays a link")
    func symlinkAndMode() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = try write("old", "target.jsonl", in: directory)
        chmod(target, 0o600)
        let link = directory.appendingPathComponent("link.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.jsonl")
        let result = try run(["simulate", "--hours", "1", "--trace-out", link])
        #expect(result.status == 0, "\(result.standardError)")
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("{\"t\":0,\"event\":\"device\""))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers.isEmpty)
    }

    @Test("a FIFO is written in place and stays a FIFO")
    func fifo() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(path, 0o600) == 0)
        let received = PipeBox()
        let reader = Thread {
            let handle = FileHandle(forReadingAtPath: path)
            received.setOutput(handle?.readDataToEndOfFile() ?? Data())
            received.setError(Data())
        }
        reader.start()
        let result = try run(["simulate", "--hours", "1", "--trace-out", path], timeout: 30)
        #expect(result.status == 0, "\(result.standardError)")
        while !received.isDone { usleep(1000) }
        #expect(String(decoding: received.output, as: UTF8.self).hasPrefix("{\"t\":0,\"event\":\"device\""))
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("/dev/stdout, /dev/stderr and /dev/fd/N are written to the process's own descriptors, not replaced")
    func ownDescriptors() throws {
        // Standard output is a pipe here: following /dev/stdout to it failed with exit 74.
        let piped = try run(["simulate", "--hours", "1", "--trace-out", "/dev/stdout"])
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(piped.standardOutput.hasPrefix("{\"t\":0,\"event\":\"device\""))
        #expect(piped.standardOutput.contains("workload phone"))
        let toStandardError = try run(["simulate", "--hours", "1", "--trace-out", "/dev/stderr"])
        #expect(toStandardError.status == 0 && toStandardError.standardError.contains("{\"t\":0,\"event\":\"device\""))
        // Standard output is a file the shell opened: replacing that file lost the table written to it.
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("both.txt").path
        let shell = try run(
            [
                "-c", "exec \"$0\" simulate --hours 1 --trace-out /dev/stdout > \"$1\"", PackagePaths.executable.path,
                file,
            ],
            shell: true)
        #expect(shell.status == 0, "\(shell.standardError)")
        let both = try String(contentsOfFile: file, encoding: .utf8)
        #expect(both.hasPrefix("{\"t\":0,\"event\":\"device\"") && both.contains("workload phone"), "\(both)")
        expectRefused(
            try run(["simulate", "--hours", "1", "--trace-out", "/dev/fd/9"]), 74,
            "names descriptor 9, which is not open")
    }

    @Test("standard input, or one sample file, named twice among a command's inputs is refused")
    func standardInputOnce() throws {
        let trace = try String(
            contentsOfFile: PackagePaths.path("Examples/traces/13-pressure-episode.jsonl"), encoding: .utf8)
        // compare used to count an empty second sample, halving the mean launch wait.
        expectRefused(
            try run(["compare", "--trace", "-", "-", "--policies", "ios4"], input: trace), 64,
            "standard input is given twice (- and -)")
        expectRefused(
            try run(["compare", "--trace", "-", "/dev/stdin", "--policies", "ios4"], input: trace), 64,
            "standard input is given twice (- and /dev/stdin)")
        expectRefused(try run(["merge", "-", "/dev/fd/0"]), 64, "it can be read only once")
        // The same file twice would count one day as two people's.
        let path = "Examples/traces/13-pressure-episode.jsonl"
        expectRefused(
            try run(["compare", "--trace", path, "./" + path, "--policies", "ios4"]), 64,
            "--trace names the same file twice")
        expectRefused(
            try run([
                "sweep", "--usage-log", "Examples/usage", "Examples/usage/sample.csv", "--param", "memory=1GiB",
                "--policies", "ios4",
            ]), 64, "--usage-log names the same file twice")
        let once = try run(["compare", "--trace", "-", "--policies", "ios4"], input: trace)
        #expect(once.status == 0 && once.standardOutput.contains("1 sample"), "\(once.standardError)")
    }

    @Test("a directory, a missing directory and an unwritable place are refused (exit 74) and left alone")
    func unwritable() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inside = try write("keep", "keep.txt", in: directory)
        expectRefused(try run(["simulate", "--hours", "1", "--trace-out", directory.path]), 74, "is a directory")
        #expect(try String(contentsOfFile: inside, encoding: .utf8) == "keep")
        expectRefused(
            try run(["simulate", "--hours", "1", "--trace-out", directory.path + "/none/x.jsonl"]), 74, "does not exist"
        )
        expectRefused(
            try run([
                "compare", "--seeds", "1", "--hours", "1", "--apps", "50", "--svg", directory.path + "/none/c.svg",
            ]),
            74, "does not exist")
    }

    @Test("SIGTERM while an output is being written removes the temporary file and leaves the target alone")
    func interrupted() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = try write("precious", "day.jsonl", in: directory)
        let process = Process()
        process.executableURL = PackagePaths.executable
        process.arguments = ["simulate", "--hours", "1", "--trace-out", target]
        process.currentDirectoryURL = PackagePaths.root
        var environment = ProcessInfo.processInfo.environment
        environment["MEMPRESSURE_TEST_RENAME_DELAY"] = "20"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        func temporaries() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
                $0.hasSuffix(".tmp")
            }
        }
        while temporaries().isEmpty && Date() < deadline && process.isRunning { usleep(10_000) }
        #expect(!temporaries().isEmpty, "the temporary file never appeared")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(temporaries().isEmpty, "left behind: \(temporaries())")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")
    }

    @Test("a policy named with markup gives an SVG that parses, its name escaped")
    func svgEscaping() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try String(contentsOfFile: PackagePaths.path("policies/ios4.yaml"), encoding: .utf8)
        let policy = try write(
            source.replacingOccurrences(of: "name: ios4", with: "name: \"a<b & c\\\" '\\x01\""), "evil.yaml",
            in: directory)
        let svg = directory.appendingPathComponent("chart.svg").path
        let result = try run([
            "compare", "--policies", policy, "--seeds", "1", "--hours", "1", "--apps", "50", "--svg", svg,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let data = try Data(contentsOf: URL(fileURLWithPath: svg))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("a&lt;b &amp; c&quot; &apos;"))
        #expect(!text.contains("a<b"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x09 })
    }
}
