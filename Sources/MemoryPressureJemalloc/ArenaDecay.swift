/// When an arena returns its unused dirty pages to the operating system.
///
/// jemalloc keeps freed pages *dirty* (still resident, ready for reuse) and purges them with a
/// time-based decay curve. This engine wants purging to be a decision, so the default is
/// ``explicitPurgeOnly``: dirty pages stay until `arena.<i>.purge` (``JemallocArena/purge()``),
/// which is what makes "purge" events measurable and deterministic. Policies that let the
/// allocator do it use ``decay(milliseconds:)``.
public enum ArenaDecay: Hashable, Sendable {
    /// `dirty_decay_ms = -1` (never purge on its own) and `muzzy_decay_ms = 0`: freed pages stay
    /// resident until an explicit purge, which then returns them to the OS at once (`MADV_DONTNEED`,
    /// not the lazy `MADV_FREE`), so the arena's `resident` statistic drops immediately.
    case explicitPurgeOnly
    /// `dirty_decay_ms = milliseconds` and `muzzy_decay_ms = 0`: jemalloc purges dirty pages
    /// itself along its decay curve (on allocator activity, there is no background thread);
    /// explicit purges still work.
    case decay(milliseconds: Int)
    /// Keep jemalloc's defaults (`opt.dirty_decay_ms`, `opt.muzzy_decay_ms`, 10 s and 0 s in 5.3).
    case jemallocDefault

    /// The `(dirty, muzzy)` decay times to set, or `nil` to leave the arena's defaults.
    var settings: (dirty: Int, muzzy: Int)? {
        switch self {
        case .explicitPurgeOnly: return (-1, 0)
        case .decay(let milliseconds): return (milliseconds, 0)
        case .jemallocDefault: return nil
        }
    }
}
