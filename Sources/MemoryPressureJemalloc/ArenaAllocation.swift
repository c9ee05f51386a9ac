/// One live allocation in a ``JemallocArena``: the pointer `mallocx` returned and the size asked
/// for (which `sdallocx` needs back).
///
/// Only the arena that made it may free it, once, and only before the arena is reset or
/// destroyed (both discard every allocation at once).
public struct ArenaAllocation: Hashable {
    /// The start of the allocation.
    public let pointer: UnsafeMutableRawPointer
    /// The size requested, in bytes (jemalloc may have rounded it up to its size class).
    public let size: Int
    /// The arena it lives in.
    public let arena: ArenaIndex
    /// The arena's reset count when it was made: allocations from before a reset are gone.
    let generation: UInt64
}
