import MemoryPressure

/// Why ``EngineMetrics`` could not be attached.
public enum EngineMetricsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The label prefix cannot start a Prometheus metric name; `reason` says where and why.
    case invalidLabelPrefix(String, reason: String)

    /// The message, naming the field and what was expected.
    public var description: String {
        switch self {
        case .invalidLabelPrefix(let prefix, let reason):
            "labelPrefix \"\(prefix.escapingControlCharacters())\": \(reason); expected empty or a Prometheus metric name [a-zA-Z_:][a-zA-Z0-9_:]*"
        }
    }
}
