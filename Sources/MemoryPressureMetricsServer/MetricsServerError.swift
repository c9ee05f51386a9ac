import NIOCore

/// Why ``MetricsServer`` could not listen.
public enum MetricsServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address is not an IPv4 or IPv6 literal.
    case invalidAddress(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// Binding failed (the port is in use, or needs privileges, or the address is not this machine's).
    case cannotBind(address: String, port: Int, reason: String)

    /// Checks that `address` is an IPv4 or IPv6 literal the server can listen on (an IPv6 one
    /// may be in brackets, `[::1]`) and returns it without brackets.
    ///
    /// - Throws: ``invalidAddress(_:)`` otherwise.
    /// - Complexity: O(length of the address)
    @discardableResult
    public static func validate(address: String) throws(MetricsServerError) -> String {
        var literal = Substring(address)
        if literal.hasPrefix("["), literal.hasSuffix("]"), literal.count > 2 {
            literal = literal.dropFirst().dropLast()
        }
        guard !literal.isEmpty, literal.utf8.count <= 64,
            (try? SocketAddress(ipAddress: String(literal), port: 0)) != nil
        else { throw .invalidAddress(address) }
        return String(literal)
    }

    /// The message, naming the address or port and what was expected.
    public var description: String {
        switch self {
        case .invalidAddress(let text):
            let shown = String(
                decoding: text.utf8.prefix(64).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            return
                "metrics address \"\(shown)\": expected an IPv4 address such as 127.0.0.1 or an IPv6 address such as ::1"
        case .invalidPort(let port):
            return "metrics port \(port): expected 1...65535 (or 0 for any free port)"
        case .cannotBind(let address, let port, let reason):
            return "cannot listen on \(address) port \(port): \(reason)"
        }
    }
}
