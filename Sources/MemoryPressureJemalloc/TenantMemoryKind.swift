/// What a tenant's memory is for, which decides when it can be released.
public enum TenantMemoryKind: String, CaseIterable, Hashable, Sendable {
    /// Memory the app needs to run; released only when the app is killed (the arena is reset).
    case base
    /// Views of view controllers that are loaded but offscreen: released on a memory warning
    /// (`viewDidUnload`) and rebuilt when shown again.
    case viewCache
    /// Registered caches of recreatable data: released on a memory warning or by the system.
    case purgeableCache
}
