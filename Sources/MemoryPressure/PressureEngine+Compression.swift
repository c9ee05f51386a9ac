// Compressed memory (Policy.compression; the model is in docs/compression.md): reclaim moves part
// of idle apps' memory into a compressed pool before anything is killed, an app that runs again
// is decompressed, a kill frees the app's share of the pool, and a pool short of space kills.

import IndexedHeapModule

/// The engine's compressed-memory books: the model resolved on the device, the pool, each app's
/// share of it, and the apps that reclaim may compress next (only apps that are not executing:
/// suspended ones, in this lifecycle).
struct CompressionBooks {
    let model: MemoryCompression
    /// Reclaim starts below this free memory (exclusive bound, as the level thresholds).
    let startBelow: Int64
    /// And stops once free memory is not below this.
    let stopBelow: Int64
    /// The most uncompressed bytes the pool takes in.
    let capacity: Int64
    /// Uncompressed bytes in the pool above which the system is short of compressor space
    /// (`.max`: never).
    let shortageAbove: Int64
    /// The most memory zswap's cache takes, compressed (`.max` for another mechanism).
    let zswapLimit: Int64
    /// What a full zswap cache is written back down to: `accept_threshold_percent` of the limit.
    let zswapAcceptAt: Int64
    /// Uncompressed bytes in the pool.
    var pooled: Int64 = 0
    /// Each app's uncompressed bytes in the pool, by slot (grown on demand).
    var compressed: [Int64] = []
    /// Their compressed size, by slot.
    var stored: [Int64] = []
    /// Each app's clean file pages that reclaim dropped, by slot.
    var evicted: [Int64] = []
    /// Each app's pages that zswap sent on to the swap file (uncompressed, part of ``compressed``), by slot.
    var onDisk: [Int64] = []
    /// Whether each app's compressed memory is frozen (written to storage, out of the pool), by slot.
    var frozen: [Bool] = []
    /// When each app's memory last entered the pool (engine time), by slot: the thrashing rule's
    /// ages, and the order in which zswap writes its cache back.
    var compressedAt: [Double] = []
    /// Bytes reclaimed so far, compressed or dropped: the kernel's `nonresident_age`, which
    /// `workingset_eviction()` (mm/workingset.c) advances at every eviction.
    var evictionClock: Int64 = 0
    /// The eviction clock when each app's memory was reclaimed, by slot (the kernel's shadow
    /// entries): on its resume, the clock's advance since is the refault distance.
    var evictedAt: [Int64] = []
    /// The thrashing rule's running sample (its start is `nil` until the first compression or
    /// decompression after a reset).
    var thrashingSample = ThrashingSample()
    /// Whether the thrashing rule found thrashing: the next pressure evaluation kills once and clears it.
    var thrashingDetected = false
    /// Apps frozen now.
    var frozenCount = 0
    /// Suspended apps now (the freezer's threshold).
    var suspendedCount = 0
    /// What is left of the freezer's budget, and the day (of engine time) it is for.
    var budgetRemaining: Int64 = 0
    var budgetDay = -1
    /// The states in which each app may be compressed (``AppState/compressionBit``), by slot.
    var compressibleStates: [UInt8] = []
    /// Apps reclaim may compress: resident, in a compressible state, nothing reclaimed yet, at
    /// least a page to compress or drop. Keyed by the negated time they were last frontmost, so the
    /// least recently used is the maximum; under another ``MemoryCompression/Order``, re-keyed
    /// before each reclaim.
    var queue = IndexedHeap<Double>()
    /// The app of each queue handle index.
    var appByQueueSlot: [Int32] = []
    /// Each app's queue element, by slot.
    var handles: [IndexedHeapHandle?] = []

    /// The smallest amount worth compressing: one 4 KiB page.
    static let page: Int64 = 4096

    init(model: MemoryCompression, device: Device, inclusive: Int64) {
        self.model = model
        startBelow = model.startBelow.resolved(on: device).value &+ inclusive
        stopBelow = Swift.max(model.stopAt.resolved(on: device).value &+ inclusive, startBelow)
        let capacity = model.capacity.resolved(against: device.memory).value
        self.capacity = capacity
        shortageAbove = model.shortageAt.map { Int64((Double(capacity) * $0).rounded(.down)) } ?? .max
        zswapLimit = model.mechanism == .zswap ? (model.zswapPool?.resolved(against: device.memory).value ?? 0) : .max
        let accept = (model.zswapAcceptThresholdPercent ?? MemoryCompression.defaultZswapAcceptThresholdPercent) / 100
        zswapAcceptAt = model.mechanism == .zswap ? Int64((Double(zswapLimit) * accept).rounded(.down)) : .max
    }

    /// Makes room for slot `index` in the per-slot arrays.
    @inline(__always)
    mutating func ensure(_ index: Int) {
        guard index >= compressed.count else { return }
        let count = index + 1 - compressed.count
        compressed.append(contentsOf: repeatElement(0, count: count))
        stored.append(contentsOf: repeatElement(0, count: count))
        evicted.append(contentsOf: repeatElement(0, count: count))
        onDisk.append(contentsOf: repeatElement(0, count: count))
        frozen.append(contentsOf: repeatElement(false, count: count))
        compressedAt.append(contentsOf: repeatElement(0, count: count))
        evictedAt.append(contentsOf: repeatElement(0, count: count))
        compressibleStates.append(contentsOf: repeatElement(0, count: count))
        handles.append(contentsOf: repeatElement(nil, count: count))
    }
}

extension PressureEngine {
    /// What the compressed pool holds now, for reports and tests.
    public struct CompressionStatus: Sendable, Hashable {
        /// Uncompressed bytes in the pool.
        public var pooled: Bytes
        /// Memory the pool takes (their compressed size).
        public var stored: Bytes
        /// The most uncompressed bytes the pool takes in.
        public var capacity: Bytes
        /// Apps with memory in the pool.
        public var apps: Int
        /// Apps frozen (their compressed memory in storage).
        public var frozen: Int
    }

    /// The compressed pool, or `nil` when the policy has no compression.
    ///
    /// - Complexity: O(apps) (the apps with memory in the pool are counted).
    public var compressionStatus: CompressionStatus? {
        guard let books = compression else { return nil }
        return CompressionStatus(
            pooled: Bytes(books.pooled), stored: accountant.compressedPool, capacity: Bytes(books.capacity),
            apps: books.compressed.indices.reduce(0) { $0 + (books.compressed[$1] > 0 && !books.frozen[$1] ? 1 : 0) },
            frozen: books.frozenCount)
    }

    /// The uncompressed bytes of `app` in the compressed pool (0 when none, or when the app is
    /// unknown).
    ///
    /// - Complexity: O(1)
    public func compressedBytes(of app: AppID) -> Bytes {
        guard let books = compression, let slot = indexByID[app], Int(slot) < books.compressed.count else {
            return .zero
        }
        return Bytes(books.compressed[Int(slot)])
    }

    // The books are read and changed in place through `compression!`: binding them to a local
    // (`if let books = compression`) would share their arrays and make the next change copy them.

    /// Records in which states app `index` may be compressed, and queues or unqueues it.
    func setCompressibleStates(_ index: Int, _ states: UInt8) {
        guard hasCompression else { return }
        compression!.ensure(index)
        compression!.compressibleStates[index] = states
        syncCompressionQueue(index)
    }

    /// What zram or the swap file holds, uncompressed: the apps' swap entries in it (0 for XNU's
    /// compressor).
    @inline(__always)
    var poolSwapHeld: Int64 {
        guard hasCompression, compression!.model.mechanism.isSwap else { return 0 }
        return compression!.pooled
    }

    /// App `index`'s swap entries in zram or the swap file, uncompressed (0 for XNU's compressor):
    /// they count in `oom_badness` as `MM_SWAPENTS`.
    @inline(__always)
    func poolSwapEntries(of index: Int) -> Int64 {
        guard hasCompression, compression!.model.mechanism.isSwap, index < compression!.compressed.count else {
            return 0
        }
        return compression!.compressed[index]
    }

    /// The compressed size of app `index`'s share of the pool (0 without compression).
    @inline(__always)
    func storedBytes(of index: Int) -> Int64 {
        guard hasCompression, index < compression!.stored.count, !compression!.frozen[index] else { return 0 }
        return compression!.stored[index]
    }

    /// Follows a state change of app `index` from `old`: an app that runs again is decompressed
    /// whole, and the app is queued for reclaim or taken out as its new state requires.
    func compressionFollowsState(_ index: Int, from old: AppState) {
        guard hasCompression else { return }
        compression!.ensure(index)
        let new = apps[index].state
        if old == .suspended { compression!.suspendedCount -= 1 }
        if new == .suspended { compression!.suspendedCount += 1 }
        if new.isExecuting && isReclaimed(index) { decompress(index) }
        syncCompressionQueue(index)
    }

    /// Puts app `index` into the reclaim queue, or takes it out, as its state and memory require.
    ///
    /// - Complexity: O(log n)
    func syncCompressionQueue(_ index: Int) {
        guard hasCompression else { return }
        compression!.ensure(index)
        let state = apps[index].state
        // Only an app that is not executing is compressed, whatever the match says.
        let wanted =
            state.isResident && !state.isExecuting && compression!.compressibleStates[index] & state.compressionBit != 0
            && !isReclaimed(index) && reclaimableBytes(of: index) >= CompressionBooks.page
        if wanted && compression!.handles[index] == nil {
            let handle = compression!.queue.insert(-apps[cold: index].lastFrontmost)
            let known = compression!.appByQueueSlot.count
            if handle.index >= known {
                compression!.appByQueueSlot.append(contentsOf: repeatElement(-1, count: handle.index + 1 - known))
            }
            compression!.appByQueueSlot[handle.index] = Int32(index)
            compression!.handles[index] = handle
        } else if !wanted, let handle = compression!.handles[index] {
            compression!.queue.remove(handle)
            compression!.handles[index] = nil
        }
    }

    /// The bytes reclaim would compress in app `index`: the compressible share of its base memory.
    @inline(__always)
    func compressibleBytes(of index: Int) -> Int64 {
        guard hasCompression else { return 0 }
        return Int64((Double(apps[index].base) * compression!.model.compressible).rounded(.down))
    }

    /// The clean file pages reclaim would drop from app `index`: the file-backed share of its base memory.
    @inline(__always)
    func evictableBytes(of index: Int) -> Int64 {
        guard hasCompression else { return 0 }
        return Int64((Double(apps[index].base) * compression!.model.fileBacked).rounded(.down))
    }

    /// What reclaim would take from app `index` in all.
    @inline(__always)
    func reclaimableBytes(of index: Int) -> Int64 { compressibleBytes(of: index) &+ evictableBytes(of: index) }

    /// Whether reclaim took something from app `index` that it has not got back.
    @inline(__always)
    func isReclaimed(_ index: Int) -> Bool {
        compression!.compressed[index] > 0 || compression!.evicted[index] > 0
    }

    /// Whether reclaim can free anything more: the pool has room, or file pages can be dropped.
    @inline(__always)
    var reclaimHasRoom: Bool {
        compression!.pooled < compression!.capacity || compression!.model.fileBacked > 0
    }

    /// Whether reclaim would compress now: free memory below its start, an app to compress and
    /// room in the pool.
    @inline(__always)
    var compressionIsDue: Bool {
        guard hasCompression else { return false }
        return accountant.free.value < compression!.startBelow && !compression!.queue.isEmpty && reclaimHasRoom
    }

    /// Whether the pool is past its shortage line.
    @inline(__always)
    var compressorIsShort: Bool {
        guard hasCompression else { return false }
        return compression!.pooled > compression!.shortageAbove
    }

    /// Reclaim: while free memory is below the stop point, compresses the queued app that comes
    /// first in the compression order (the least recently used, unless stated), as far as the
    /// pool's capacity allows — or, under the prediction's `killInsteadOfCompressingAbove`, kills
    /// it when it is expected to be reopened only after more opens than that (and a band may kill
    /// it).
    ///
    /// - Complexity: O(log n) per app compressed or killed, plus O(hoursAhead) per prediction, plus
    ///   O(m log m) for the m queued apps under an order other than the least recently used.
    func reclaimByCompression() {
        guard compressionIsDue else { return }
        // With the prediction's switch, an app unlikely to be reopened soon is killed instead.
        let killAbove = reuse?.model.killInsteadOfCompressingAbove
        let round = killAbove == nil ? nil : reuse!.round(at: now)
        if compression!.model.order != .leastRecentlyUsed { rescoreCompressionQueue() }
        while accountant.free.value < compression!.stopBelow, reclaimHasRoom, let top = compression!.queue.max {
            let index = Int(compression!.appByQueueSlot[top.handle.index])
            if let killAbove, let round, apps[index].killHandle != nil,
                reuse!.prediction(of: index, in: round).opens > killAbove
            {
                killReasonPrefix = ReusePrediction.killInsteadOfCompressingReason
                kill(index)
                killReasonPrefix = nil
                continue
            }
            // An app that gives nothing (a full pool and no file pages worth a byte) ends reclaim.
            guard compress(index) else { break }
        }
    }

    /// Re-keys every app in the reclaim queue by the compression ``MemoryCompression/Order``
    /// (higher: compressed first), before reclaim starts: the keys depend on the clock and on the
    /// app opened last, as a ``BandOrder/predictedReuse`` band's do. The queue's order is read
    /// only by reclaim, so apps queued in between keep their recency key until then.
    ///
    /// - Complexity: O(m log m) for m queued apps, plus O(hoursAhead) per prediction.
    private func rescoreCompressionQueue() {
        let order = compression!.model.order
        let round = order == .predictedReuse ? reuse!.round(at: now) : nil
        for index in compression!.handles.indices {
            guard let handle = compression!.handles[index] else { continue }
            let key: Double
            switch order {
            case .leastRecentlyUsed: key = -apps[cold: index].lastFrontmost
            case .predictedReuse:
                // The least likely to be reopened within the horizon first (without one: the most
                // opens expected until reuse).
                let guess = reuse!.prediction(of: index, in: round!)
                key = reuse!.model.horizon.map { -ReuseBooks.reuseChance(guess, within: $0) } ?? guess.opens
            case .externalScore:
                key = externalScore?(apps[cold: index].id, Bytes(apps[index].footprint), now) ?? 0
            }
            compression!.queue.update(handle, to: key)
        }
    }

    /// Compresses the compressible share of app `index`'s base memory (what the pool still takes)
    /// and drops its clean file pages; returns whether it took anything.
    private func compress(_ index: Int) -> Bool {
        let model = compression!.model
        let bytes = Swift.min(compressibleBytes(of: index), compression!.capacity &- compression!.pooled)
        let evicted = evictableBytes(of: index)
        guard bytes > 0 || evicted > 0 else { return false }
        // Swap on storage keeps nothing in memory; zswap compresses what its cache has room for
        // and sends the rest to the swap file.
        var cached = model.mechanism == .swap ? 0 : bytes
        let appRatio = ratio(of: index)
        if model.mechanism == .zswap {
            let room = Swift.max(compression!.zswapLimit &- accountant.compressedPool.value, 0)
            cached = Swift.min(bytes, Int64((Double(room) * appRatio).rounded(.down)))
        }
        let stored = cached > 0 ? Swift.max(Int64((Double(cached) / appRatio).rounded(.up)), 1) : 0
        compression!.onDisk[index] = model.mechanism == .zswap ? bytes &- cached : 0
        compression!.compressed[index] = bytes
        compression!.stored[index] = stored
        compression!.compressedAt[index] = now
        compression!.evictionClock &+= bytes &+ evicted
        compression!.evictedAt[index] = compression!.evictionClock
        compression!.evicted[index] = evicted
        compression!.pooled &+= bytes
        apps[index].base &-= bytes &+ evicted
        accountant.chargePool(stored)
        charge(index, -(bytes &+ evicted))
        noteCompressedForThrashing(index, bytes: bytes)
        syncCompressionQueue(index)
        let seconds = Double(bytes) / 1_048_576 * model.compressSecondsPerMiB
        lastReclaimSeconds += seconds
        log(
            .compress(
                app: apps[cold: index].id, bytes: Bytes(bytes), stored: Bytes(stored), evicted: Bytes(evicted),
                seconds: seconds))
        if model.freezer != nil { freezeIfAllowed(index) }
        // zswap_store() found the cache at its limit: shrink_worker() writes it back.
        if model.mechanism == .zswap && (cached < bytes || accountant.compressedPool.value >= compression!.zswapLimit) {
            writeBackZswapCache()
        }
        swapChanged()
        return true
    }

    /// zswap's `shrink_worker()` (mm/zswap.c), run at once: while the cache takes more than its
    /// accept threshold, the pages stored longest ago are written back to the swap file — the
    /// app whose memory entered the cache first gives up its cached part, the last one only as
    /// much as brings the cache down to the threshold. The pages stay swapped (in the file now), so
    /// free swap does not change; the cache's memory is freed. Nobody waits for it.
    ///
    /// - Complexity: O(apps) for each app written back.
    private func writeBackZswapCache() {
        while accountant.compressedPool.value > compression!.zswapAcceptAt {
            var oldest = -1
            for index in compression!.compressed.indices
            where compression!.stored[index] > 0
                && (oldest < 0 || compression!.compressedAt[index] < compression!.compressedAt[oldest])
            {
                oldest = index
            }
            guard oldest >= 0 else { return }
            let stored = compression!.stored[oldest]
            let cached = compression!.compressed[oldest] &- compression!.onDisk[oldest]
            let excess = accountant.compressedPool.value &- compression!.zswapAcceptAt
            // Keep what stays under the threshold, in proportion to the app's own ratio.
            var keptStored = Swift.max(stored &- excess, 0)
            let keptCached =
                keptStored == 0 ? 0 : Int64((Double(cached) * Double(keptStored) / Double(stored)).rounded(.down))
            if keptCached == 0 { keptStored = 0 }
            compression!.stored[oldest] = keptStored
            compression!.onDisk[oldest] &+= cached &- keptCached
            accountant.chargePool(keptStored &- stored)
            log(
                .writeback(
                    app: apps[cold: oldest].id, bytes: Bytes(cached &- keptCached), stored: Bytes(stored &- keptStored))
            )
        }
    }

    /// Free swap moved (zram took or gave back pages): levels with a free-swap condition
    /// (earlyoom's) re-read it.
    @inline(__always)
    func swapChanged() {
        if hasSwapConditions && compression!.model.mechanism.isSwap { updateLevelBounds() }
    }

    /// Freezes app `index`, just compressed, if the freezer's rules allow: enough compressed
    /// memory, fewer than the most frozen apps, enough suspended apps, and budget left today.
    private func freezeIfAllowed(_ index: Int) {
        guard let freezer = compression!.model.freezer, apps[index].state == .suspended else { return }
        let day = Int((now / 86_400).rounded(.down))
        if day != compression!.budgetDay {
            compression!.budgetDay = day
            compression!.budgetRemaining = freezer.dailyBudget.value
        }
        let stored = compression!.stored[index]
        guard compression!.compressed[index] >= Swift.max(freezer.minimum.value, 1),
            compression!.frozenCount < freezer.maxFrozen,
            compression!.suspendedCount >= freezer.suspendedThreshold,
            stored <= compression!.budgetRemaining
        else { return }
        compression!.budgetRemaining -= stored
        compression!.frozen[index] = true
        compression!.frozenCount += 1
        compression!.pooled &-= compression!.compressed[index]
        accountant.chargePool(-stored)
        let seconds = Double(stored) / 1_048_576 * freezer.writeSecondsPerMiB
        log(.freeze(app: apps[cold: index].id, bytes: Bytes(stored), seconds: seconds))
    }

    /// The compression ratio of app `index` in its current state: the first matching entry of
    /// ``MemoryCompression/ratios``, else the model's ratio.
    ///
    /// - Complexity: O(entries × conditions), name patterns included.
    func ratio(of index: Int) -> Double {
        let model = compression!.model
        guard !model.ratios.isEmpty else { return model.ratio }
        let state = apps[index].state
        let subject = subject(of: index, in: state)
        return model.ratios.first { matcher.matchesAny($0.matches, subject, state: state) }?.ratio ?? model.ratio
    }

    /// Gives app `index` back what reclaim took: its compressed bytes leave the pool and its file
    /// pages are read again, all returning to its footprint.
    private func decompress(_ index: Int) {
        let model = compression!.model
        let bytes = compression!.compressed[index]
        let stored = compression!.stored[index]
        let refaulted = compression!.evicted[index]
        let onDisk = compression!.onDisk[index]
        let stalls = refaultIsRecent(index)
        if compression!.frozen[index], let freezer = model.freezer {
            // Read back from storage first: it waits for the read, then for the decompression.
            let seconds = Double(stored) / 1_048_576 * freezer.thawSecondsPerMiB
            noteRefault(bytes: 0, waited: seconds, stalls: stalls)
            log(.thaw(app: apps[cold: index].id, bytes: Bytes(stored), seconds: seconds))
        }
        noteDecompressedForThrashing(index, bytes: bytes)
        dropFromPool(index)
        compression!.evicted[index] = 0
        apps[index].base &+= bytes &+ refaulted
        charge(index, bytes &+ refaulted)
        let seconds =
            Double(bytes &- onDisk) / 1_048_576 * model.decompressSecondsPerMiB
            + Double(onDisk) / 1_048_576 * (model.swapInSecondsPerMiB ?? 0)
            + Double(refaulted) / 1_048_576 * model.refaultSecondsPerMiB
        noteRefault(bytes: refaulted, waited: seconds, stalls: stalls)
        log(
            .decompress(
                app: apps[cold: index].id, bytes: Bytes(bytes), stored: Bytes(stored), refaulted: Bytes(refaulted),
                seconds: seconds))
    }

    /// Takes app `index`'s share out of the pool (its memory is decompressed, or freed by a kill);
    /// a kill also forgets its dropped file pages.
    func dropFromPool(_ index: Int, killed: Bool = false) {
        guard hasCompression, index < compression!.compressed.count else { return }
        if killed { compression!.evicted[index] = 0 }
        guard compression!.compressed[index] > 0 else { return }
        if compression!.frozen[index] {
            // A frozen app's memory is in storage, not in the pool.
            compression!.frozen[index] = false
            compression!.frozenCount -= 1
        } else {
            accountant.chargePool(-compression!.stored[index])
            compression!.pooled &-= compression!.compressed[index]
        }
        compression!.compressed[index] = 0
        compression!.stored[index] = 0
        compression!.onDisk[index] = 0
        swapChanged()
    }

    /// What is wrong with the compressed-memory books, if anything: the pool is the sum of the
    /// apps' shares, only resident apps in a compressible state hold one, and the reclaim queue
    /// holds exactly the apps it should.
    func compressionInvariantViolation() -> String? {
        guard let books = compression else {
            return accountant.compressedPool == .zero ? nil : "a policy without compression has a compressed pool"
        }
        var pooled: Int64 = 0
        var stored: Int64 = 0
        var frozen = 0
        var suspended = 0
        for index in books.compressed.indices {
            if books.frozen[index] {
                frozen += 1
                if books.compressed[index] == 0 { return "\(apps[cold: index].id) is frozen with nothing compressed" }
            } else {
                pooled += books.compressed[index]
                stored += books.stored[index]
            }
            if apps[index].state == .suspended { suspended += 1 }
            let app = apps[index]
            let id = apps[cold: index].id
            if books.compressed[index] > 0 || books.evicted[index] > 0 {
                if !app.state.isResident || app.state.isExecuting {
                    return "\(id) is \(app.state.rawValue) but holds compressed memory or dropped files"
                }
                if books.handles[index] != nil { return "\(id) is compressed but still queued for reclaim" }
            } else if books.stored[index] != 0 {
                return "\(id) has a compressed size but nothing compressed"
            }
            if books.onDisk[index] < 0 || books.onDisk[index] > books.compressed[index] {
                return "\(id) has \(books.onDisk[index]) bytes in the swap file of \(books.compressed[index]) swapped"
            }
            if let handle = books.handles[index], !books.queue.contains(handle) {
                return "\(id) has a stale reclaim handle"
            }
            let wanted =
                app.state.isResident && !app.state.isExecuting
                && books.compressibleStates[index] & app.state.compressionBit != 0
                && books.compressed[index] == 0 && books.evicted[index] == 0
                && reclaimableBytes(of: index) >= CompressionBooks.page
            if wanted != (books.handles[index] != nil) {
                return "\(id) is \(wanted ? "not " : "")queued for reclaim, against its state and memory"
            }
        }
        if pooled != books.pooled { return "pool total \(books.pooled) != sum of the apps' shares \(pooled)" }
        if stored != accountant.compressedPool.value {
            return "pool size \(accountant.compressedPool.value) != sum of the apps' compressed sizes \(stored)"
        }
        if pooled > books.capacity { return "the pool holds \(pooled) bytes, more than its capacity \(books.capacity)" }
        if stored > books.zswapLimit {
            return "zswap's cache takes \(stored) bytes, more than its limit \(books.zswapLimit)"
        }
        if frozen != books.frozenCount { return "\(books.frozenCount) apps counted frozen, \(frozen) are" }
        if let freezer = books.model.freezer, frozen > freezer.maxFrozen {
            return "\(frozen) apps frozen, more than \(freezer.maxFrozen)"
        }
        if suspended != books.suspendedCount {
            return "\(books.suspendedCount) apps counted suspended, \(suspended) are"
        }
        let queued = books.handles.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        if queued != books.queue.count {
            return "the reclaim queue holds \(books.queue.count) apps, \(queued) expected"
        }
        return nil
    }
}
