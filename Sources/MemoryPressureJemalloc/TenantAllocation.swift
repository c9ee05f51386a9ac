import MemoryPressure

/// A live allocation of a ``TenantMemory``: a handle to free it by, with what it was for.
///
/// Two handles are equal when they name the same allocation.
public struct TenantAllocation: Hashable, Sendable {
    /// Unique within its tenant.
    public let id: UInt64
    /// What the memory is for.
    public let kind: TenantMemoryKind
    /// The bytes requested.
    public let size: Bytes
    /// An optional caller-chosen name (a view, a cache) to free several allocations together.
    public let label: String?
}
