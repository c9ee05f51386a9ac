import MemoryPressure

extension TenantMemory {
    /// Allocates `size` bytes of `kind` in the tenant's arena.
    ///
    /// - Parameters:
    ///   - size: how many bytes, 0 or more.
    ///   - kind: what the bytes are for, which decides when a warning or a kill releases them.
    ///   - label: a name to free it by later together with others (``free(label:)``).
    /// - Returns: the handle to free it with; a zero size allocates nothing but still gets one.
    /// - Throws: ``JemallocError/invalidSize(bytes:)`` for a negative size,
    ///   ``JemallocError/outOfMemory(bytes:arena:)`` (nothing stays allocated then),
    ///   ``JemallocError/arenaDestroyed(_:)``.
    /// - Complexity: O(size / chunk size + log chunk size), plus O(size / page size) when
    ///   touching pages.
    @discardableResult
    public func allocate(
        _ size: Bytes, kind: TenantMemoryKind = .base, label: String? = nil
    ) throws(JemallocError) -> TenantAllocation {
        guard size.value >= 0 else { throw .invalidSize(bytes: size.value) }
        var pieces: [ArenaAllocation] = []
        for pieceSize in Self.pieceSizes(for: Int(size.value), chunkSize: chunkSize) {
            do {
                pieces.append(try arena.allocate(pieceSize, touchingPages: touchesPages))
            } catch {
                for piece in pieces { try? arena.deallocate(piece) }
                throw error
            }
        }
        let handle = TenantAllocation(id: nextID, kind: kind, size: size, label: label)
        nextID += 1
        records[handle.id] = Record(handle: handle, pieces: pieces)
        if let label { idsByLabel[label, default: []].insert(handle.id) }
        bytesByKind[kind, default: 0] += size.value
        return handle
    }

    /// Frees `allocation`; its pages stay dirty (resident) until the next purge.
    ///
    /// - Returns: the bytes freed by our own counters (its requested size).
    /// - Throws: ``JemallocError/unknownAllocation`` if it is not live in this tenant.
    /// - Complexity: O(size / chunk size).
    @discardableResult
    public func free(_ allocation: TenantAllocation) throws(JemallocError) -> Bytes {
        guard let record = records[allocation.id], record.handle == allocation else { throw .unknownAllocation }
        return try free(record)
    }

    /// Frees every live allocation labelled `label`.
    ///
    /// - Returns: the bytes freed by our own counters (zero if none had that label).
    /// - Complexity: O(bytes freed / chunk size + allocations freed).
    @discardableResult
    public func free(label: String) throws(JemallocError) -> Bytes {
        var freed = Bytes.zero
        for id in (idsByLabel[label] ?? []).sorted() {
            if let record = records[id] { freed += try free(record) }
        }
        return freed
    }

    /// Frees every live allocation of any of `kinds`.
    ///
    /// - Returns: the bytes freed by our own counters.
    /// - Complexity: O(live allocations + bytes freed / chunk size).
    @discardableResult
    public func free(kinds: Set<TenantMemoryKind>) throws(JemallocError) -> Bytes {
        var freed = Bytes.zero
        for id in records.keys.sorted() {
            if let record = records[id], kinds.contains(record.handle.kind) { freed += try free(record) }
        }
        return freed
    }

    /// Frees one record's pieces and forgets it.
    func free(_ record: Record) throws(JemallocError) -> Bytes {
        for piece in record.pieces { try arena.deallocate(piece) }
        let handle = record.handle
        records[handle.id] = nil
        if let label = handle.label {
            idsByLabel[label]?.remove(handle.id)
            if idsByLabel[label]?.isEmpty == true { idsByLabel[label] = nil }
        }
        bytesByKind[handle.kind, default: 0] -= handle.size.value
        freedSinceLastPurge += handle.size.value
        return handle.size
    }

    /// The sizes of the `mallocx` calls a request of `size` bytes is split into: whole chunks,
    /// then the largest exact jemalloc size classes (a power of two plus a multiple of a quarter
    /// of it) down to 16 KiB, then one small remainder.
    ///
    /// - Complexity: O(size / chunk size + log chunk size).
    static func pieceSizes(for size: Int, chunkSize: Int) -> [Int] {
        var pieces: [Int] = []
        var remaining = size
        while remaining >= chunkSize {
            pieces.append(chunkSize)
            remaining -= chunkSize
        }
        while remaining >= 16 << 10 {
            let log2 = Int.bitWidth - 1 - remaining.leadingZeroBitCount
            let spacing = 1 << (log2 - 2)
            let piece = remaining & ~(spacing - 1)
            pieces.append(piece)
            remaining -= piece
        }
        if remaining > 0 { pieces.append(remaining) }
        return pieces
    }
}
