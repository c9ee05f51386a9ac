import Foundation
import MemoryPressure
import MemoryPressureMetrics
import MemoryPressureMetricsServer
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import Logging
import Prometheus
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A plain socket client: connects to 127.0.0.1:`port`, sends `chunks` (pausing `pause` seconds
/// between them, so the server sees partial reads), and reads the whole response until the server
/// closes the connection. With `halfClose`, the client ends its side after the last chunk.
func exchange(
    port: Int, _ chunks: [[UInt8]], pause: Double = 0, halfClose: Bool = false, readTimeout: Int32 = 30
) throws -> String {
    let fd = try #require(connectToLoopback(port: port), "connect: \(String(cString: strerror(errno)))")
    defer { close(fd) }
    var timeout = timeval(tv_sec: Int(readTimeout), tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    for (index, chunk) in chunks.enumerated() {
        if index > 0 && pause > 0 { usleep(UInt32(pause * 1_000_000)) }
        var sent = 0
        while sent < chunk.count {
            let count = chunk.withUnsafeBytes {
                send(fd, $0.baseAddress! + sent, chunk.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { break }  // the server may answer and close before taking everything
            sent += count
        }
    }
    if halfClose { shutdown(fd, Int32(SHUT_WR)) }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        response += buffer[..<count]
    }
    return String(decoding: response, as: UTF8.self)
}

/// A request's bytes.
func request(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The status line of a response.
func statusLine(_ response: String) -> String {
    // "\r\n" is one Character in Swift, so split the UTF-8 bytes.
    String(decoding: response.utf8.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
}

/// The body of a response (after the blank line).
func body(_ response: String) -> String {
    guard let range = response.range(of: "\r\n\r\n") else { return "" }
    return String(response[range.upperBound...])
}

@Suite("MetricsServer (SwiftNIO)")
struct MetricsServerTests {
    /// A server on an ephemeral loopback port serving an engine's metrics after a scripted run, with
    /// HELP lines from the catalog.
    private static func servingEngine(limits: MetricsServer.Limits = .init()) async throws -> MetricsServer {
        let registry = PrometheusCollectorRegistry()
        let engine = PressureEngine.scenario()
        let metrics = try EngineMetrics(engine: engine, factory: PrometheusMetricsFactory(registry: registry))
        try engine.apply(.launch("A", mib: 100), at: 0)
        try engine.apply(.open("B", mib: 100), at: 1)
        try engine.apply(.open("C", mib: 100), at: 2)
        try engine.apply(.open("D", mib: 70), at: 3)
        try engine.apply(.allocate("D", mib: 10), at: 4)
        _ = metrics.takeEvents()
        let catalog = EngineMetrics.catalog()
        return try await MetricsServer.bind(host: "127.0.0.1", port: 0, limits: limits) {
            MetricDescription.addingHelp(to: registry.emitToBuffer(), from: catalog)
        }
    }

    static let get = "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"

    @Test("GET /metrics over loopback returns 200 and the text exposition format with HELP and TYPE lines")
    func scrape() async throws {
        let server = try await Self.servingEngine()
        #expect(server.port > 0)
        let response = try exchange(port: server.port, [request(Self.get)])
        await server.shutdown()
        #expect(statusLine(response) == "HTTP/1.1 200 OK")
        #expect(response.contains("\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"))
        #expect(response.contains("\r\nConnection: close\r\n"))
        let text = body(response)
        #expect(response.contains("\r\nContent-Length: \(text.utf8.count)\r\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "")
        for metric in EngineMetrics.catalog() {
            let type = try #require(
                lines.firstIndex(of: "# TYPE \(metric.name) \(metric.kind.rawValue)"), "\(metric.name)")
            #expect(type > 0 && lines[type - 1] == "# HELP \(metric.name) \(metric.help)")
        }
        #expect(lines.contains("mempressure_kills_total{reason=\"pressure\",band=\"suspended\"} 1"))
        #expect(lines.contains("mempressure_memory_warnings_total{level=\"1\"} 1"))
        #expect(lines.contains("mempressure_pressure_level 0.0"))
        #expect(lines.contains("mempressure_memory_free_bytes \(Double(136 << 20))"))
        for line in lines where !line.isEmpty && !line.hasPrefix("#") {
            let value = try #require(line.split(separator: " ").last)
            #expect(Double(value) != nil, "\(line)")
        }
    }

    @Test(
        "keep-alive: two requests on one connection are both answered; a request split into one-byte reads is served; HEAD has no body"
    )
    func keepAliveAndPartialReads() async throws {
        let server = try await Self.servingEngine()
        let twice = try exchange(
            port: server.port,
            [request("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n"), request(Self.get)], pause: 0.05)
        #expect(twice.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 3)
        let bytes = request("GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\nUser-Agent: test\r\nConnection: close\r\n\r\n")
        let split = try exchange(port: server.port, bytes.map { [$0] }, pause: 0.002)
        #expect(statusLine(split) == "HTTP/1.1 200 OK")
        #expect(body(split).contains("# TYPE mempressure_kills_total counter"))
        let head = try exchange(port: server.port, [request("HEAD /metrics HTTP/1.0\r\n\r\n")])
        await server.shutdown()
        #expect(statusLine(head) == "HTTP/1.0 200 OK")
        #expect(body(head).isEmpty)
    }

    @Test("other paths get 404, other methods 405, malformed requests 400, other versions 505")
    func errors() async throws {
        let server = try await Self.servingEngine()
        let cases: [(String, String)] = [
            ("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", "HTTP/1.1 404 Not Found"),
            ("GET /metrics/extra HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", "HTTP/1.1 404 Not Found"),
            (
                "POST /metrics HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                "HTTP/1.1 405 Method Not Allowed"
            ),
            ("hello\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("GET metrics HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("GET /metrics HTTP/1.1\r\nHost a\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("GET /metrics HTTP/2.0\r\nHost: a\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported"),
            ("GET /metrics FTP/1.0\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("\u{1}\u{2}\u{3}\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        ]
        for (text, expected) in cases {
            let response = try exchange(port: server.port, [request(text)])
            #expect(statusLine(response) == expected, "\(text.debugDescription)")
        }
        let put = try exchange(
            port: server.port, [request("PUT /metrics HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")])
        #expect(put.contains("\r\nAllow: GET, HEAD\r\n"))
        // A client that sends nothing and closes gets nothing.
        #expect(try exchange(port: server.port, [], halfClose: true).isEmpty)
        await server.shutdown()
    }

    @Test("a request head over the size limit gets 431, and the server keeps serving")
    func oversized() async throws {
        let server = try await Self.servingEngine(limits: .init(maximumRequestBytes: 1024))
        let huge = "GET /metrics HTTP/1.1\r\nHost: a\r\nX-Filler: \(String(repeating: "x", count: 4000))\r\n\r\n"
        #expect(
            statusLine(try exchange(port: server.port, [request(huge)]))
                == "HTTP/1.1 431 Request Header Fields Too Large")
        // A head that never ends, past the HTTP decoder's own bound (80 KiB).
        let endless = request("GET /metrics HTTP/1.1\r\nX: ") + [UInt8](repeating: UInt8(ascii: "a"), count: 100_000)
        #expect(
            statusLine(try exchange(port: server.port, [endless])) == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(statusLine(try exchange(port: server.port, [request(Self.get)])) == "HTTP/1.1 200 OK")
        await server.shutdown()
    }

    @Test(
        "a client that never completes a request gets 408 after the request timeout, while others are served meanwhile")
    func silentClient() async throws {
        let server = try await Self.servingEngine(limits: .init(requestTimeout: 1))
        let port = server.port
        let silent = Thread.detachedResult { try? exchange(port: port, []) }
        let slow = Thread.detachedResult { try? exchange(port: port, [request("GET /met")]) }
        #expect(statusLine(try exchange(port: port, [request(Self.get)])) == "HTTP/1.1 200 OK")
        #expect(statusLine(silent.value ?? "") == "HTTP/1.1 408 Request Timeout")
        #expect(statusLine(slow.value ?? "") == "HTTP/1.1 408 Request Timeout")
        await server.shutdown()
    }

    @Test(
        "hundreds of idle connections do not hold up a scrape; past the connection bound a connection is closed at once"
    )
    func manyIdleConnections() async throws {
        // A request timeout far past the waits below: on a loaded machine, opening 300 connections
        // can take longer than the default 10 s, which would close the first ones (a 408) and
        // leave room for the 301st (seen once in a release run beside the 10-million-id churn).
        let server = try await Self.servingEngine(limits: .init(requestTimeout: 600, maximumConnections: 300))
        var idle: [Int32] = []
        defer { for fd in idle { close(fd) } }
        for _ in 0..<299 { idle.append(try #require(connectToLoopback(port: server.port))) }
        // Wait until the server has taken them all (on a loaded machine this can take a while:
        // the wait is for the condition, not a bound on the time).
        for _ in 0..<6_000 where server.openConnections < 299 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.openConnections == 299)
        #expect(statusLine(try exchange(port: server.port, [request(Self.get)])) == "HTTP/1.1 200 OK")
        idle.append(try #require(connectToLoopback(port: server.port)))
        for _ in 0..<6_000 where server.openConnections < 300 { try await Task.sleep(for: .milliseconds(10)) }
        // The 301st is closed without an answer.
        #expect(try exchange(port: server.port, [request(Self.get)]).isEmpty)
        await server.shutdown()
    }

    @Test("a graceful shutdown of its service group stops accepting and frees the port; shutdown() is idempotent")
    func gracefulShutdown() async throws {
        let server = try await Self.servingEngine()
        let port = server.port
        let group = ServiceGroup(
            services: [server], gracefulShutdownSignals: [],
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            #expect(statusLine(try exchange(port: port, [request(Self.get)])) == "HTTP/1.1 200 OK")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        await server.shutdown()  // again: nothing happens
        #expect(connectToLoopback(port: port) == nil)
        let again = try await MetricsServer.bind(host: "127.0.0.1", port: port) { [] }
        #expect(again.port == port)
        await again.shutdown()
    }

    @Test("bad addresses and ports are refused with a message naming them; a taken port is named too")
    func badConfiguration() async throws {
        for address in ["localhost", "256.0.0.1", "", "1.2.3", "::g", "127.0.0.1:80"] {
            do {
                let server = try await MetricsServer.bind(host: address, port: 0) { [] }
                await server.shutdown()
                Issue.record("\(address) was accepted")
            } catch {
                #expect(error.description.contains("metrics address \"\(address)\""), "\(error)")
                #expect(error.description.contains("expected an IPv4 address"))
            }
        }
        #expect(throws: Never.self) { try MetricsServerError.validate(address: "::1") }
        #expect(try MetricsServerError.validate(address: "[::1]") == "::1")
        await #expect(throws: MetricsServerError.invalidPort(70000)) {
            try await MetricsServer.bind(host: "127.0.0.1", port: 70000) { [] }
        }
        let first = try await MetricsServer.bind(host: "127.0.0.1", port: 0) { [] }
        do {
            let second = try await MetricsServer.bind(host: "127.0.0.1", port: first.port) { [] }
            await second.shutdown()
            Issue.record("a taken port was bound twice")
        } catch {
            #expect(error.description.contains("cannot listen on 127.0.0.1 port \(first.port)"), "\(error)")
        }
        await first.shutdown()
    }

    @Test("the handler mounts on a server's own NIO pipeline")
    func mountsOnOwnPipeline() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: false)
                    try channel.pipeline.syncOperations.addHandler(MetricsHTTPHandler { Array("x_total 1\n".utf8) })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(channel.localAddress?.port)
        let response = try exchange(port: port, [request(Self.get)])
        try await channel.close()
        try await group.shutdownGracefully()
        #expect(statusLine(response) == "HTTP/1.1 200 OK")
        #expect(body(response) == "x_total 1\n")
    }
}

extension MetricDescription {
    fileprivate static let sample = MetricDescription(
        name: "x_total", kind: .counter, labels: [], unit: "events", help: #"back\slash and"# + "\nnewline",
        analogue: "none")
}

@Suite("MetricDescription.addingHelp")
struct AddingHelpTests {
    @Test("inserts an escaped HELP line before each catalogued TYPE line once, and keeps the rest byte for byte")
    func insertsHelp() {
        let exposition = Array("# TYPE x_total counter\nx_total 3\n# TYPE other gauge\nother 1\n".utf8)
        let out = String(decoding: MetricDescription.addingHelp(to: exposition, from: [.sample]), as: UTF8.self)
        #expect(
            out
                == "# HELP x_total back\\\\slash and\\nnewline\n# TYPE x_total counter\nx_total 3\n# TYPE other gauge\nother 1\n"
        )
        let twice = MetricDescription.addingHelp(to: Array(out.utf8), from: [.sample])
        #expect(String(decoding: twice, as: UTF8.self) == out)
        #expect(MetricDescription.addingHelp(to: [], from: [.sample]).isEmpty)
    }
}

extension Thread {
    /// Runs `body` on a new thread; `value` waits for its result.
    static func detachedResult<T: Sendable>(_ body: @escaping @Sendable () -> T) -> DetachedResult<T> {
        let result = DetachedResult<T>()
        Thread { result.set(body()) }.start()
        return result
    }
}

/// The result of ``Thread/detachedResult(_:)``.
final class DetachedResult<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stored: T?
    func set(_ value: T) {
        lock.withLock { stored = value }
        done.signal()
    }
    var value: T {
        done.wait()
        done.signal()
        return lock.withLock { stored! }
    }
}
