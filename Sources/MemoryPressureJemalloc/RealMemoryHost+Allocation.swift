import MemoryPressure

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Allocating and freeing engine bytes in an app's arena, at the host's scale.

extension RealMemoryHost {
    /// The mirror of `app`, which must have launched through the host.
    func existingMirror(of app: AppID, step: String) throws(RealMemoryError) -> AppMemoryMirror {
        guard let mirror = mirrors[app] else {
            let footprint = engine.status(of: app)?.footprint ?? .zero
            throw .outOfSync(
                app: app, step: "\(step) before any launch through the host", engine: footprint, mirrored: .zero)
        }
        return mirror
    }

    /// The mirror of `app`, with a new arena if it has none yet.
    func mirrorCreatingArena(for app: AppID) throws(RealMemoryError) -> AppMemoryMirror {
        if let mirror = mirrors[app] { return mirror }
        let memory: TenantMemory
        do {
            memory = try TenantMemory(
                name: app.rawValue, decay: configuration.pageReturn.arenaDecay, chunkSize: configuration.chunkSize,
                touchesPages: configuration.touchesPages)
        } catch .control(let error) where error.control == "arenas.create" && error.errno == EAGAIN {
            throw .arenaLimit(app: app, created: mirrors.count)
        } catch {
            throw .jemalloc(error, app: app)
        }
        let mirror = AppMemoryMirror(memory: memory)
        mirrors[app] = mirror
        return mirror
    }

    /// Allocates `engineBytes` (scaled) of `kind` in `mirror`'s arena.
    func allocate(
        _ engineBytes: Int64, kind: TenantMemoryKind, label: String?, in mirror: AppMemoryMirror, app: AppID
    ) throws(RealMemoryError) -> AppMemoryMirror.Part {
        do {
            return try allocatePart(engineBytes, kind: kind, label: label, in: mirror)
        } catch {
            throw .jemalloc(error, app: app)
        }
    }

    /// ``allocate(_:kind:label:in:app:)`` with jemalloc's own error.
    private func allocatePart(
        _ engineBytes: Int64, kind: TenantMemoryKind, label: String?, in mirror: AppMemoryMirror
    ) throws(JemallocError) -> AppMemoryMirror.Part {
        let allocation = try mirror.memory.allocate(
            configuration.realBytes(engineBytes, page: pageSize), kind: kind, label: label)
        return AppMemoryMirror.Part(allocation: allocation, engineBytes: engineBytes)
    }

    /// Throws ``RealMemoryError/outOfSync(app:step:engine:mirrored:)`` unless `mirror` holds at
    /// least `engineBytes` of base memory (or purgeable caches) to free.
    func checkHolds(
        _ engineBytes: Int64, purgeable: Bool, in mirror: AppMemoryMirror, app: AppID, step: String
    ) throws(RealMemoryError) {
        let held = (purgeable ? mirror.purgeable : mirror.base).reduce(0) { $0 + $1.engineBytes }
        guard held >= engineBytes else {
            throw .outOfSync(app: app, step: step, engine: Bytes(engineBytes), mirrored: Bytes(held))
        }
    }

    /// Frees `engineBytes` of base memory (or purgeable caches) of `mirror`, newest first; the
    /// last allocation touched is split (freed, and its remainder allocated again) when it holds
    /// more than is left to free. Does not purge. The caller checked that `mirror` holds that
    /// much (``checkHolds(_:purgeable:in:app:step:)``).
    ///
    /// - Returns: the real bytes freed (net of a split's new allocation) and their page allowance.
    func free(
        _ engineBytes: Int64, fromPurgeable purgeable: Bool, of mirror: AppMemoryMirror
    ) throws(JemallocError) -> (real: Bytes, allowance: Bytes) {
        var parts = purgeable ? mirror.purgeable : mirror.base
        defer { if purgeable { mirror.purgeable = parts } else { mirror.base = parts } }
        var remaining = engineBytes
        var real = Bytes.zero
        var allowance = Bytes.zero
        while remaining > 0, let last = parts.popLast() {
            real += try mirror.memory.free(last.allocation)
            allowance += pageAllowance(for: last.allocation.size)
            if last.engineBytes > remaining {
                let kind: TenantMemoryKind = purgeable ? .purgeableCache : .base
                let kept = try allocatePart(last.engineBytes - remaining, kind: kind, label: nil, in: mirror)
                real -= kept.allocation.size
                allowance += pageAllowance(for: kept.allocation.size)
                parts.append(kept)
                remaining = 0
            } else {
                remaining -= last.engineBytes
            }
        }
        return (real, allowance)
    }

    /// What page granularity can add to or take from the release of an allocation of `size` real
    /// bytes: half a page for rounding its scaled size to the nearest page, plus the one page of
    /// cache-oblivious padding jemalloc adds to each large (16 KiB or more) `mallocx` piece.
    func pageAllowance(for size: Bytes) -> Bytes {
        let pieces = TenantMemory.pieceSizes(for: Int(size.value), chunkSize: Int(configuration.chunkSize.value))
        let large = pieces.lazy.filter { $0 >= Self.smallestLargeSize }.count
        return Bytes(large * pageSize + pageSize / 2)
    }

    /// jemalloc's smallest large size class (`SC_LARGE_MINCLASS`, four pages): smaller pieces live in
    /// slabs, and a page-multiple one fills its slab exactly, without padding.
    static let smallestLargeSize = 16 << 10
}
