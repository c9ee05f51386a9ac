import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on POSIX sockets that answers `GET /metrics` (and `HEAD`) with a body
/// made on each request: enough for a Prometheus scrape, with nothing else to build. It lives in
/// this library, not the CLI, so that a server embedding ``EngineMetrics`` without an HTTP stack
/// of its own can serve the metrics the same way `mempressure watch --metrics-port` does.
///
/// Each connection carries one request and is then closed (`Connection: close`). The server is
/// defensive: a request head larger than ``Limits/maximumRequestBytes`` gets 431, a malformed one
/// 400, an unknown HTTP version 505, another path 404, another method 405; a client that sends
/// nothing (or too slowly) is answered 408 after ``Limits/readTimeout`` seconds; at most
/// ``Limits/maximumConnections`` are served at once (503 beyond). Writes handle partial sends and
/// never raise SIGPIPE.
///
///     let server = try MetricsHTTPServer(address: "127.0.0.1", port: 0) { registry.emitToBuffer() }
///     try server.start()
///     print("serving on port", server.port)
///     …
///     server.stop()
public final class MetricsHTTPServer: @unchecked Sendable {
    /// The bounds a client cannot push the server past.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of request head read (request line and fields); beyond: 431.
        public var maximumRequestBytes: Int
        /// Seconds a client has to send its whole request head; after: 408.
        public var readTimeout: Double
        /// Seconds the server waits for a client to take the response before giving up.
        public var writeTimeout: Double
        /// The most connections served at once; beyond: 503.
        public var maximumConnections: Int

        /// Limits; the defaults are 8 KiB, 5 s, 5 s and 16 connections.
        ///
        /// - Complexity: O(1)
        public init(
            maximumRequestBytes: Int = 8192, readTimeout: Double = 5, writeTimeout: Double = 5,
            maximumConnections: Int = 16
        ) {
            self.maximumRequestBytes = maximumRequestBytes
            self.readTimeout = readTimeout
            self.writeTimeout = writeTimeout
            self.maximumConnections = maximumConnections
        }
    }

    /// The path served (any query is ignored).
    public static let path = "/metrics"
    /// The `Content-Type` of the Prometheus text exposition format, version 0.0.4.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The address listened on, as given.
    public let address: String
    /// The port listened on (the one the system chose when 0 was asked for).
    public let port: Int
    /// The limits.
    public let limits: Limits

    private let body: @Sendable () -> [UInt8]
    private let listener: Int32
    private let lock = NSLock()
    private var stopping = false
    private var started = false
    private var active = 0
    private let acceptDone = DispatchSemaphore(value: 0)
    private let connections = DispatchGroup()
    private let queue = DispatchQueue(label: "MemoryPressureMetrics.MetricsHTTPServer", attributes: .concurrent)

    /// Binds and listens on `address` (an IPv4 or IPv6 literal) and `port` (0: any free port; see
    /// ``port``). Nothing is served before ``start()``.
    ///
    /// - Parameters:
    ///   - address: the IPv4 or IPv6 literal to listen on (`127.0.0.1` keeps it local).
    ///   - port: the TCP port, 1–65535, or 0 for any free port.
    ///   - limits: the bounds a client cannot push the server past.
    ///   - body: makes the response body of each `GET /metrics`; called on a server thread.
    /// - Throws: ``MetricsHTTPServerError`` naming the address or port and what failed.
    /// - Complexity: O(length of the address), plus the socket calls.
    public init(
        address: String, port: Int, limits: Limits = Limits(), body: @escaping @Sendable () -> [UInt8]
    ) throws(MetricsHTTPServerError) {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        let socketAddress = try SocketAddress(address, port: UInt16(port))
        self.address = address
        self.limits = limits
        self.body = body
        #if canImport(Glibc)
            let streamType = Int32(SOCK_STREAM.rawValue)
        #else
            let streamType = SOCK_STREAM
        #endif
        let fd = socket(socketAddress.family, streamType, 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        guard socketAddress.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            let code = errno
            close(fd)
            throw .cannotBind(address: address, port: port, errno: code)
        }
        guard listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw .system("listen", code)
        }
        guard let bound = SocketAddress.boundPort(of: fd) else {
            let code = errno
            close(fd)
            throw .system("getsockname", code)
        }
        listener = fd
        self.port = Int(bound)
    }

    deinit {
        stop()
    }

    /// Starts accepting connections on a background thread. Calling it again does nothing.
    ///
    /// - Complexity: O(1) (one thread is started)
    public func start() {
        let first = lock.withLock {
            defer { started = true }
            return !started && !stopping
        }
        guard first else { return }
        Thread { [self] in acceptLoop() }.start()
    }

    /// Stops accepting, waits for the accept thread and for the connections being served (each
    /// is bounded by the read and write timeouts), and closes the listening socket, so the port is
    /// free again when it returns. Idempotent. A started server runs until this is called.
    ///
    /// - Complexity: waits at most about ``Limits/readTimeout`` + ``Limits/writeTimeout`` seconds.
    public func stop() {
        let (wasStarted, first) = lock.withLock {
            defer { stopping = true }
            return (started, !stopping)
        }
        guard first else { return }
        if wasStarted { acceptDone.wait() }
        _ = connections.wait(timeout: .now() + limits.readTimeout + limits.writeTimeout + 1)
        close(listener)
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func acceptLoop() {
        defer { acceptDone.signal() }
        while !isStopping {
            var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 100)
            guard ready > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                // Out of descriptors (EMFILE) and the like: back off instead of spinning on poll.
                if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let admitted = lock.withLock {
                guard active < limits.maximumConnections else { return false }
                active += 1
                return true
            }
            guard admitted else {
                // Best effort, never blocking the accept loop for long.
                let connection = Connection(fd: client, limits: Limits(writeTimeout: 0.1))
                connection.respond(
                    status: 503, reason: "Service Unavailable", body: Array("too many connections\n".utf8))
                connection.finish()
                continue
            }
            connections.enter()
            queue.async { [self] in
                defer {
                    lock.withLock { active -= 1 }
                    connections.leave()
                }
                let connection = Connection(fd: client, limits: limits)
                serve(connection)
                connection.finish()
            }
        }
    }

    /// Reads one request from `connection` and answers it.
    private func serve(_ connection: Connection) {
        let head: ArraySlice<UInt8>
        switch connection.readHead() {
        case .head(let bytes): head = bytes
        case .closed: return
        case .tooLarge:
            connection.respond(
                status: 431, reason: "Request Header Fields Too Large",
                body: Array("request head larger than \(limits.maximumRequestBytes) bytes\n".utf8))
            return
        case .timedOut:
            connection.respond(
                status: 408, reason: "Request Timeout", body: Array("no complete request in time\n".utf8))
            return
        case .incomplete:
            connection.respond(status: 400, reason: "Bad Request", body: Array("incomplete request\n".utf8))
            return
        }
        let request: HTTPRequestHead
        do throws(HTTPRequestHead.Failure) {
            request = try HTTPRequestHead.parse(head)
        } catch {
            switch error {
            case .badRequest(let why):
                connection.respond(status: 400, reason: "Bad Request", body: Array("\(why)\n".utf8))
            case .versionNotSupported(let version):
                connection.respond(
                    status: 505, reason: "HTTP Version Not Supported",
                    body: Array("\(version.escapingForText) is not HTTP/1.0 or HTTP/1.1\n".utf8))
            }
            return
        }
        guard request.path == Self.path else {
            connection.respond(status: 404, reason: "Not Found", body: Array("only \(Self.path) is served\n".utf8))
            return
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            connection.respond(
                status: 405, reason: "Method Not Allowed", body: Array("use GET or HEAD\n".utf8),
                extraFields: "Allow: GET, HEAD\r\n")
            return
        }
        connection.respond(
            status: 200, reason: "OK", body: body(), contentType: Self.contentType, headOnly: request.method == "HEAD")
    }
}

extension String {
    /// The text with anything outside printable ASCII written as `?` (for echoing a client's bytes).
    fileprivate var escapingForText: String {
        String(decoding: utf8.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
