import MemoryPressure

/// One app's real memory as a ``RealMemoryHost`` keeps it: its arena, and which allocations in
/// it stand for which part of the engine's books, so that a purge frees exactly what the engine
/// released.
///
/// - Base memory and purgeable caches are stacks of allocations (kinds ``TenantMemoryKind/base``
///   and ``TenantMemoryKind/purgeableCache``), one per launch part or `allocate` action; a
///   `free` takes bytes from the top, splitting the last allocation if needed.
/// - Every loaded view is one allocation of kind ``TenantMemoryKind/viewCache`` labelled with
///   the view's name, whether it is onscreen or not: only the views the engine unloads are freed
///   (by label), never the onscreen one, so the host never calls
///   ``TenantMemory/releaseViewCaches(purging:)``.
final class AppMemoryMirror {
    /// One allocation and the engine bytes it stands for.
    struct Part {
        var allocation: TenantAllocation
        var engineBytes: Int64
    }

    /// The app's arena.
    let memory: TenantMemory
    /// Base memory, oldest first.
    var base: [Part] = []
    /// Purgeable caches, oldest first.
    var purgeable: [Part] = []
    /// The engine bytes of every view the app declared, loaded or not.
    var viewBytes: [String: Int64] = [:]
    /// The loaded views.
    var loadedViews: [String: Part] = [:]
    /// The view onscreen (never released by a purge), if any.
    var onscreenView: String?
    /// Views the engine unloaded (`viewDidUnload`), still allocated until their purge event.
    var unloadedViews: [Part] = []

    init(memory: TenantMemory) {
        self.memory = memory
    }

    /// The engine bytes the app's allocations stand for.
    var engineFootprint: Int64 {
        base.reduce(0) { $0 + $1.engineBytes } + purgeable.reduce(0) { $0 + $1.engineBytes }
            + loadedViews.values.reduce(0) { $0 + $1.engineBytes } + unloadedViews.reduce(0) { $0 + $1.engineBytes }
    }

    /// The label of view `name`'s allocation.
    static func label(ofView name: String) -> String { "view:" + name }

    /// Forgets every allocation (after the arena was reset) and every view.
    func clear() {
        base = []
        purgeable = []
        viewBytes = [:]
        loadedViews = [:]
        onscreenView = nil
        unloadedViews = []
    }
}
