import MemoryPressure
import MemoryPressureMetrics
import Prometheus

/// `watch --metrics-port`: an engine's metrics (``EngineMetrics``) kept in a swift-prometheus
/// registry and served at `http://ADDRESS:PORT/metrics` in the Prometheus text exposition format,
/// with `# HELP` lines from ``EngineMetrics/catalog(labelPrefix:)``. No global metrics system is
/// bootstrapped: the factory is passed to ``EngineMetrics`` directly.
final class MetricsEndpoint {
    /// The address watch listens on unless `--metrics-address` says otherwise: this machine only.
    static let defaultAddress = "127.0.0.1"

    private let metrics: EngineMetrics
    private let server: MetricsHTTPServer

    /// Attaches metrics to `engine`, binds `address`:`port` and starts serving.
    ///
    /// - Throws: ``CLIError`` (usage, exit 64) if the address or port cannot be listened on.
    init(engine: PressureEngine, address: String, port: Int) throws {
        let registry = PrometheusCollectorRegistry()
        do {
            metrics = try EngineMetrics(engine: engine, factory: PrometheusMetricsFactory(registry: registry))
        } catch {
            throw CLIError.usage("\(error)")
        }
        let catalog = EngineMetrics.catalog()
        do {
            server = try MetricsHTTPServer(address: address, port: port) {
                MetricDescription.addingHelp(to: registry.emitToBuffer(), from: catalog)
            }
        } catch {
            throw CLIError.usage("--metrics-port/--metrics-address: \(error)")
        }
        server.start()
        let host = address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address
        StandardError.write("mempressure: serving metrics at http://\(host):\(server.port)\(MetricsHTTPServer.path)\n")
    }

    /// Counts `events` (drained from the engine's log) and refreshes the gauges.
    ///
    /// - Complexity: O(events)
    func record(_ events: [Event]) {
        metrics.record(events)
    }

    /// Stops serving and frees the port.
    func stop() {
        server.stop()
    }
}
