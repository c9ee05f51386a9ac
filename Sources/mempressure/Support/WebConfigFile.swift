import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureMetricsServer
#if TLS
    import NIOSSL
#endif

/// `watch --web-config FILE`: the Prometheus exporters' web configuration (exporter-toolkit's
/// `web-config.yml`, github.com/prometheus/exporter-toolkit, docs/web-configuration.md), so an
/// operator reuses the file their other exporters read:
///
///     tls_server_config:
///       cert_file: server.crt          # PEM; relative paths are from the file's folder
///       key_file: server.key
///       client_ca_file: clients.crt    # optional: CAs for client certificates
///       client_auth_type: RequireAndVerifyClientCert   # optional; default NoClientCert
///       min_version: TLS12             # optional: TLS10…TLS13
///     basic_auth_users:
///       prometheus: $2y$10$…           # bcrypt hashes
///
/// `http_server_config` is accepted and ignored (its HTTP/2 and header settings do not apply).
enum WebConfigFile {
    /// The access `path` describes.
    ///
    /// - Throws: ``CLIError`` 66 when a file cannot be read, 64 for a configuration that cannot
    ///   serve (a bad key, an unknown client_auth_type, a hash that is not bcrypt, a certificate
    ///   or key that does not load, a certificate outside its validity period) — naming the file,
    ///   the field and, for a certificate, its dates. No password hash is ever printed.
    static func load(_ path: String, now: Date = Date()) throws -> MetricsServer.Access {
        let name = InputFile.displayName(path)
        let text = try InputFile.read(path)
        let folder = (path as NSString).deletingLastPathComponent
        func resolved(_ file: String) -> String {
            file.hasPrefix("/") || folder.isEmpty ? file : folder + "/" + file
        }
        /// What `tls_server_config` says, read before the files it names are loaded.
        struct TLSFields {
            var certificateFile: String, keyFile: String, clientCAFile: String?, authType: String
            var minimum: String?, maximum: String?
        }
        var tlsFields: TLSFields?
        var users: [String: String]?
        do throws(InputError) {
            let root = try ConfigObject(try ConfigNode.parseYAML(text, file: name), file: name)
            if let server = try root.optionalObject("tls_server_config") {
                let certificateFile = resolved(try server.string("cert_file"))
                let keyFile = resolved(try server.string("key_file"))
                let clientCAFile = try server.optionalString("client_ca_file").map(resolved)
                let authType = try server.optionalString("client_auth_type") ?? "NoClientCert"
                let minimum = try server.optionalString("min_version")
                let maximum = try server.optionalString("max_version")
                _ = try server.optionalStringList("cipher_suites")
                _ = try server.optionalStringList("curve_preferences")
                _ = try server.optionalBool("prefer_server_cipher_suites")
                try server.finish()
                tlsFields = TLSFields(
                    certificateFile: certificateFile, keyFile: keyFile, clientCAFile: clientCAFile, authType: authType,
                    minimum: minimum, maximum: maximum)
            }
            if let list = try root.optionalObject("basic_auth_users") {
                var found: [String: String] = [:]
                for user in list.keys {
                    let hash = try list.string(user)
                    guard BasicAuthenticator.isBcrypt(hash) else {
                        throw list.error(
                            "basic_auth_users.\(user.escapingControlCharacters()): expected a bcrypt hash ($2a$, $2b$ or "
                                + "$2y$, 60 characters; `htpasswd -nbB USER PASSWORD` makes one), found something else")
                    }
                    found[user] = hash
                }
                try list.finish()
                users = found.isEmpty ? nil : found
            }
            _ = root.optional("http_server_config")
            try root.finish()
        } catch {
            throw CLIError.usage("--web-config: \(error.description)")
        }
        let authenticator = users.map { BasicAuthenticator(users: $0) }
        #if TLS
            let tls = try tlsFields.map { fields in
                try Self.context(
                    certificateFile: fields.certificateFile, keyFile: fields.keyFile, clientCAFile: fields.clientCAFile,
                    authType: fields.authType, minimum: fields.minimum, maximum: fields.maximum, file: name, now: now)
            }
            return MetricsServer.Access(tls: tls, authenticator: authenticator)
        #else
            if tlsFields != nil {
                throw CLIError.usage(
                    "--web-config: \(name): tls_server_config: this mempressure was built without TLS (the "
                        + "package's TLS trait was disabled); build it with its default traits "
                        + "(`swift build -c release --product mempressure`, `make install`), or leave "
                        + "tls_server_config out to serve plain HTTP")
            }
            return MetricsServer.Access(authenticator: authenticator)
        #endif
    }

    #if TLS
        /// The TLS context of a `tls_server_config`.
        private static func context(
            certificateFile: String, keyFile: String, clientCAFile: String?, authType: String, minimum: String?,
            maximum: String?, file: String, now: Date
        ) throws -> NIOSSLContext {
            func versions(_ text: String?, field: String) throws -> TLSVersion? {
                guard let text else { return nil }
                switch text {
                case "TLS10": return .tlsv1
                case "TLS11": return .tlsv11
                case "TLS12": return .tlsv12
                case "TLS13": return .tlsv13
                default:
                    throw CLIError.usage(
                        "--web-config: \(file): tls_server_config.\(field): expected TLS10, TLS11, TLS12 or TLS13, found \(text.quotedExcerpt())"
                    )
                }
            }
            let chain: [NIOSSLCertificate]
            do {
                chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
            } catch {
                throw CLIError.usage(
                    "--web-config: \(file): tls_server_config.cert_file \(certificateFile): cannot be loaded as a PEM certificate (\(error))"
                )
            }
            guard let leaf = chain.first else {
                throw CLIError.usage(
                    "--web-config: \(file): tls_server_config.cert_file \(certificateFile): holds no certificate")
            }
            let seconds = time_t(now.timeIntervalSince1970)
            if leaf.notValidAfter < seconds {
                throw CLIError.usage(
                    "--web-config: \(file): tls_server_config.cert_file \(certificateFile): the certificate expired on "
                        + "\(Self.date(leaf.notValidAfter)); renew it")
            }
            if leaf.notValidBefore > seconds {
                throw CLIError.usage(
                    "--web-config: \(file): tls_server_config.cert_file \(certificateFile): the certificate is not valid "
                        + "before \(Self.date(leaf.notValidBefore))")
            }
            let key: NIOSSLPrivateKey
            do {
                key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
            } catch {
                throw CLIError.usage(
                    "--web-config: \(file): tls_server_config.key_file \(keyFile): cannot be loaded as a PEM private key (\(error))"
                )
            }
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            configuration.minimumTLSVersion = try versions(minimum, field: "min_version") ?? .tlsv12
            if let maximum = try versions(maximum, field: "max_version") { configuration.maximumTLSVersion = maximum }
            switch authType {
            case "NoClientCert":
                configuration.certificateVerification = .none
            case "RequireAndVerifyClientCert":
                guard let clientCAFile else {
                    throw CLIError.usage(
                        "--web-config: \(file): tls_server_config.client_auth_type \(authType) needs client_ca_file")
                }
                configuration.certificateVerification = .noHostnameVerification
                configuration.trustRoots = .file(clientCAFile)
            default:
                throw CLIError.usage(
                    "--web-config: \(file): tls_server_config.client_auth_type: expected NoClientCert or "
                        + "RequireAndVerifyClientCert (the others are not supported), found \(authType.quotedExcerpt())"
                )
            }
            do {
                return try NIOSSLContext(configuration: configuration)
            } catch {
                throw CLIError.usage(
                    "--web-config: \(file): tls_server_config: the certificate and key do not make a TLS context (\(error))"
                )
            }
        }
    #endif

    /// `2026-11-24 20:13:25 UTC`.
    private static func date(_ time: time_t) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }
}
