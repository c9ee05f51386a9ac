import MemoryPressure
import MemoryPressureMetrics
import MemoryPressureMetricsServer
import Prometheus

/// `watch --metrics-port`: an engine's metrics (``EngineMetrics``) kept in a swift-prometheus
/// registry and served at `http://ADDRESS:PORT/metrics` in the Prometheus text exposition format,
/// with `# HELP` lines from ``EngineMetrics/catalog(labelPrefix:)``, by a ``MetricsServer`` on
/// SwiftNIO. No global metrics system is bootstrapped: the factory is passed to
/// ``EngineMetrics`` directly.
final class MetricsEndpoint {
    /// The address watch listens on unless `--metrics-address` says otherwise: this machine only.
    static let defaultAddress = "127.0.0.1"

    private let metrics: EngineMetrics
    /// The server, to run in watch's service group.
    let server: MetricsServer

    /// Attaches metrics to `engine`, binds `address`:`port` and starts serving.
    ///
    /// - Throws: ``CLIError`` (usage, exit 64) if the address or port cannot be listened on.
    init(engine: PressureEngine, address: String, port: Int, access: MetricsServer.Access) async throws {
        let registry = PrometheusCollectorRegistry()
        do {
            metrics = try EngineMetrics(engine: engine, factory: PrometheusMetricsFactory(registry: registry))
        } catch {
            throw CLIError.usage("\(error)")
        }
        let catalog = EngineMetrics.catalog()
        do {
            server = try await MetricsServer.bind(host: address, port: port, access: access) {
                MetricDescription.addingHelp(to: registry.emitToBuffer(), from: catalog)
            }
        } catch {
            throw CLIError.usage("--metrics-port/--metrics-address: \(error)")
        }
        let host = address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address
        let scheme = access.isTLS ? "https" : "http"
        let users = access.authenticator == nil ? "" : " (basic authentication)"
        StandardError.write(
            "mempressure: serving metrics at \(scheme)://\(host):\(server.port)\(MetricsHTTPHandler.path)\(users)\n")
    }

    /// Counts `events` (drained from the engine's log) and refreshes the gauges.
    ///
    /// - Complexity: O(events)
    func record(_ events: [Event]) {
        metrics.record(events)
    }
}
