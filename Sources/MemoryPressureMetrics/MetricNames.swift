/// The metric names under one prefix (see ``EngineMetrics/catalog(labelPrefix:)`` for what each is).
public struct MetricNames: Sendable, Hashable {
    /// Gauge: the pressure level, 0 normal, 1 warning, 2 urgent, 3 critical.
    public let pressureLevel: String
    /// Counter: level changes, by the level entered (`to`).
    public let pressureLevelChanges: String
    /// Gauge: free memory in bytes (usable − used; negative when overcommitted).
    public let memoryFree: String
    /// Gauge: memory in use in bytes (the apps' footprints plus memory used outside them).
    public let memoryUsed: String
    /// Gauge: usable memory in bytes (physical − the policy's reserve): the limit free memory is counted against.
    public let memoryLimit: String
    /// Counter: memory warnings delivered to apps, by warning level (`level`: 1 or 2).
    public let memoryWarnings: String
    /// Counter: kills, by `reason` and `band`.
    public let kills: String
    /// Counter: bytes freed, by what freed them (`by`: `kill` or a purge kind).
    public let freedBytes: String

    /// The names under `prefix` (joined with `_` unless empty). The prefix is not checked here;
    /// ``EngineMetrics/init(engine:labelPrefix:factory:)`` checks it.
    ///
    /// - Complexity: O(length of the prefix)
    public init(prefix: String) {
        func name(_ suffix: String) -> String { prefix.isEmpty ? suffix : prefix + "_" + suffix }
        pressureLevel = name("pressure_level")
        pressureLevelChanges = name("pressure_level_changes_total")
        memoryFree = name("memory_free_bytes")
        memoryUsed = name("memory_used_bytes")
        memoryLimit = name("memory_limit_bytes")
        memoryWarnings = name("memory_warnings_total")
        kills = name("kills_total")
        freedBytes = name("freed_bytes_total")
    }
}
