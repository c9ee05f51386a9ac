// Access to the per-app records: the hot record in `apps`, the rest in `extras`.

extension PressureEngine {
    /// The extras of app `index` (empty if it has none).
    @inline(__always)
    func extras(_ index: Int) -> AppExtras {
        extras[Int32(truncatingIfNeeded: index)] ?? AppExtras()
    }

    /// Changes the extras of app `index` in place; an entry left empty is removed.
    @discardableResult
    func withExtras<R>(_ index: Int, _ body: (inout AppExtras) throws -> R) rethrows -> R {
        let key = Int32(truncatingIfNeeded: index)
        let result = try body(&extras[key, default: AppExtras()])
        if extras[key]?.isEmpty == true { extras[key] = nil }
        return result
    }

    /// The memory limit that applies to app `index` in its current state (0: none): the active
    /// limit while it executes (foreground, or background with an assertion — a background mode
    /// in use or a task), the inactive one while suspended, as XNU's
    /// `memstat_proc_is_active_locked()` judges a managed process active while it holds assertions.
    @inline(__always)
    func currentLimit(of index: Int) -> Int64 {
        guard apps[index].flags.contains(.hasLimit) else { return 0 }
        let extras = extras(index)
        return apps[index].state.isExecuting ? extras.limitActive : extras.limitInactive
    }
}
