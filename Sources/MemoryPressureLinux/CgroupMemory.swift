import MemoryPressure

/// The memory use and limit of the cgroup a process runs in.
public struct CgroupMemory: Hashable, Sendable {
    /// Which cgroup hierarchy the numbers come from.
    public enum Version: Int, Hashable, Sendable {
        /// The legacy memory controller (`memory.usage_in_bytes`, `memory.limit_in_bytes`).
        case v1 = 1
        /// The unified hierarchy (`memory.current`, `memory.max`).
        case v2 = 2
    }

    /// The hierarchy the numbers come from.
    public var version: Version
    /// The cgroup's path inside its hierarchy, as in `/proc/<pid>/cgroup` (such as `/user.slice`).
    public var path: String
    /// Memory charged to the cgroup now (`memory.current` or `memory.usage_in_bytes`).
    public var current: Bytes
    /// The hard limit (`memory.max` or `memory.limit_in_bytes`); `nil` when unlimited.
    public var limit: Bytes?

    /// Cgroup numbers from their parts; see each property.
    ///
    /// - Complexity: O(1)
    public init(version: Version, path: String, current: Bytes, limit: Bytes?) {
        self.version = version
        self.path = path
        self.current = current
        self.limit = limit
    }
}
