/// A jemalloc arena of its own (`arenas.create`): allocations made through it live only in it,
/// bypass the thread cache, and can be measured, purged, reset or destroyed as one.
///
/// Its decay is set at creation (``ArenaDecay/explicitPurgeOnly`` by default, so freed pages
/// stay resident until ``purge()``). When the last reference goes away the arena is destroyed,
/// releasing every allocation still in it.
///
/// Not thread-safe: use one arena from one task at a time (jemalloc itself is thread-safe).
public final class JemallocArena {
    /// The arena's index (`arena.<i>.*`, `stats.arenas.<i>.*`, `MALLOCX_ARENA(i)`).
    public let index: ArenaIndex
    /// When the arena returns unused pages to the OS.
    public let decay: ArenaDecay
    /// Whether ``destroy()`` has run; a destroyed arena accepts no further calls.
    public private(set) var isDestroyed = false
    /// How many times ``reset()`` has run; allocations from before the last reset are gone.
    private var generation: UInt64 = 0
    /// The flags every `mallocx`/`sdallocx` of this arena uses.
    private let flags: Int32

    /// Creates a new arena (`arenas.create`) and sets its decay times
    /// (`arena.<i>.dirty_decay_ms`, `arena.<i>.muzzy_decay_ms`).
    ///
    /// - Throws: ``JemallocError/control(_:)`` if jemalloc cannot create or configure the arena.
    /// - Complexity: O(1)
    public init(decay: ArenaDecay = .explicitPurgeOnly) throws(JemallocError) {
        let created: UInt32
        do { created = try JemallocCalls.read("arenas.create", as: UInt32.self) } catch { throw .control(error) }
        self.index = ArenaIndex(rawValue: created)
        self.decay = decay
        self.flags = JemallocCalls.flags(arena: created)
        if let settings = decay.settings {
            do {
                try JemallocCalls.write("arena.\(created).dirty_decay_ms", settings.dirty)
                try JemallocCalls.write("arena.\(created).muzzy_decay_ms", settings.muzzy)
            } catch {
                try? JemallocCalls.run("arena.\(created).destroy")
                isDestroyed = true
                throw .control(error)
            }
        }
    }

    deinit {
        if !isDestroyed { try? JemallocCalls.run("arena.\(index).destroy") }
    }

    /// Allocates `size` bytes in this arena (`mallocx` with `MALLOCX_ARENA(i) | MALLOCX_TCACHE_NONE`).
    ///
    /// - Parameters:
    ///   - size: how many bytes, above 0.
    ///   - touchingPages: write one byte in every page, so the memory is really resident for the
    ///     operating system and not only counted by jemalloc.
    /// - Throws: ``JemallocError/invalidSize(bytes:)`` unless `size > 0`,
    ///   ``JemallocError/outOfMemory(bytes:arena:)``, ``JemallocError/arenaDestroyed(_:)``.
    /// - Complexity: O(1), or O(size / page size) when touching pages.
    public func allocate(_ size: Int, touchingPages: Bool = false) throws(JemallocError) -> ArenaAllocation {
        guard !isDestroyed else { throw .arenaDestroyed(index) }
        guard size > 0 else { throw .invalidSize(bytes: Int64(size)) }
        guard let pointer = JemallocCalls.allocate(size: size, flags: flags) else {
            throw .outOfMemory(bytes: size, arena: index)
        }
        if touchingPages {
            let bytes = pointer.assumingMemoryBound(to: UInt8.self)
            var offset = 0
            while offset < size {
                bytes[offset] = 1
                offset += 4096
            }
            bytes[size - 1] = 1
        }
        return ArenaAllocation(pointer: pointer, size: size, arena: index, generation: generation)
    }

    /// Frees `allocation` (`sdallocx` with the same size and flags). Its pages become dirty: they
    /// stay resident until ``purge()`` (or decay) returns them, whatever their size (the 8 MiB
    /// `opt.oversize_threshold` that returns huge frees at once applies to automatic arenas only,
    /// not to arenas from `arenas.create`; measured with jemalloc 5.3).
    ///
    /// - Throws: ``JemallocError/unknownAllocation`` if it was made by another arena or before a
    ///   ``reset()``, ``JemallocError/arenaDestroyed(_:)``.
    /// - Complexity: O(1)
    public func deallocate(_ allocation: ArenaAllocation) throws(JemallocError) {
        guard !isDestroyed else { throw .arenaDestroyed(index) }
        guard allocation.arena == index, allocation.generation == generation else { throw .unknownAllocation }
        JemallocCalls.deallocate(allocation.pointer, size: allocation.size, flags: flags)
    }

    /// The arena's current statistics (refreshing `epoch` first).
    ///
    /// - Complexity: O(number of arenas) for the refresh.
    public func statistics() throws(JemallocError) -> ArenaStatistics {
        guard !isDestroyed else { throw .arenaDestroyed(index) }
        return try ArenaStatistics.read(arena: index)
    }

    /// Returns every unused dirty (and muzzy) page of the arena to the OS (`arena.<i>.purge`).
    ///
    /// - Complexity: O(dirty extents).
    public func purge() throws(JemallocError) {
        guard !isDestroyed else { throw .arenaDestroyed(index) }
        try Self.purge(index)
    }

    /// Discards every allocation in the arena at once (`arena.<i>.reset`) and purges the pages
    /// they used. Every ``ArenaAllocation`` made so far becomes invalid: callers must drop
    /// their pointers (``deallocate(_:)`` rejects them). The arena stays usable.
    ///
    /// - Complexity: O(live allocations + dirty extents).
    public func reset() throws(JemallocError) {
        guard !isDestroyed else { throw .arenaDestroyed(index) }
        do {
            try JemallocCalls.run("arena.\(index).reset")
            generation &+= 1
            try JemallocCalls.run("arena.\(index).purge")
        } catch {
            throw .control(error)
        }
    }

    /// Discards every allocation and all metadata of the arena (`arena.<i>.destroy`); its pages
    /// go back to the OS and jemalloc may reuse the index for a later arena. The arena accepts no
    /// further calls.
    ///
    /// - Complexity: O(live allocations + extents).
    public func destroy() throws(JemallocError) {
        guard !isDestroyed else { throw .arenaDestroyed(index) }
        do { try JemallocCalls.run("arena.\(index).destroy") } catch { throw .control(error) }
        isDestroyed = true
    }

    /// Purges the arena with index `arena` (`arena.<i>.purge`), or every arena for
    /// ``ArenaIndex/all``.
    ///
    /// - Throws: ``JemallocError/control(_:)`` naming `arena.<i>.purge`, for example with
    ///   `ENOENT` for an index beyond the arenas jemalloc has.
    /// - Complexity: O(dirty extents).
    public static func purge(_ arena: ArenaIndex) throws(JemallocError) {
        do { try JemallocCalls.run("arena.\(arena).purge") } catch { throw .control(error) }
    }
}
