import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
#if TLS
    import NIOSSL
#endif
import ServiceLifecycle

/// An HTTP/1.1 server on SwiftNIO that answers `GET /metrics` with a body made on each request
/// (``MetricsHTTPHandler``): event-driven, so a thousand idle or slow clients cost file
/// descriptors and timers, not threads, and never hold up a scrape. It is a swift-service-lifecycle
/// `Service`: in a `ServiceGroup`, a graceful shutdown (SIGTERM, SIGINT) stops accepting, closes
/// idle connections, lets responses in flight finish (at most ``Limits/drainTimeout`` seconds)
/// and frees the port.
///
///     let server = try await MetricsServer.bind(host: "127.0.0.1", port: 0) { registry.emitToBuffer() }
///     print("serving on port", server.port)
///     try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm], logger: logger).run()
///
/// A server with its own NIO or Hummingbird pipeline mounts ``MetricsHTTPHandler`` instead.
public final class MetricsServer: Service, Sendable {
    /// The bounds a client cannot push the server past.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of request head (request line and fields); beyond: 431.
        public var maximumRequestBytes: Int
        /// Seconds a connection has to complete a request head, from its opening or its last
        /// response; after: 408 and close. It bounds idle keep-alive connections and slow clients.
        public var requestTimeout: Double
        /// The most connections open at once; a connection beyond is closed at once.
        public var maximumConnections: Int
        /// Seconds a graceful shutdown waits for responses in flight.
        public var drainTimeout: Double

        /// Limits; the defaults are 8 KiB, 10 s (Prometheus's default scrape timeout), 4,096
        /// connections and 5 s.
        ///
        /// - Complexity: O(1)
        public init(
            maximumRequestBytes: Int = 8192, requestTimeout: Double = 10, maximumConnections: Int = 4096,
            drainTimeout: Double = 5
        ) {
            self.maximumRequestBytes = maximumRequestBytes
            self.requestTimeout = requestTimeout
            self.maximumConnections = maximumConnections
            self.drainTimeout = drainTimeout
        }
    }

    /// Who may scrape: TLS, and users with passwords (the Prometheus exporters' web configuration).
    ///
    /// TLS exists when the package is built with its `TLS` trait (the default); without it the
    /// server speaks plain HTTP only.
    public struct Access: Sendable {
        #if TLS
            /// The TLS context every connection is served with, or `nil` for plain HTTP.
            public var tls: NIOSSLContext?
        #endif
        /// The users who may scrape, or `nil` for anyone who can connect.
        public var authenticator: BasicAuthenticator?

        /// Plain HTTP, open to every client that can connect.
        public static let open = Access(authenticator: nil)

        /// Whether connections are served over TLS.
        public var isTLS: Bool {
            #if TLS
                tls != nil
            #else
                false
            #endif
        }

        /// Plain HTTP with `authenticator`.
        ///
        /// - Complexity: O(1)
        public init(authenticator: BasicAuthenticator?) {
            self.authenticator = authenticator
        }

        #if TLS
            /// Access with `tls` and `authenticator`.
            ///
            /// - Complexity: O(1)
            public init(tls: NIOSSLContext?, authenticator: BasicAuthenticator?) {
                self.tls = tls
                self.authenticator = authenticator
            }
        #endif
    }

    /// What a connection's handler receives when the server drains.
    struct Drain {}

    /// The address listened on, as given.
    public let host: String
    /// The port listened on (the one the system chose when 0 was asked for).
    public let port: Int
    /// The limits.
    public let limits: Limits

    private let group: MultiThreadedEventLoopGroup
    private let serverChannel: any Channel
    private let connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>
    private let stopped = NIOLockedValueBox(false)

    private init(
        host: String, port: Int, limits: Limits, group: MultiThreadedEventLoopGroup, serverChannel: any Channel,
        connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>
    ) {
        self.host = host
        self.port = port
        self.limits = limits
        self.group = group
        self.serverChannel = serverChannel
        self.connections = connections
    }

    /// Binds `host` (an IPv4 or IPv6 literal) and `port` (0: any free port; see ``port``) and
    /// starts serving on one event loop thread.
    ///
    /// - Parameters:
    ///   - host: the IPv4 or IPv6 literal to listen on (`127.0.0.1` keeps it local).
    ///   - port: the TCP port, 1–65535, or 0 for any free port.
    ///   - limits: the bounds a client cannot push the server past.
    ///   - access: TLS and the users who may scrape (by default plain HTTP, open to anyone who can
    ///     connect).
    ///   - body: makes the response body of each `GET /metrics`; called on the event loop.
    /// - Throws: ``MetricsServerError`` naming the address or port and what failed.
    /// - Complexity: O(1), plus the socket calls.
    public static func bind(
        host: String, port: Int, limits: Limits = Limits(), access: Access = .open,
        body: @escaping @Sendable () -> [UInt8]
    ) async throws(MetricsServerError) -> MetricsServer {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        let literal = try MetricsServerError.validate(address: host)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let connections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let admitted = connections.withLockedValue { open in
                    guard open.count < limits.maximumConnections else { return false }
                    open[ObjectIdentifier(channel)] = channel
                    return true
                }
                guard admitted else { return channel.close() }
                channel.closeFuture.whenComplete { _ in
                    _ = connections.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
                }
                return channel.eventLoop.makeCompletedFuture {
                    #if TLS
                        if let tls = access.tls {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                        }
                    #endif
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withPipeliningAssistance: false, withErrorHandling: false)
                    try channel.pipeline.syncOperations.addHandler(
                        MetricsHTTPHandler(limits: limits, authenticator: access.authenticator, body: body))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: literal, port: port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw .cannotBind(address: host, port: port, reason: "\(error)")
        }
        return MetricsServer(
            host: host, port: channel.localAddress?.port ?? port, limits: limits, group: group, serverChannel: channel,
            connections: connections)
    }

    /// Serves until a graceful shutdown (or cancellation), then drains and frees the port.
    ///
    /// - Complexity: O(connections) to drain.
    public func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Stops accepting, closes idle connections, lets responses in flight finish (at most
    /// ``Limits/drainTimeout`` seconds), then stops the event loop. Calling it again does nothing.
    ///
    /// - Complexity: O(connections)
    public func shutdown() async {
        let first = stopped.withLockedValue { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        try? await serverChannel.close()
        for channel in connections.withLockedValue({ Array($0.values) }) {
            channel.pipeline.fireUserInboundEventTriggered(Drain())
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(limits.drainTimeout * 1000))
        while ContinuousClock.now < deadline, !connections.withLockedValue({ $0.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        for channel in connections.withLockedValue({ Array($0.values) }) { try? await channel.close() }
        try? await group.shutdownGracefully()
    }

    /// The connections open now.
    public var openConnections: Int { connections.withLockedValue { $0.count } }
}
