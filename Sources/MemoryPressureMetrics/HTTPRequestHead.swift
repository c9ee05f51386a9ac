/// The head (request line and header fields) of one HTTP/1.x request, as ``MetricsHTTPServer``
/// reads it (RFC 9112, sections 2–5): only what a metrics endpoint needs, checked strictly.
public struct HTTPRequestHead: Sendable, Hashable {
    /// The method token (`GET`, `HEAD`, …), case-sensitive as RFC 9110 section 9.1 says.
    public var method: String
    /// The request target's path, without its query (`/metrics` for `/metrics?x=1`).
    public var path: String
    /// `HTTP/1.0` or `HTTP/1.1`.
    public var version: String
    /// The header fields in order, names as sent.
    public var fields: [(name: String, value: String)]

    /// Why a request head was refused, with the status code to answer.
    public enum Failure: Error, Sendable, Hashable {
        /// Malformed: 400 Bad Request, with what was wrong.
        case badRequest(String)
        /// An HTTP version other than 1.0 and 1.1: 505 HTTP Version Not Supported.
        case versionNotSupported(String)
    }

    /// Compares request line, path, version and fields.
    ///
    /// - Complexity: O(fields)
    public static func == (lhs: HTTPRequestHead, rhs: HTTPRequestHead) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.version == rhs.version
            && lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Hashes request line, path and version.
    ///
    /// - Complexity: O(length of the method, path and version)
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
        hasher.combine(version)
    }

    /// The value of the first field named `name` (compared without regard to case), or `nil`.
    ///
    /// - Complexity: O(fields)
    public func field(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Parses `head`: the bytes of a request up to, not including, the blank line that ends its
    /// header section. Lines end with CRLF (a bare LF is accepted too, as RFC 9112 section 2.2
    /// allows a recipient to).
    ///
    /// - Throws: ``Failure/badRequest(_:)`` for a malformed request line or field, a target that
    ///   is not an absolute path, or an HTTP/1.1 request without `Host` (RFC 9112 section 3.2);
    ///   ``Failure/versionNotSupported(_:)`` for `HTTP/2.0` and the like.
    /// - Complexity: O(length of the head)
    public static func parse(_ head: ArraySlice<UInt8>) throws(Failure) -> HTTPRequestHead {
        var lines: [ArraySlice<UInt8>] = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
        // RFC 9112 section 2.2: a server SHOULD ignore at least one empty line before the request line.
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        // The last line's terminator leaves an empty piece behind it.
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { throw .badRequest("empty request") }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            throw .badRequest("the request line is not \"METHOD target HTTP/1.x\"")
        }
        guard parts[0].allSatisfy(isTokenByte) else { throw .badRequest("the method is not a token") }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badRequest("the request target is not an absolute path")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/") { throw .versionNotSupported(version) }
            throw .badRequest("the protocol is not HTTP/1.x")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw .badRequest("a header line has no ':'")
            }
            let name = line[line.startIndex..<colon]
            // RFC 9112 section 5.1: no whitespace between the field name and the colon.
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                throw .badRequest("a header field name is empty or not a token")
            }
            let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            guard !value.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else {
                throw .badRequest("a header field value has a control character")
            }
            var trimmed = value
            while let last = trimmed.last, last == 0x20 || last == 0x09 { trimmed = trimmed.dropLast() }
            fields.append((String(decoding: name, as: UTF8.self), String(decoding: trimmed, as: UTF8.self)))
        }
        let path = target.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)[0]
        let request = HTTPRequestHead(
            method: String(decoding: parts[0], as: UTF8.self), path: String(decoding: path, as: UTF8.self),
            version: version, fields: fields)
        if version == "HTTP/1.1" && request.field("Host") == nil {
            throw .badRequest("an HTTP/1.1 request without a Host field")
        }
        return request
    }

    /// Whether `byte` may appear in a token (RFC 9110 section 5.6.2: tchar).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
