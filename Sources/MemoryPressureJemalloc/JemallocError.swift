/// Everything that can go wrong when using jemalloc arenas.
public enum JemallocError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A `mallctl` control failed; the payload names the control and the errno.
    case control(MallctlError)
    /// `mallocx` returned `NULL`: jemalloc could not provide `bytes` bytes in `arena`.
    case outOfMemory(bytes: Int, arena: ArenaIndex)
    /// A size was negative (or otherwise unusable); sizes must be zero or more bytes.
    case invalidSize(bytes: Int64)
    /// A chunk size outside the allowed range was requested for a ``TenantMemory``.
    case invalidChunkSize(bytes: Int64)
    /// The arena was used after ``JemallocArena/destroy()``.
    case arenaDestroyed(ArenaIndex)
    /// The allocation does not belong to this arena or tenant, or was already freed.
    case unknownAllocation

    /// What failed and what was expected.
    public var description: String {
        switch self {
        case .control(let error):
            return error.description
        case .outOfMemory(let bytes, let arena):
            return "mallocx of \(bytes) bytes in arena \(arena) returned NULL; expected enough memory for it"
        case .invalidSize(let bytes):
            return "size of \(bytes) bytes; expected zero or more bytes"
        case .invalidChunkSize(let bytes):
            return "chunk size of \(bytes) bytes; expected a power of two from 16 KiB to 4 MiB"
        case .arenaDestroyed(let arena):
            return "arena \(arena) was used after destroy(); expected a live arena"
        case .unknownAllocation:
            return "allocation is not live in this arena; expected an allocation it made and has not freed"
        }
    }
}

extension MallctlError {
    /// This error as a ``JemallocError``.
    var asJemallocError: JemallocError { .control(self) }
}
