import NIOCore
import NIOHTTP1

/// Serves `GET /metrics` (and `HEAD`) on an HTTP/1.1 channel, with a body made for each request:
/// the handler ``MetricsServer`` puts on each connection, and what a server with its own NIO
/// pipeline mounts to serve the same metrics (after `configureHTTPServerPipeline()`):
///
///     try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: false)
///     try channel.pipeline.syncOperations.addHandler(MetricsHTTPHandler { registry.emitToBuffer() })
///
/// Connections are kept alive between requests (HTTP/1.1's default; `Connection: close` and
/// HTTP/1.0 without keep-alive close after the response). A request whose head (request line and
/// fields) is larger than ``MetricsServer/Limits/maximumRequestBytes`` gets 431, a malformed one
/// 400, another path 404, another method 405, then the connection closes. A connection that has
/// not completed a request head within ``MetricsServer/Limits/requestTimeout`` seconds of opening
/// or of its last response gets 408 and is closed: an idle or slow client costs a file
/// descriptor and a timer, never a thread, and never delays another client.
public final class MetricsHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Request parts, from NIO's HTTP/1 decoder.
    public typealias InboundIn = HTTPServerRequestPart
    /// Response parts, to NIO's HTTP/1 encoder.
    public typealias OutboundOut = HTTPServerResponsePart

    /// The path served (any query is ignored).
    public static let path = "/metrics"
    /// The `Content-Type` of the Prometheus text exposition format, version 0.0.4.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let body: @Sendable () -> [UInt8]
    private let limits: MetricsServer.Limits
    private let authenticator: BasicAuthenticator?
    private var deadline: Scheduled<Void>?
    /// The request being read: its head, once complete.
    private var head: HTTPRequestHead?
    /// Set by ``MetricsServer`` while it drains: the connection closes after its response.
    private var closeAfterResponse = false

    /// A handler whose `GET /metrics` answers with `body()`, called on the channel's event loop.
    /// With an `authenticator`, a request without a user and password it accepts gets 401 (with
    /// `WWW-Authenticate: Basic`, and nothing said about which part was wrong).
    ///
    /// - Complexity: O(1)
    public init(
        limits: MetricsServer.Limits = .init(), authenticator: BasicAuthenticator? = nil,
        body: @escaping @Sendable () -> [UInt8]
    ) {
        self.limits = limits
        self.authenticator = authenticator
        self.body = body
    }

    /// Starts the timer for the first request.
    ///
    /// - Complexity: O(1)
    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { armDeadline(context) }
    }

    /// Starts the timer for the first request once the connection is up.
    ///
    /// - Complexity: O(1)
    public func channelActive(context: ChannelHandlerContext) {
        armDeadline(context)
        context.fireChannelActive()
    }

    /// Cancels the timer.
    ///
    /// - Complexity: O(1)
    public func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    /// Cancels the timer.
    ///
    /// - Complexity: O(1)
    public func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    /// Reads one request part; answers at the end of the request.
    ///
    /// - Complexity: O(size of the request part); at the end of a request, the cost of the body closure
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            guard request.version.major == 1 else {
                respond(context, status: .httpVersionNotSupported, keepAlive: false, head: nil)
                return
            }
            let size =
                request.uri.utf8.count + request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            if size > limits.maximumRequestBytes {
                respond(context, status: .requestHeaderFieldsTooLarge, keepAlive: false, head: nil)
                return
            }
            head = request
        case .body:
            break  // a GET has no body; one sent is read and dropped
        case .end:
            guard let request = head else { return }
            head = nil
            let path = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let keepAlive = request.isKeepAlive && !closeAfterResponse
            if let authenticator {
                // Reading pauses while the password is checked (off the event loop), so the
                // responses stay in the order of the requests.
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                authenticator.check(request.headers.first(name: "Authorization"), on: context.eventLoop)
                    .whenComplete { result in
                        let (handler, context) = loopBound.value
                        if case .success(true) = result {
                            handler.answer(context, request: request, path: path, keepAlive: keepAlive)
                        } else {
                            handler.respond(context, status: .unauthorized, keepAlive: keepAlive, head: request)
                        }
                        context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
                    }
                return
            }
            answer(context, request: request, path: path, keepAlive: keepAlive)
        }
    }

    /// The response to an accepted request for `path`.
    private func answer(
        _ context: ChannelHandlerContext, request: HTTPRequestHead, path: Substring, keepAlive: Bool
    ) {
        if path != Self.path {
            respond(context, status: .notFound, keepAlive: keepAlive, head: request)
        } else if request.method != .GET && request.method != .HEAD {
            respond(context, status: .methodNotAllowed, keepAlive: keepAlive, head: request)
        } else {
            respond(context, status: .ok, keepAlive: keepAlive, head: request)
        }
    }

    /// A request the HTTP decoder could not read: 431 for a head past the decoder's own bound,
    /// 505 for a version it does not read (`HTTP/2.0`), 400 for anything else; then the
    /// connection closes.
    ///
    /// - Complexity: O(1), plus the response
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let parse = error as? HTTPParserError {
            let status: HTTPResponseStatus =
                switch parse {
                case .headerOverflow: .requestHeaderFieldsTooLarge
                case .invalidVersion: .httpVersionNotSupported
                default: .badRequest
                }
            respond(context, status: status, keepAlive: false, head: nil)
        } else {
            context.close(promise: nil)
        }
    }

    /// Asks the handler to close the connection: at once if no request is being read, else after
    /// its response (``MetricsServer``'s drain).
    ///
    /// - Complexity: O(1)
    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is MetricsServer.Drain {
            closeAfterResponse = true
            if head == nil { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func armDeadline(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(limits.requestTimeout * 1e9))) {
            let (handler, context) = loopBound.value
            handler.deadline = nil
            handler.respond(context, status: .requestTimeout, keepAlive: false, head: nil)
        }
    }

    private func respond(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, keepAlive: Bool, head request: HTTPRequestHead?
    ) {
        deadline?.cancel()
        deadline = nil
        guard context.channel.isActive else { return }
        var payload: [UInt8] = []
        var headers = HTTPHeaders()
        switch status {
        case .ok:
            payload = body()
            headers.add(name: "Content-Type", value: Self.contentType)
        case .methodNotAllowed:
            headers.add(name: "Allow", value: "GET, HEAD")
            payload = Array("only GET and HEAD \(Self.path)\n".utf8)
        case .notFound:
            payload = Array("only \(Self.path) is served\n".utf8)
        case .unauthorized:
            headers.add(name: "WWW-Authenticate", value: "Basic realm=\"mempressure\", charset=\"UTF-8\"")
            payload = Array("401 Unauthorized\n".utf8)
        default:
            payload = Array("\(status.code) \(status.reasonPhrase)\n".utf8)
        }
        headers.add(name: "Content-Length", value: String(payload.count))
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let version = request?.version ?? .http1_1
        context.write(
            wrapOutboundOut(
                .head(
                    HTTPResponseHead(version: version.major == 1 ? version : .http1_1, status: status, headers: headers)
                )),
            promise: nil)
        if request?.method != .HEAD {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: payload)))), promise: nil)
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            armDeadline(context)
        } else {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
