/// Compressed memory: reclaim that moves part of an idle app's memory into a compressed pool in
/// RAM before anyone is killed — XNU's VM compressor (iOS 7 and later) or Linux zram, the
/// compressed swap device Android and many desktops use — or out to a swap file on storage.
/// docs/compression.md describes the model and where it approximates the real mechanisms.
///
/// The model, per app: `compressible × base` bytes of an app the policy names (``matches``) can
/// be compressed; they leave the app's resident footprint and take `bytes / ratio` in the pool;
/// `fileBacked × base` bytes of clean file pages are dropped and read back when the app runs.
/// Reclaim starts when free memory falls below ``startBelow`` and compresses whole apps, least
/// recently frontmost first (or in another ``order``), until free memory reaches ``stopAt``, no
/// app is left to compress, or the pool holds ``capacity`` (uncompressed bytes). Compressing costs
/// ``compressSecondsPerMiB`` of CPU per MiB; an app that runs again is decompressed whole, and a
/// user who brings it back waits ``decompressSecondsPerMiB`` per MiB on top of the warm resume.
/// A kill frees the app's resident bytes and its share of the pool.
public struct MemoryCompression: Sendable, Hashable {
    /// The mechanism the pool stands for (it names the model in reports; the arithmetic is the same).
    public enum Mechanism: String, Sendable, Hashable, CaseIterable {
        /// XNU's VM compressor: compressed pages stay in RAM in the compressor's segments
        /// (`osfmk/vm/vm_compressor.c`).
        case compressor
        /// Linux zram: a swap device whose pages are compressed in RAM (`drivers/block/zram/zram_drv.c`).
        case zram
        /// Swap on storage (a swap file or partition, `mm/swapfile.c`): pages are written as they
        /// are (``MemoryCompression/ratio`` 1) and nothing of them stays in memory; a resume reads
        /// them back at ``MemoryCompression/decompressSecondsPerMiB``.
        case swap
        /// zswap (`mm/zswap.c`, Documentation/admin-guide/mm/zswap.rst): a compressed cache in RAM
        /// in front of a swap file. Pages are compressed into the cache while it is below
        /// ``MemoryCompression/zswapPool``; a full cache sends new pages straight to the file
        /// (`zswap_store()` rejects them) and writes its least recently stored pages back to the
        /// file until it is at ``MemoryCompression/zswapAcceptThresholdPercent`` of its limit
        /// (`shrink_worker()`). A resume reads the file's part back at
        /// ``MemoryCompression/swapInSecondsPerMiB``.
        case zswap

        /// Whether the pool is swap (zram or storage): its size adds to the device's swap and what
        /// it holds is used swap, each app's share counting as its swap entries.
        public var isSwap: Bool { self != .compressor }
    }

    /// Which idle app reclaim takes first.
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// The app frontmost longest ago: the kernels' LRU lists, from whose inactive end pages are
        /// compressed or swapped (XNU's `vm_pageout_scan()`, Linux's `shrink_inactive_list()`).
        case leastRecentlyUsed
        /// The app least likely to be reopened soon, by the policy's prediction (``ReusePrediction``:
        /// the chance of a reopen within its horizon, or the expected opens until reuse without
        /// one): a resume pays for what was compressed, so what will not be wanted soon goes first.
        /// Needs a band ordered by ``BandOrder/predictedReuse``. Not a copy of any shipped system.
        case predictedReuse
        /// The highest score from the engine's `externalScore` first, as for bands: the oracle's
        /// foresight (`compare`'s `oracle@P` for a policy with compression). Not accepted in policy
        /// files.
        case externalScore

        /// The orders a policy file may name (every one but ``externalScore``).
        public static var allCases: [Order] { [.leastRecentlyUsed, .predictedReuse] }
    }

    /// The mechanism.
    public var mechanism: Mechanism
    /// Which idle app reclaim takes first (``Order/leastRecentlyUsed`` unless stated).
    public var order: Order
    /// The apps whose memory may be compressed: those matching any of these conditions (in
    /// their current state, as bands match).
    public var matches: [AppMatch]
    /// The most the pool takes in, in uncompressed bytes: zram's `disksize`, XNU's
    /// `c_segment_pages_compressed_limit`. A percentage is of the device's memory.
    public var capacity: MemoryAmount
    /// Uncompressed bytes per compressed byte (at least 1), for apps no entry of ``ratios`` matches.
    public var ratio: Double
    /// Ratios for some apps (media apps whose memory holds decoded images compress worse than a
    /// text app's heap): the first entry that matches the app, in the state it is compressed in,
    /// gives its ratio.
    public var ratios: [AppRatio]

    /// A compression ratio for the apps matching any of `matches`.
    public struct AppRatio: Sendable, Hashable {
        /// Which apps.
        public var matches: [AppMatch]
        /// Their ratio (at least 1).
        public var ratio: Double

        /// An entry; see each property.
        ///
        /// - Complexity: O(1)
        public init(matches: [AppMatch], ratio: Double) {
            self.matches = matches
            self.ratio = ratio
        }
    }
    /// The share of an app's base memory (not its views or purgeable caches) that is anonymous
    /// and so can be compressed, 0…1.
    public var compressible: Double
    /// The share of an app's base memory that is clean file pages (code, mapped resources), 0…1
    /// with ``compressible`` at most 1 in all: reclaim drops them from memory (no pool), and an
    /// app that runs again reads them back (refaults), at ``refaultSecondsPerMiB``. 0: not modelled.
    public var fileBacked: Double
    /// Seconds an app waits per MiB of file pages read back from storage.
    public var refaultSecondsPerMiB: Double
    /// Reclaim starts when free memory falls below this.
    public var startBelow: ScaledAmount
    /// And goes on until free memory is at or above this.
    public var stopAt: ScaledAmount
    /// CPU seconds spent compressing one MiB.
    public var compressSecondsPerMiB: Double
    /// Seconds an app waits per MiB decompressed when it runs again.
    public var decompressSecondsPerMiB: Double
    /// The pool's fill (a share of ``capacity``, 0…1) at which the system is short of compressor
    /// space and kills until the pool is below it, whatever free memory is (XNU's
    /// `vm_compressor_low_on_space()` makes memorystatus kill with
    /// `kMemorystatusKilledVMCompressorSpaceShortage`); `nil`: a full pool only stops reclaim.
    public var shortageAt: Double?
    /// XNU's freezer: compressed apps written out to storage, giving their pool memory back
    /// (`nil`: none).
    public var freezer: Freezer?
    /// XNU's compressor thrashing detection, which kills when memory is decompressed soon after it
    /// was compressed while older memory sits in the pool (`nil`: none).
    public var thrashing: Thrashing?
    /// zswap's cache limit (`max_pool_percent`): the most memory its compressed pages take; a
    /// percentage is of the device's memory. Required with ``Mechanism/zswap``, refused otherwise.
    public var zswapPool: MemoryAmount?
    /// Seconds an app waits per MiB read back from the swap file behind zswap. Required with
    /// ``Mechanism/zswap``, refused otherwise.
    public var swapInSecondsPerMiB: Double?
    /// zswap's `accept_threshold_percent` (0–100): once the cache has reached its limit, its
    /// oldest pages are written back to the swap file until it takes at most this percentage of
    /// the limit. `nil` means the kernel's default, ``defaultZswapAcceptThresholdPercent``. Only
    /// with ``Mechanism/zswap``.
    public var zswapAcceptThresholdPercent: Double?

    /// The kernel's default `accept_threshold_percent` (mm/zswap.c, `zswap_accept_thr_percent`;
    /// Documentation/admin-guide/mm/zswap.rst).
    public static let defaultZswapAcceptThresholdPercent = 90.0

    /// XNU's compressor thrashing detection (`compute_swapout_target_age()` and
    /// `compressor_needs_to_swap()` in osfmk/vm/vm_compressor.c), on a device without swap, where
    /// it makes memorystatus kill with `kMemorystatusKilledVMCompressorThrashing`.
    ///
    /// The engine samples compressions and decompressions from the first one after a reset. A
    /// sample is judged at each decompression once it is ``sampleMinMs`` old, and restarts once it
    /// is ``sampleMaxMs`` old. The compressor thrashes when, over the sample:
    /// - both compressions and decompressions reach ``minimumPer10ms`` pages per 10 ms;
    /// - decompressions exceed ``thresholdPer10ms`` pages per 10 ms;
    /// - 95 % of the decompressed bytes were compressed less than 30 minutes before
    ///   (`DECOMPRESSION_SAMPLE_MAX_AGE`), and their working set (the sum of age × bytes over
    ///   those, ages in whole seconds as XNU counts them, per second of sample) is smaller than the
    ///   pool;
    /// - the pool still holds memory compressed before the oldest memory decompressed in the sample
    ///   (the oldest segment predates `swapout_target_age`: it should be swapped, and there is no
    ///   swap).
    ///
    /// Then one app is killed in the bands' order (the foreground app spared), and the sample restarts.
    public struct Thrashing: Sendable, Hashable {
        /// The size of a page, which the per-10-ms counts are of (16 KiB on arm64 iOS devices).
        public var pageSize: Bytes
        /// A sample younger than this is not judged (`compressor_sample_min_in_msecs`).
        public var sampleMinMs: Double
        /// A sample this old restarts (`compressor_sample_max_in_msecs`).
        public var sampleMaxMs: Double
        /// The least compressions and decompressions, in pages per 10 ms, for a verdict
        /// (`compressor_thrashing_min_per_10msecs`).
        public var minimumPer10ms: Double
        /// Decompressions, in pages per 10 ms, above which the compressor may be thrashing
        /// (`compressor_thrashing_threshold_per_10msecs`).
        public var thresholdPer10ms: Double

        /// A thrashing rule; see each property.
        ///
        /// - Complexity: O(1)
        public init(
            pageSize: Bytes, sampleMinMs: Double, sampleMaxMs: Double, minimumPer10ms: Double, thresholdPer10ms: Double
        ) {
            self.pageSize = pageSize
            self.sampleMinMs = sampleMinMs
            self.sampleMaxMs = sampleMaxMs
            self.minimumPer10ms = minimumPer10ms
            self.thresholdPer10ms = thresholdPer10ms
        }

        /// The most seconds since compression at which decompressed memory still counts in the
        /// working set (`DECOMPRESSION_SAMPLE_MAX_AGE`, 30 minutes).
        public static let maximumAge = 1800.0
    }

    /// XNU's freezer (bsd/kern/kern_memorystatus_freeze.c): when reclaim has compressed a
    /// suspended app, the freezer may write its compressed memory to storage, so the pool gives that
    /// memory back; the app is frozen until it runs again, when it is read back (thawed). Its rules:
    /// a minimum size, a most frozen apps at once, a daily budget of bytes written, and a minimum
    /// number of suspended apps before anything is frozen.
    public struct Freezer: Sendable, Hashable {
        /// An app with less compressed memory (uncompressed bytes) is not frozen (`FREEZE_PAGES_MIN`).
        public var minimum: Bytes
        /// The most apps frozen at once (`memorystatus_frozen_processes_max`).
        public var maxFrozen: Int
        /// Compressed bytes the freezer may write in a day (`memorystatus_freeze_daily_mb_max`),
        /// renewed every 24 hours of engine time.
        public var dailyBudget: Bytes
        /// Nothing is frozen while fewer apps than this are suspended
        /// (`memorystatus_freeze_suspended_threshold`).
        public var suspendedThreshold: Int
        /// Seconds per MiB written to storage (the freezer's own work, not a wait anyone sees).
        public var writeSecondsPerMiB: Double
        /// Seconds an app waits per MiB read back when it thaws (before it is decompressed).
        public var thawSecondsPerMiB: Double

        /// A freezer; see each property.
        ///
        /// - Complexity: O(1)
        public init(
            minimum: Bytes, maxFrozen: Int, dailyBudget: Bytes, suspendedThreshold: Int, writeSecondsPerMiB: Double,
            thawSecondsPerMiB: Double
        ) {
            self.minimum = minimum
            self.maxFrozen = maxFrozen
            self.dailyBudget = dailyBudget
            self.suspendedThreshold = suspendedThreshold
            self.writeSecondsPerMiB = writeSecondsPerMiB
            self.thawSecondsPerMiB = thawSecondsPerMiB
        }
    }

    /// A compressed-memory model; see each property.
    ///
    /// - Complexity: O(1)
    public init(
        mechanism: Mechanism, matches: [AppMatch], capacity: MemoryAmount, ratio: Double, compressible: Double,
        startBelow: ScaledAmount, stopAt: ScaledAmount, compressSecondsPerMiB: Double,
        decompressSecondsPerMiB: Double, shortageAt: Double? = nil, fileBacked: Double = 0,
        refaultSecondsPerMiB: Double = 0, freezer: Freezer? = nil, ratios: [AppRatio] = [],
        thrashing: Thrashing? = nil, zswapPool: MemoryAmount? = nil, swapInSecondsPerMiB: Double? = nil,
        zswapAcceptThresholdPercent: Double? = nil, order: Order = .leastRecentlyUsed
    ) {
        self.mechanism = mechanism
        self.order = order
        self.matches = matches
        self.capacity = capacity
        self.ratio = ratio
        self.compressible = compressible
        self.startBelow = startBelow
        self.stopAt = stopAt
        self.compressSecondsPerMiB = compressSecondsPerMiB
        self.decompressSecondsPerMiB = decompressSecondsPerMiB
        self.shortageAt = shortageAt
        self.fileBacked = fileBacked
        self.refaultSecondsPerMiB = refaultSecondsPerMiB
        self.freezer = freezer
        self.ratios = ratios
        self.thrashing = thrashing
        self.zswapPool = zswapPool
        self.swapInSecondsPerMiB = swapInSecondsPerMiB
        self.zswapAcceptThresholdPercent = zswapAcceptThresholdPercent
    }

    /// The reason a kill for compressor space states, before the victim's band reason.
    public static let shortageReason = "compressor space shortage"
    /// The reason a kill for compressor thrashing states, before the victim's band reason.
    public static let thrashingReason = "compressor thrashing"

    /// Every problem of the model, located under `compression`.
    package var problems: [(path: String, message: String)] {
        var problems: [(String, String)] = []
        if matches.isEmpty { problems.append(("compression.match", "expected at least one condition")) }
        if mechanism == .swap && (ratio != 1 || !ratios.isEmpty) {
            problems.append(
                ("compression.ratio", "expected 1 and no \"ratios\" for swap: pages are written as they are"))
        }
        if mechanism == .swap || mechanism == .zswap {
            // XNU's freezer and thrashing rule are the compressor's.
            let name = mechanism.rawValue
            if freezer != nil {
                problems.append(("compression.freezer", "expected no freezer for \(name) (XNU's compressor has one)"))
            }
            if thrashing != nil {
                problems.append(
                    ("compression.thrashing", "expected no thrashing rule for \(name) (XNU's compressor has one)"))
            }
        }
        if mechanism == .zswap {
            if zswapPool == nil {
                problems.append(
                    ("compression.zswapPool", "expected the cache's limit for zswap (max_pool_percent, such as 20%)"))
            }
            if let seconds = swapInSecondsPerMiB, !(seconds >= 0 && seconds <= 60) {
                problems.append(
                    ("compression.swapInSecondsPerMiB", "expected 0.0...60.0 seconds per MiB, found \(seconds)"))
            } else if swapInSecondsPerMiB == nil {
                problems.append(
                    (
                        "compression.swapInSecondsPerMiB",
                        "expected the seconds per MiB read back from the swap file behind zswap"
                    ))
            }
            if let percent = zswapAcceptThresholdPercent, !(percent >= 0 && percent <= 100) {
                problems.append(
                    (
                        "compression.zswapAcceptThresholdPercent",
                        "expected 0.0...100.0 (a percentage of zswapPool), found \(percent)"
                    ))
            }
        } else if zswapPool != nil || swapInSecondsPerMiB != nil || zswapAcceptThresholdPercent != nil {
            problems.append(
                (
                    "compression.zswapPool",
                    "expected \"zswapPool\", \"swapInSecondsPerMiB\" and \"zswapAcceptThresholdPercent\" only with mechanism zswap"
                ))
        }
        if !(ratio >= 1 && ratio <= 100) {
            problems.append(
                ("compression.ratio", "expected 1.0...100.0 (uncompressed per compressed byte), found \(ratio)"))
        }
        for (index, entry) in ratios.enumerated() where !(entry.ratio >= 1 && entry.ratio <= 100) {
            problems.append(("compression.ratios[\(index)].ratio", "expected 1.0...100.0, found \(entry.ratio)"))
        }
        if !(compressible >= 0 && compressible <= 1) {
            problems.append(
                ("compression.compressible", "expected 0.0...1.0 (a share of base memory), found \(compressible)"))
        }
        if !(fileBacked >= 0 && fileBacked <= 1 && compressible + fileBacked <= 1 + 1e-12) {
            problems.append(
                (
                    "compression.fileBacked",
                    "expected 0.0...1.0 with \"compressible\" + \"fileBacked\" at most 1 (shares of base memory), "
                        + "found \(fileBacked) + \(compressible)"
                ))
        }
        for (key, value) in [
            ("compressSecondsPerMiB", compressSecondsPerMiB), ("decompressSecondsPerMiB", decompressSecondsPerMiB),
            ("refaultSecondsPerMiB", refaultSecondsPerMiB),
        ] where !(value >= 0 && value <= 60) {
            problems.append(("compression.\(key)", "expected 0.0...60.0 seconds per MiB, found \(value)"))
        }
        if let shortageAt, !(shortageAt > 0 && shortageAt <= 1) {
            problems.append(
                ("compression.shortageAt", "expected a share of the capacity in (0, 1], found \(shortageAt)"))
        }
        if let freezer {
            if !(0...1_000_000).contains(freezer.maxFrozen) {
                problems.append(("compression.freezer.maxFrozen", "expected 0...1000000, found \(freezer.maxFrozen)"))
            }
            if !(0...1_000_000).contains(freezer.suspendedThreshold) {
                problems.append(
                    (
                        "compression.freezer.suspendedThreshold",
                        "expected 0...1000000, found \(freezer.suspendedThreshold)"
                    ))
            }
            if freezer.minimum.value < 0 || freezer.dailyBudget.value < 0 {
                problems.append(("compression.freezer", "expected sizes of 0 or more"))
            }
            for (key, value) in [
                ("writeSecondsPerMiB", freezer.writeSecondsPerMiB), ("thawSecondsPerMiB", freezer.thawSecondsPerMiB),
            ] where !(value >= 0 && value <= 60) {
                problems.append(("compression.freezer.\(key)", "expected 0.0...60.0 seconds per MiB, found \(value)"))
            }
        }
        if let thrashing {
            if !(4096...1_048_576).contains(thrashing.pageSize.value) {
                problems.append(("compression.thrashing.pageSize", "expected 4KiB...1MiB, found \(thrashing.pageSize)"))
            }
            if !(thrashing.sampleMinMs > 0 && thrashing.sampleMinMs <= thrashing.sampleMaxMs
                && thrashing.sampleMaxMs <= 3_600_000)
            {
                problems.append(
                    (
                        "compression.thrashing.sampleMaxMs",
                        "expected 0 < sampleMinMs (\(thrashing.sampleMinMs)) ≤ sampleMaxMs (\(thrashing.sampleMaxMs)) ≤ 3600000"
                    ))
            }
            for (key, value) in [
                ("minimumPer10ms", thrashing.minimumPer10ms), ("thresholdPer10ms", thrashing.thresholdPer10ms),
            ]
            where !(value >= 0 && value <= 1_000_000) {
                problems.append(
                    ("compression.thrashing.\(key)", "expected 0...1000000 pages per 10 ms, found \(value)"))
            }
        }
        if case .fixed(let start) = startBelow, case .fixed(let stop) = stopAt,
            MemoryAmount.compare(stop, start) == .less
        {
            problems.append(
                ("compression.stopAt", "expected \"stopAt\" (\(stop)) at or above \"startBelow\" (\(start))"))
        }
        return problems
    }
}
