import CCrypt
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// HTTP basic authentication against bcrypt hashes, as the Prometheus exporters' web
/// configuration gives them (`basic_auth_users: { name: $2y$10$… }`, exporter-toolkit).
///
/// A password is checked with libcrypt's `crypt_r()` (bcrypt is slow on purpose: tens of
/// milliseconds), on a thread pool so the event loop keeps serving; a request for an unknown
/// user is checked against a fixed hash all the same, so the answer takes as long whichever part
/// was wrong, and the computed hash is compared with the stored one in constant time. Pairs that
/// were accepted are remembered (at most 64), so a scraper's every request does not pay bcrypt
/// again. Nothing here is logged.
public final class BasicAuthenticator: Sendable {
    /// The users and their bcrypt hashes.
    private let users: [String: String]
    private let accepted = NIOLockedValueBox<[String: String]>([:])
    private let pool: NIOThreadPool

    /// The most accepted credentials remembered.
    public static let rememberedCredentials = 64
    /// A bcrypt hash (cost 10) of a random password, checked for unknown users.
    static let decoy = "$2b$10$dMt.vVxagLgpg4m2qat7ZeniKd7003XTxcDJi4/987rK66pI9nEZm"

    /// Whether `hash` is a bcrypt hash libcrypt checks (`$2a$`, `$2b$` or `$2y$`, cost 04–31).
    ///
    /// - Complexity: O(length of `hash`)
    public static func isBcrypt(_ hash: String) -> Bool {
        let bytes = Array(hash.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]), bytes[3] == UInt8(ascii: "$"),
            bytes[6] == UInt8(ascii: "$"), let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)),
            (4...31).contains(cost)
        else { return false }
        return true
    }

    /// An authenticator for `users` (name → bcrypt hash), checking passwords on `pool`.
    ///
    /// - Complexity: O(users)
    public init(users: [String: String], pool: NIOThreadPool = .singleton) {
        self.users = users
        self.pool = pool
    }

    /// Whether `authorization` (an `Authorization` header value, `Basic base64(user:password)`)
    /// names a user and their password, answered on `eventLoop`.
    ///
    /// - Complexity: one bcrypt check (on the pool), unless the pair was accepted before.
    public func check(_ authorization: String?, on eventLoop: any EventLoop) -> EventLoopFuture<Bool> {
        guard let authorization, let (user, password) = Self.credentials(authorization) else {
            return eventLoop.makeSucceededFuture(false)
        }
        if let known = accepted.withLockedValue({ $0[user] }), Self.constantTimeEqual(known, password) {
            return eventLoop.makeSucceededFuture(true)
        }
        let hash = users[user]
        return pool.runIfActive(eventLoop: eventLoop) { [accepted] in
            let computed = Self.crypt(password, setting: hash ?? Self.decoy)
            let matches = hash != nil && computed.map { Self.constantTimeEqual($0, hash!) } == true
            if matches {
                accepted.withLockedValue { remembered in
                    if remembered.count >= Self.rememberedCredentials { remembered.removeAll() }
                    remembered[user] = password
                }
            }
            return matches
        }.recover { _ in false }
    }

    /// `crypt_r(password, setting)`, or `nil` if libcrypt refuses.
    static func crypt(_ password: String, setting: String) -> String? {
        var data = crypt_data()
        guard let result = crypt_r(password, setting, &data) else { return nil }
        let text = String(cString: result)
        // libcrypt's failure tokens start with '*'.
        return text.hasPrefix("*") ? nil : text
    }

    /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
    ///
    /// - Complexity: O(max(length of `a`, length of `b`))
    public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = x.count ^ y.count
        for index in 0..<max(x.count, y.count) {
            difference |= Int((index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0))
        }
        return difference == 0
    }

    /// The user and password of a `Basic` authorization value, or `nil`.
    static func credentials(_ authorization: String) -> (String, String)? {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", parts[1].utf8.count <= 4096,
            let decoded = Data(base64Encoded: String(parts[1].trimmingPrefixSpaces)).map(Array.init)
        else { return nil }
        guard let colon = decoded.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let user = String(decoding: decoded[..<colon], as: UTF8.self)
        let password = String(decoding: decoded[(colon + 1)...], as: UTF8.self)
        return (user, password)
    }
}

extension Substring {
    fileprivate var trimmingPrefixSpaces: Substring { drop { $0 == " " } }
}
