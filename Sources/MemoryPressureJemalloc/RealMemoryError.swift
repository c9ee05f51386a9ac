import MemoryPressure

/// Why a ``RealMemoryHost`` could not apply an action.
public enum RealMemoryError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The engine refused the action; nothing changed, in the engine or in real memory.
    case engine(EngineError)
    /// jemalloc failed while mirroring the action into `app`'s arena (or while creating the
    /// host). The host's real memory no longer follows the engine: discard the host.
    case jemalloc(JemallocError, app: AppID?)
    /// jemalloc would not create another arena (`arenas.create` failed with `EAGAIN`) for
    /// `app`'s first launch: a process has at most 4,095 arenas, and the host had created
    /// `created`. Nothing changed in real memory for the action; the engine applied it.
    case arenaLimit(app: AppID, created: Int)
    /// The configuration's scale is not a positive finite number.
    case invalidScale(Double)
    /// The engine's figure for `app` after `step` and the bytes the host had allocated for it
    /// (both in engine bytes) differ: the mirror missed an effect of the action. A bug; the
    /// host is unusable afterwards.
    case outOfSync(app: AppID, step: String, engine: Bytes, mirrored: Bytes)
    /// The policy compresses memory (`Policy.compression`): a host's arenas hold real bytes,
    /// which it cannot compress.
    case compressionNotMirrored(policy: String)
    /// The policy prewarms apps (`Policy.prediction.prewarm`): a prewarm launches an app no action
    /// describes, so the host does not know what to allocate for it.
    case prewarmNotMirrored(policy: String)

    /// What failed and what was expected.
    public var description: String {
        switch self {
        case .engine(let error):
            return error.description
        case .jemalloc(let error, let app):
            return "real memory\(app.map { " of \($0)" } ?? ""): \(error.description)"
        case .arenaLimit(let app, let created):
            return "cannot give \(app) an arena of its own: jemalloc refused to create one more after the \(created) "
                + "this host created (a process has at most 4095); expected fewer apps or tenants per process"
        case .invalidScale(let scale):
            return "scale \(scale); expected a positive finite number of real bytes per engine byte, such as 0.0625"
        case .outOfSync(let app, let step, let engine, let mirrored):
            return "\(app) after \(step): the engine counts \(engine.value) bytes but the host allocated "
                + "\(mirrored.value) engine bytes for it; expected the same figure"
        case .compressionNotMirrored(let policy):
            return "policy \(policy) compresses memory, which real arenas cannot mirror; expected a policy without "
                + "\"compression\""
        case .prewarmNotMirrored(let policy):
            return
                "policy \(policy) prewarms apps, which a real-memory host does not mirror; expected a policy without "
                + "\"prediction.prewarm\""
        }
    }
}
