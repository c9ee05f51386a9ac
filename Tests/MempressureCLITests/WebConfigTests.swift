import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

// Issue 23, item 5: who may scrape. `watch --web-config` reads the Prometheus exporters' web
// configuration; a certificate made here by openssl, a real TLS client (curl) against it.

/// Runs `command` with `arguments`, returning its exit status and standard output.
private func run(_ command: String, _ arguments: [String], in directory: URL) throws -> (status: Int32, output: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [command] + arguments
    process.currentDirectoryURL = directory
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A folder with a certificate for 127.0.0.1 valid `days` days (negative: expired) and a web
/// configuration with one user, `prometheus`, whose password is `scrape-me`.
private func webConfigFolder(days: Int = 2) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mempressure-web-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let key = try run(
        "openssl",
        [
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "key.pem",
            "-out", "request.csr", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ], in: folder)
    try #require(key.status == 0)
    try "subjectAltName=IP:127.0.0.1\n".write(
        to: folder.appendingPathComponent("ext.cnf"), atomically: true, encoding: .utf8)
    let certificate = try run(
        "openssl",
        [
            "x509", "-req", "-in", "request.csr", "-signkey", "key.pem", "-out", "cert.pem", "-days", "\(days)",
            "-extfile", "ext.cnf",
        ], in: folder)
    try #require(certificate.status == 0)
    // bcrypt of "scrape-me" (cost 10), made with `htpasswd -nbB` style hashing (Python's crypt).
    let hash = "$2b$10$uYAfewTNFBxUXQzcMF8lFOE71NSBhQ3UxaPSieOMjNyyOl9CmYI6O"
    try """
    tls_server_config:
      cert_file: cert.pem
      key_file: key.pem
    basic_auth_users:
      prometheus: "\(hash)"

    """.write(to: folder.appendingPathComponent("web.yml"), atomically: true, encoding: .utf8)
    return folder
}

/// Whether the package was built with its TLS trait (the default; `--disable-default-traits` leaves it out).
private let builtWithTLS: Bool = {
    #if TLS
        return true
    #else
        return false
    #endif
}()

@Suite("watch --web-config: TLS and basic authentication")
struct WebConfigTests {
    @Test(
        "a real TLS client: the right password 200, a wrong one or none 401, plain HTTP refused, no credential logged",
        .tags(.machine), .machineDependent, .enabled(if: builtWithTLS))
    func tlsAndPasswords() throws {
        let folder = try webConfigFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = PackagePaths.executable
        process.arguments = [
            "watch", "--metrics-port", "0", "--web-config", folder.appendingPathComponent("web.yml").path, "--interval",
            "0.2",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
        // The first line of standard error names the port.
        var announced = ""
        while !announced.contains("\n") {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            announced += String(decoding: data, as: UTF8.self)
        }
        #expect(announced.contains("serving metrics at https://127.0.0.1:"), "\(announced)")
        #expect(announced.contains("(basic authentication)"))
        let after = try #require(announced.range(of: "https://127.0.0.1:")).upperBound
        let port = try #require(Int(announced[after...].prefix { $0.isNumber }))
        let url = "https://127.0.0.1:\(port)/metrics"
        func status(_ extra: [String]) throws -> String {
            try run(
                "curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", "cert.pem"] + extra + [url],
                in: folder
            ).output
        }
        #expect(try status(["-u", "prometheus:scrape-me"]) == "200")
        #expect(try status(["-u", "prometheus:wrong"]) == "401")
        #expect(try status(["-u", "nobody:scrape-me"]) == "401")
        #expect(try status([]) == "401")
        // The 401 says which scheme, not which part was wrong.
        let headers = try run("curl", ["-s", "-D", "-", "-o", "/dev/null", "--cacert", "cert.pem", url], in: folder)
            .output
        #expect(headers.contains("WWW-Authenticate: Basic realm=\"mempressure\""))
        // Plain HTTP to the TLS port gets no HTTP answer.
        let plain = try run(
            "curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/metrics"], in: folder)
        #expect(plain.status != 0)
        #expect(plain.output == "000")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        for secret in ["scrape-me", "$2b$10$"] { #expect(!(announced + rest).contains(secret)) }
    }

    @Test(
        "an expired certificate, a hash that is not bcrypt and an unknown key are reported at start, exit 64",
        .enabled(if: builtWithTLS))
    func badConfigurations() throws {
        let expired = try webConfigFolder(days: -1)
        defer { try? FileManager.default.removeItem(at: expired) }
        let result = try runMempressure([
            "watch", "--metrics-port", "0", "--count", "1", "--web-config",
            expired.appendingPathComponent("web.yml").path,
        ])
        #expect(result.status == 64)
        #expect(result.standardError.contains("cert_file"), "\(result.standardError)")
        #expect(result.standardError.contains("the certificate expired on"))
        let folder = try webConfigFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("web.yml")
        try "basic_auth_users:\n  prometheus: plain-text-password\n".write(
            to: config, atomically: true, encoding: .utf8)
        let plain = try runMempressure(["watch", "--metrics-port", "0", "--count", "1", "--web-config", config.path])
        #expect(plain.status == 64)
        #expect(plain.standardError.contains("basic_auth_users.prometheus: expected a bcrypt hash"))
        #expect(!plain.standardError.contains("plain-text-password"))
        try "tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n  client_auth_typo: x\n".write(
            to: config, atomically: true, encoding: .utf8)
        let typo = try runMempressure(["watch", "--metrics-port", "0", "--count", "1", "--web-config", config.path])
        #expect(typo.status == 64)
        #expect(typo.standardError.contains("client_auth_typo"), "\(typo.standardError)")
    }

    @Test(
        "built without the TLS trait, a tls_server_config is refused at start, exit 64, saying how to get TLS",
        .disabled(if: builtWithTLS))
    func noTLSInThisBuild() throws {
        let folder = try webConfigFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runMempressure([
            "watch", "--metrics-port", "0", "--count", "1", "--web-config",
            folder.appendingPathComponent("web.yml").path,
        ])
        #expect(result.status == 64)
        #expect(result.standardError.contains("tls_server_config: this mempressure was built without TLS"))
        #expect(result.standardError.contains("default traits"), "\(result.standardError)")
    }

    @Test("beyond loopback without a web configuration needs --allow-open-metrics, which warns")
    func openBeyondLoopback() throws {
        let refused = try runMempressure([
            "watch", "--metrics-port", "0", "--metrics-address", "0.0.0.0", "--count", "1",
        ])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--allow-open-metrics"), "\(refused.standardError)")
        let local = try runMempressure([
            "watch", "--metrics-port", "0", "--metrics-address", "::1", "--count", "1", "--interval", "0.1",
        ])
        #expect(!local.standardError.contains("--allow-open-metrics"), "\(local.standardError)")
    }
}
