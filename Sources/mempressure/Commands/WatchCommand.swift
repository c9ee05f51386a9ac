import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureLinux
import Logging
import MemoryPressureMetrics
import MemoryPressureMetricsServer
import ServiceLifecycle

/// `mempressure watch`: the live pressure level and the next victims, refreshed as memory changes.
/// It runs as a swift-service-lifecycle `ServiceGroup`: the refresh loop (``WatchRefresher``,
/// driven by its own clock and nothing else) and, with `--metrics-port`, the metrics server.
/// SIGTERM or SIGINT, or the last of `--count` refreshes, shuts the group down gracefully: the
/// server stops accepting, lets scrapes in flight finish and frees the port.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch this Linux machine: its pressure level under a policy and the next victims (a dry run).",
        discussion: """
            Every interval, /proc is read again and the kill order updated in place; nothing is \
            ever signalled. The refreshes keep to --interval whatever the metrics clients do. \
            Ctrl-C or SIGTERM ends the watch cleanly.

            With --metrics-port PORT, the engine's metrics are served at \
            http://127.0.0.1:PORT/metrics in the Prometheus text exposition format: \
            mempressure_pressure_level, mempressure_memory_free_bytes, mempressure_memory_used_bytes, \
            mempressure_memory_limit_bytes (gauges); mempressure_memory_warnings_total{level}, \
            mempressure_kills_total{reason,band}, mempressure_pressure_level_changes_total{to}, \
            mempressure_freed_bytes_total{by} (counters; here the kills are those a dry run would \
            make). README.md, "Metrics for operators", lists their units and what to chart them beside.
            """
    )

    @OptionGroup var policy: PolicyOption

    @Option(parsing: .unconditional, help: "Seconds between refreshes: above 0, at most 3600.")
    var interval: Double = 2

    @Option(parsing: .unconditional, help: "How many victims to show: 1...10000.")
    var top: Int = 5

    @Option(parsing: .unconditional, help: "Stop after this many refreshes: 1...1000000 (default: until Ctrl-C).")
    var count: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Serve Prometheus metrics at http://ADDRESS:PORT/metrics: a TCP port 1...65535 (0: any free port, "
                + "printed on standard error). Off by default.",
            valueName: "port"))
    var metricsPort: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The IPv4 or IPv6 address --metrics-port listens on (default: \(MetricsEndpoint.defaultAddress), "
                + "this machine only; 0.0.0.0 for every interface, with --web-config or --allow-open-metrics).",
            valueName: "address"))
    var metricsAddress: String?

    @Option(
        help: ArgumentHelp(
            "Protect the metrics with TLS and/or basic authentication: the Prometheus exporters' web configuration "
                + "file (tls_server_config: cert_file, key_file, client_ca_file, client_auth_type; basic_auth_users: "
                + "name: bcrypt hash).",
            valueName: "file"))
    var webConfig: String?

    @Flag(
        help: ArgumentHelp(
            "Serve the metrics beyond this machine (--metrics-address not a loopback address) with no --web-config: "
                + "anyone who can reach the port reads them, in clear text. Prints a warning."))
    var allowOpenMetrics = false

    func validate() throws {
        // Written so that NaN fails too (every comparison with NaN is false).
        guard interval > 0 && interval <= 3600 else {
            throw ValidationError("--interval must be a number of seconds above 0 and at most 3600, got \(interval)")
        }
        try OptionRange.check(top, in: 1...10_000, "--top")
        try OptionRange.check(count, in: 1...1_000_000, "--count")
        if let metricsPort, !(0...65535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be 1...65535 (or 0 for any free port), got \(metricsPort)")
        }
        if webConfig != nil && metricsPort == nil { throw ValidationError("--web-config needs --metrics-port") }
        if allowOpenMetrics && metricsPort == nil { throw ValidationError("--allow-open-metrics needs --metrics-port") }
        if let metricsAddress {
            guard metricsPort != nil else { throw ValidationError("--metrics-address needs --metrics-port") }
            do {
                try MetricsServerError.validate(address: metricsAddress)
            } catch {
                throw ValidationError("--metrics-address: \(error)")
            }
            if webConfig == nil, !Self.isLoopback(metricsAddress), !allowOpenMetrics {
                throw ValidationError(
                    "--metrics-address \(metricsAddress) serves the metrics beyond this machine: give --web-config FILE "
                        + "(TLS, basic authentication), or --allow-open-metrics to serve them in clear text to anyone")
            }
        }
    }

    func run() async throws {
        try await reportingErrorsAsync {
            let policy = try PolicyOption.refusingClairvoyant(try policy.resolve(), in: "watch")
            let ranking: LiveKillOrder
            do {
                ranking = try LiveKillOrder(policy: policy, includingKernelScores: false)
            } catch {
                throw CLIError.notFound("cannot read this machine's memory: \(error)")
            }
            var endpoint: MetricsEndpoint?
            if let metricsPort {
                let access = try webConfig.map { try WebConfigFile.load($0) } ?? .open
                let address = metricsAddress ?? MetricsEndpoint.defaultAddress
                if webConfig == nil && !Self.isLoopback(address) {
                    StandardError.write(
                        "mempressure: warning: serving metrics on \(address) with no TLS and no authentication "
                            + "(--allow-open-metrics): anyone who can reach the port reads them\n")
                }
                endpoint = try await MetricsEndpoint(
                    engine: ranking.engine, address: address, port: metricsPort, access: access)
            }
            let refresher = WatchRefresher(
                interval: interval, count: count,
                refresh: UncheckedSendableBox { [self] elapsed in
                    let events = try ranking.refresh(at: elapsed)
                    endpoint?.record(events)
                    try StandardOutput.write(frame(ranking, events: events, elapsed: elapsed))
                })
            var services = [
                ServiceGroupConfiguration.ServiceConfiguration(
                    service: refresher, successTerminationBehavior: .gracefullyShutdownGroup)
            ]
            if let server = endpoint?.server {
                services.append(.init(service: server, successTerminationBehavior: .gracefullyShutdownGroup))
            }
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: Logger(label: "mempressure.watch", factory: { _ in SwiftLogNoOpLogHandler() })))
            do {
                try await group.run()
            } catch let error as CLIError {
                throw error
            } catch let error as ServiceGroupError {
                throw CLIError.systemFailure("watch: \(error)")
            }
        }
    }

    /// Whether `address` (an IP literal) is this machine only: 127.0.0.0/8 or ::1.
    static func isLoopback(_ address: String) -> Bool {
        let literal =
            address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
        return literal.hasPrefix("127.") || literal == "::1" || literal == "0:0:0:0:0:0:0:1"
    }

    /// One refresh: the level, free memory, what a kill would do now, and the top victims.
    private func frame(_ ranking: LiveKillOrder, events: [Event], elapsed: Double) -> String {
        let engine = ranking.engine
        var out = String(format: "[%7.1fs] ", elapsed)
        out +=
            "policy \(engine.policy.name.escapingControlCharacters()): free \(engine.free.formatted) of \(engine.device.memory.formatted), "
        out += "level \(engine.level.name)"
        if let stall = ranking.snapshot.pressure {
            out += String(format: ", PSI some avg10 %.2f%%", stall.some.avg10)
            out += " (lmkd's default triggers: \(LMKDStallThresholds.defaults.level(of: stall).rawValue))"
            // What systemd-oomd's memory-pressure rule reads (for a cgroup; here the whole machine).
            if let rule = engine.policy.memoryPressureLimit, let full = stall.full {
                out += String(
                    format: ", full avg10 %.2f%% (systemd-oomd acts above %.2f%% held %gs)", full.avg10,
                    rule.limitPercent,
                    rule.durationSeconds)
            }
        }
        out += "\n"
        if let own = ranking.snapshot.excludedProcessID {
            out += "  (not ranked: this tool's own process, pid \(own.rawValue))\n"
        }
        let wouldKill = events.compactMap { event -> String? in
            if case .kill(let app, _, let reason, let notice, let freed) = event.kind {
                return "  would kill \(app.escaped) (\(reason.escapingControlCharacters()); \(notice.rawValue); "
                    + "frees \(freed.formatted))"
            }
            return nil
        }
        out += wouldKill.isEmpty ? "" : wouldKill.joined(separator: "\n") + "\n"
        let rows = engine.killOrder(limit: top).map {
            ["\($0.rank)", $0.app.rawValue, $0.footprint.formatted, $0.notice.rawValue, $0.reason]
        }
        out += TextTable.render([["RANK", "PROCESS", "RSS", "NOTICE", "REASON"]] + rows, rightAligned: [0, 2]) + "\n"
        return out
    }
}
