import Foundation
import MemoryPressure
import MemoryPressureMetrics
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

@Suite("MetricsHTTPServer")
struct MetricsHTTPServerTests {
    /// A server on an ephemeral loopback port serving an engine's metrics after a scripted run, with
    /// HELP lines from the catalog.
    private static func servingEngine(limits: MetricsHTTPServer.Limits = .init()) throws -> MetricsHTTPServer {
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
        let server = try MetricsHTTPServer(address: "127.0.0.1", port: 0, limits: limits) {
            MetricDescription.addingHelp(to: registry.emitToBuffer(), from: catalog)
        }
        server.start()
        return server
    }

    @Test("GET /metrics over loopback returns 200 and the text exposition format with HELP and TYPE lines")
    func scrape() throws {
        let server = try Self.servingEngine()
        defer { server.stop() }
        #expect(server.port > 0)
        let response = try exchange(port: server.port, [request("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n")])
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
        // Every sample line is "name{labels} value" with a number for value.
        for line in lines where !line.isEmpty && !line.hasPrefix("#") {
            let value = try #require(line.split(separator: " ").last)
            #expect(Double(value) != nil, "\(line)")
        }
    }

    @Test("a request split into one-byte reads is still served; HEAD gets the headers without the body")
    func partialReadsAndHead() throws {
        let server = try Self.servingEngine()
        defer { server.stop() }
        let bytes = request("GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\nUser-Agent: test\r\n\r\n")
        let split = try exchange(port: server.port, bytes.map { [$0] }, pause: 0.002)
        #expect(statusLine(split) == "HTTP/1.1 200 OK")
        #expect(body(split).contains("# TYPE mempressure_kills_total counter"))
        let head = try exchange(port: server.port, [request("HEAD /metrics HTTP/1.0\r\n\r\n")])
        #expect(statusLine(head) == "HTTP/1.1 200 OK")
        #expect(body(head).isEmpty)
        #expect(!head.contains("Content-Length: 0\r\n"))
    }

    @Test("other paths get 404, other methods 405, malformed requests 400, other versions 505")
    func errors() throws {
        let server = try Self.servingEngine()
        defer { server.stop() }
        let cases: [(String, String)] = [
            ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 404 Not Found"),
            ("GET /metrics/extra HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 404 Not Found"),
            ("POST /metrics HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 405 Method Not Allowed"),
            ("hello\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("GET /metrics\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("GET  /metrics HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("GET metrics HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("GET /metrics HTTP/1.1\r\n\r\n", "HTTP/1.1 400 Bad Request"),  // no Host
            ("GET /metrics HTTP/1.1\r\nHost a\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("GET /metrics HTTP/1.1\r\nHost : a\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("GET /metrics HTTP/2.0\r\nHost: a\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported"),
            ("GET /metrics FTP/1.0\r\n\r\n", "HTTP/1.1 400 Bad Request"),
            ("\u{1}\u{2}\u{3}\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        ]
        for (text, expected) in cases {
            let response = try exchange(port: server.port, [request(text)])
            #expect(statusLine(response) == expected, "\(text.debugDescription)")
        }
        let post = try exchange(port: server.port, [request("PUT /metrics HTTP/1.1\r\nHost: a\r\n\r\n")])
        #expect(post.contains("\r\nAllow: GET, HEAD\r\n"))
        // A client that closes half-way through its head gets 400; one that sends nothing, nothing.
        let cut = try exchange(port: server.port, [request("GET /metrics HTTP/1.1\r\nHo")], halfClose: true)
        #expect(statusLine(cut) == "HTTP/1.1 400 Bad Request")
        #expect(try exchange(port: server.port, [], halfClose: true).isEmpty)
    }

    @Test("a request head over the size limit gets 431, and the server keeps serving")
    func oversized() throws {
        let server = try Self.servingEngine(limits: .init(maximumRequestBytes: 1024))
        defer { server.stop() }
        let huge = "GET /metrics HTTP/1.1\r\nHost: a\r\nX-Filler: \(String(repeating: "x", count: 4000))\r\n\r\n"
        #expect(
            statusLine(try exchange(port: server.port, [request(huge)]))
                == "HTTP/1.1 431 Request Header Fields Too Large")
        // A head that never ends (no line break), well past the limit but within what is drained.
        let endless = [UInt8](repeating: UInt8(ascii: "a"), count: 20_000)
        #expect(
            statusLine(try exchange(port: server.port, [endless])) == "HTTP/1.1 431 Request Header Fields Too Large")
        let fine = try exchange(port: server.port, [request("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")])
        #expect(statusLine(fine) == "HTTP/1.1 200 OK")
    }

    @Test("a client that never sends gets 408 after the read timeout, while others are served meanwhile")
    func silentClient() throws {
        let server = try Self.servingEngine(limits: .init(readTimeout: 1))
        defer { server.stop() }
        let silent = Thread.detachedResult { try? exchange(port: server.port, []) }
        // Served while the silent client is still connected (it holds one of 16 slots).
        let fine = try exchange(port: server.port, [request("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")])
        #expect(statusLine(fine) == "HTTP/1.1 200 OK")
        #expect(statusLine(silent.value ?? "") == "HTTP/1.1 408 Request Timeout")
    }

    @Test("stop() is idempotent and frees the port: a new server can bind it")
    func stopFreesPort() throws {
        let server = try Self.servingEngine()
        let port = server.port
        #expect(statusLine(try exchange(port: port, [request("GET /metrics HTTP/1.0\r\n\r\n")])) == "HTTP/1.1 200 OK")
        server.stop()
        server.stop()  // idempotent
        let again = try MetricsHTTPServer(address: "127.0.0.1", port: port) { [] }
        #expect(again.port == port)
        again.stop()
    }

    @Test("bad addresses and ports are refused with a message naming them; a taken port is named too")
    func badConfiguration() throws {
        for address in ["localhost", "256.0.0.1", "", "1.2.3", "::g", "127.0.0.1:80"] {
            do {
                _ = try MetricsHTTPServer(address: address, port: 0) { [] }
                Issue.record("\(address) was accepted")
            } catch {
                #expect(error.description.contains("metrics address \"\(address)\""), "\(error)")
                #expect(error.description.contains("expected an IPv4 address"))
            }
        }
        #expect(throws: Never.self) { try MetricsHTTPServerError.validate(address: "::1") }
        #expect(throws: Never.self) { try MetricsHTTPServerError.validate(address: "[::1]") }
        #expect(throws: MetricsHTTPServerError.invalidPort(70000)) {
            try MetricsHTTPServer(address: "127.0.0.1", port: 70000) { [] }
        }
        let first = try MetricsHTTPServer(address: "127.0.0.1", port: 0) { [] }
        defer { first.stop() }
        do {
            _ = try MetricsHTTPServer(address: "127.0.0.1", port: first.port) { [] }
            Issue.record("a taken port was bound twice")
        } catch {
            #expect(error.description.contains("cannot listen on 127.0.0.1 port \(first.port)"), "\(error)")
        }
    }
}

@Suite("HTTPRequestHead")
struct HTTPRequestHeadTests {
    @Test("parses the request line, strips the query, and reads fields case-insensitively")
    func parses() throws {
        let head = try HTTPRequestHead.parse(
            ArraySlice("\r\nGET /metrics?name[]=x HTTP/1.1\r\nHost: example:9100\r\naccept:  text/plain \r\n".utf8))
        #expect(head.method == "GET")
        #expect(head.path == "/metrics")
        #expect(head.version == "HTTP/1.1")
        #expect(head.field("host") == "example:9100")
        #expect(head.field("Accept") == "text/plain")
        #expect(head.field("missing") == nil)
        let bareLF = try HTTPRequestHead.parse(ArraySlice("GET /metrics HTTP/1.0\nX: y\n".utf8))
        #expect(bareLF.fields.count == 1)
    }

    @Test("a control character in a field value is refused")
    func controlCharacters() {
        #expect(throws: HTTPRequestHead.Failure.badRequest("a header field value has a control character")) {
            try HTTPRequestHead.parse(ArraySlice("GET /metrics HTTP/1.1\r\nHost: a\u{0}b\r\n".utf8))
        }
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
