import Foundation
import MemoryPressureMetricsServer
import NIOCore
import NIOPosix
import Testing

// Issue 23, item 5: the basic authentication of the metrics endpoint, checked with libcrypt's
// bcrypt against a hash made by another implementation (Python's crypt module, libxcrypt).

@Suite("BasicAuthenticator")
struct BasicAuthenticatorTests {
    /// bcrypt (cost 10) of "scrape-me".
    static let hash = "$2b$10$uYAfewTNFBxUXQzcMF8lFOE71NSBhQ3UxaPSieOMjNyyOl9CmYI6O"

    /// `Basic base64(user:password)`.
    static func header(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    @Test("the right password passes; a wrong one, an unknown user, another scheme or bad base64 do not")
    func checks() async throws {
        let authenticator = BasicAuthenticator(users: ["prometheus": Self.hash])
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        func check(_ header: String?) async throws -> Bool { try await authenticator.check(header, on: loop).get() }
        #expect(try await check(Self.header("prometheus", "scrape-me")))
        // Again: remembered, the same answer.
        #expect(try await check(Self.header("prometheus", "scrape-me")))
        #expect(try await !check(Self.header("prometheus", "scrape-me ")))
        #expect(try await !check(Self.header("prometheus", "")))
        #expect(try await !check(Self.header("nobody", "scrape-me")))
        #expect(try await !check("Bearer abc"))
        #expect(try await !check("Basic !!!"))
        #expect(try await !check(nil))
    }

    @Test("constant-time comparison and the bcrypt format check")
    func helpers() {
        #expect(BasicAuthenticator.constantTimeEqual("abc", "abc"))
        #expect(!BasicAuthenticator.constantTimeEqual("abc", "abd"))
        #expect(!BasicAuthenticator.constantTimeEqual("abc", "abcd"))
        #expect(!BasicAuthenticator.constantTimeEqual("", "a"))
        #expect(BasicAuthenticator.isBcrypt(Self.hash))
        #expect(BasicAuthenticator.isBcrypt(Self.hash.replacingOccurrences(of: "$2b$", with: "$2y$")))
        #expect(!BasicAuthenticator.isBcrypt("plain"))
        #expect(!BasicAuthenticator.isBcrypt("$1$abc$" + String(repeating: "x", count: 53)))
        #expect(!BasicAuthenticator.isBcrypt(Self.hash.replacingOccurrences(of: "$10$", with: "$99$")))
    }
}
