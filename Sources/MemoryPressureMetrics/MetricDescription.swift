/// What one metric that ``EngineMetrics`` reports is: its name, type, labels, unit, meaning, and
/// the figure an operator would chart beside it from earlyoom, systemd-oomd or node_exporter.
///
/// The list of them (``EngineMetrics/catalog(labelPrefix:)``) is the contract: the README's
/// "Metrics for operators" table and the `# HELP` lines `mempressure watch --metrics-port` serves
/// are written from it.
public struct MetricDescription: Sendable, Hashable {
    /// The kind of time series, as the Prometheus text exposition format names it.
    public enum Kind: String, Sendable, Hashable {
        /// Only goes up (from 0 when the metrics were attached); swift-metrics' `Counter`.
        case counter
        /// Goes up and down; swift-metrics' `Gauge` (a non-aggregating `Recorder`).
        case gauge
    }

    /// The full metric name, prefix included (for example `mempressure_kills_total`).
    public var name: String
    /// Counter or gauge.
    public var kind: Kind
    /// The label names every series of this metric carries, in order, and their possible values.
    public var labels: [String]
    /// The unit: `bytes`, `level` (0 normal … 3 critical) or `events`.
    public var unit: String
    /// One line saying what the metric counts or measures (the `# HELP` text).
    public var help: String
    /// What to chart it beside, from earlyoom, systemd-oomd or node_exporter, with the source.
    public var analogue: String

    /// A description of one metric.
    ///
    /// - Complexity: O(1)
    public init(name: String, kind: Kind, labels: [String], unit: String, help: String, analogue: String) {
        self.name = name
        self.kind = kind
        self.labels = labels
        self.unit = unit
        self.help = help
        self.analogue = analogue
    }
}
