#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why ``MetricsHTTPServer`` could not listen.
public enum MetricsHTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address is not an IPv4 or IPv6 literal.
    case invalidAddress(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// `bind` failed (the port is in use, or needs privileges, or the address is not this machine's).
    case cannotBind(address: String, port: Int, errno: Int32)
    /// Another socket call failed.
    case system(String, Int32)

    /// Checks that `address` is an IPv4 or IPv6 literal the server can listen on.
    ///
    /// - Throws: ``invalidAddress(_:)`` otherwise.
    /// - Complexity: O(length of the address)
    public static func validate(address: String) throws(MetricsHTTPServerError) {
        try SocketAddress.validate(address)
    }

    /// The message, naming the address or port and what was expected.
    public var description: String {
        switch self {
        case .invalidAddress(let text):
            let shown = String(
                decoding: text.utf8.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            return
                "metrics address \"\(shown)\": expected an IPv4 address such as 127.0.0.1 or an IPv6 address such as ::1"
        case .invalidPort(let port):
            return "metrics port \(port): expected 1...65535 (or 0 for any free port)"
        case .cannotBind(let address, let port, let code):
            return "cannot listen on \(address) port \(port): \(String(cString: strerror(code)))"
        case .system(let call, let code):
            return "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
