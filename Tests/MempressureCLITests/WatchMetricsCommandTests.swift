import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

// `mempressure watch --metrics-port` (issue 15, item 9; on SwiftNIO and swift-service-lifecycle
// since issue 23): the live engine's metrics served over HTTP/1.1 in the Prometheus text format,
// scraped here with a plain socket client.

/// Sends `text` to 127.0.0.1:`port` and reads the response until the server closes; `nil` if the
/// connection is refused.
private func fetch(port: Int, _ text: String) throws -> String? {
    guard let fd = connectToLoopback(port: port) else { return nil }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
        let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
        guard count > 0 else { break }
        sent += count
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        response += buffer[..<count]
    }
    return String(decoding: response, as: UTF8.self)
}

/// A `mempressure watch` started in the background, its standard error read as it comes.
private final class BackgroundWatch: @unchecked Sendable {
    let process = Process()
    private let errorPipe = Pipe()
    let output: URL
    private let lock = NSLock()
    private var errorText = ""

    init(_ arguments: [String]) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("mempressure-watch-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: output.path, contents: nil))
        process.executableURL = PackagePaths.executable
        process.arguments = ["watch"] + arguments
        process.currentDirectoryURL = PackagePaths.root
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        errorPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.errorText += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    var standardError: String { lock.withLock { errorText } }

    /// The port in "serving metrics at http://127.0.0.1:PORT/metrics", waiting for it up to
    /// `attempts` × 50 ms (the process reads /proc once before it listens); `nil` if it never comes.
    func metricsPort(attempts: Int = 1200) -> Int? {
        for _ in 0..<attempts {
            let text = standardError
            if let range = text.range(of: "serving metrics at http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if text[range.upperBound...].dropFirst(digits.count).hasPrefix("/metrics"), let port = Int(digits) {
                    return port
                }
            }
            if !process.isRunning { return nil }
            usleep(50_000)
        }
        return nil
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: output)
    }
}

@Suite("mempressure watch --metrics-port")
struct WatchMetricsCommandTests {
    @Test(
        "serves the live engine's metrics at /metrics, 404 elsewhere, and shuts down cleanly on SIGINT",
        .tags(.machine), .machineDependent)
    func scrapeThenInterrupt() throws {
        let watch = try BackgroundWatch(["--metrics-port", "0", "--interval", "0.2", "--top", "3"])
        let port = try #require(watch.metricsPort(), "no port announced; stderr: \(watch.standardError)")

        let response = try #require(
            try fetch(port: port, "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.contains("\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"))
        let body = try #require(response.range(of: "\r\n\r\n")).upperBound
        let lines = response[body...].split(separator: "\n").map(String.init)
        var values: [String: Double] = [:]
        for line in lines where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            try #require(parts.count == 2, "\(line)")
            guard let value = Double(String(parts[1])) else {
                Issue.record("not a number: \(line)")
                continue
            }
            values[String(parts[0])] = value
        }
        let gauges = [
            "mempressure_pressure_level", "mempressure_memory_free_bytes", "mempressure_memory_used_bytes",
            "mempressure_memory_limit_bytes",
        ]
        for name in gauges {
            #expect(lines.contains("# TYPE \(name) gauge"))
            #expect(lines.contains { $0.hasPrefix("# HELP \(name) ") })
        }
        for name in ["memory_warnings_total", "kills_total", "pressure_level_changes_total", "freed_bytes_total"] {
            #expect(lines.contains("# TYPE mempressure_\(name) counter"))
        }
        let level = try #require(values["mempressure_pressure_level"])
        #expect((0...3).contains(level))
        #expect(try #require(values["mempressure_memory_limit_bytes"]) > 0)
        #expect(try #require(values["mempressure_memory_used_bytes"]) > 0)
        #expect(values["mempressure_memory_warnings_total{level=\"1\"}"] != nil)
        #expect(values["mempressure_kills_total{reason=\"memory_limit_fatal\",band=\"none\"}"] != nil)

        let other = try #require(
            try fetch(port: port, "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
        #expect(other.hasPrefix("HTTP/1.1 404 Not Found\r\n"))

        kill(watch.process.processIdentifier, SIGINT)
        watch.process.waitUntilExit()
        #expect(watch.process.terminationReason == .exit)  // the handler ran: not killed by the signal
        #expect(watch.process.terminationStatus == 0, "stderr: \(watch.standardError)")
        #expect(try fetch(port: port, "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n") == nil)
        let frames = try String(contentsOf: watch.output, encoding: .utf8)
        #expect(frames.contains("RANK  PROCESS"))
        #expect(!frames.contains("serving metrics"))  // the notice goes to stderr; stdout is unchanged
    }

    @Test(
        "with --count the watch ends by itself and frees the port; --metrics-address takes an IPv4 literal",
        .tags(.machine), .machineDependent)
    func countEnds() throws {
        let watch = try BackgroundWatch(["--metrics-port", "0", "--metrics-address", "127.0.0.1", "--count", "2"])
        let port = watch.metricsPort()
        watch.process.waitUntilExit()
        #expect(watch.process.terminationStatus == 0, "stderr: \(watch.standardError)")
        let announced = try #require(port, "stderr: \(watch.standardError)")
        #expect(try fetch(port: announced, "GET /metrics HTTP/1.0\r\n\r\n") == nil)
    }

    @Test(
        "SIGTERM ends the watch cleanly: exit 0, the scrape in flight answered, the port freed", .tags(.machine),
        .machineDependent)
    func sigtermDrains() throws {
        let watch = try BackgroundWatch(["--metrics-port", "0", "--interval", "0.2"])
        let port = try #require(watch.metricsPort(), "stderr: \(watch.standardError)")
        // An idle keep-alive connection and a scrape: the first is closed, the second answered.
        let idle = try #require(connectToLoopback(port: port))
        defer { close(idle) }
        let scrape = try #require(
            try fetch(port: port, "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
        #expect(scrape.hasPrefix("HTTP/1.1 200 OK\r\n"))
        kill(watch.process.processIdentifier, SIGTERM)
        watch.process.waitUntilExit()
        #expect(watch.process.terminationReason == .exit)
        #expect(watch.process.terminationStatus == 0, "stderr: \(watch.standardError)")
        #expect(try fetch(port: port, "GET /metrics HTTP/1.0\r\n\r\n") == nil)
    }

    @Test("bad metrics options are refused with exit 64 and a message naming the option")
    func badOptions() throws {
        let cases: [([String], String)] = [
            (["--metrics-port", "65536"], "--metrics-port must be 1...65535"),
            (["--metrics-port", "-1"], "--metrics-port must be 1...65535"),
            (["--metrics-port", "http"], "metrics-port"),
            (
                ["--metrics-port", "9100", "--metrics-address", "localhost"],
                "--metrics-address: metrics address \"localhost\""
            ),
            (["--metrics-port", "9100", "--metrics-address", "300.1.1.1"], "expected an IPv4 address"),
            (["--metrics-address", "127.0.0.1"], "--metrics-address needs --metrics-port"),
            (["--allow-open-metrics"], "--allow-open-metrics needs --metrics-port"),
            (["--policy", "oracle", "--count", "1"], "oracle knows the rest of a trace"),
        ]
        for (arguments, message) in cases {
            let result = try runMempressure(["watch"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test("a port already in use is reported with exit 64, naming the address and port")
    func portInUse() throws {
        let holder = try BackgroundWatch(["--metrics-port", "0", "--interval", "0.2"])
        defer {
            kill(holder.process.processIdentifier, SIGINT)
            holder.process.waitUntilExit()
        }
        let port = try #require(holder.metricsPort(), "stderr: \(holder.standardError)")
        let result = try runMempressure(["watch", "--metrics-port", "\(port)", "--count", "1"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("cannot listen on 127.0.0.1 port \(port)"), "\(result.standardError)")
    }

    @Test("--help states the port range, the default address and the metric names")
    func help() throws {
        let help = try runMempressure(["watch", "--help"]).standardOutput
        #expect(help.contains("--metrics-port <port>"))
        #expect(help.contains("1...65535"))
        #expect(help.contains("default: 127.0.0.1"))
        #expect(help.contains("mempressure_kills_total{reason,band}"))
        #expect(help.contains("mempressure_memory_free_bytes"))
    }
}
