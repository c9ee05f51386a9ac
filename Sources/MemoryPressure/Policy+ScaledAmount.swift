/// A free-memory threshold that may depend on the device's memory, as the real systems derive
/// theirs: a fixed amount, an amount interpolated between a low-end and a high-end value
/// (Android's `ProcessList.updateOomLevels()`), or one amount per tier of device memory (XNU's
/// `memorystatus_init()` thresholds in `bsd/kern/kern_memorystatus.c`).
public enum ScaledAmount: Sendable, Hashable, CustomStringConvertible {
    /// The same amount on every device (a percentage is of usable memory).
    case fixed(MemoryAmount)
    /// `ProcessList.updateOomLevels()`: `low + (high − low) × scale`, where
    /// `scale = (memory MiB − from MiB) / (to MiB − from MiB)` clamped to 0…1 (Android uses
    /// 350 MB and 700 MB), computed in KiB with 32-bit floats as Java does, then truncated to
    /// whole 4 KiB pages as `LMK_TARGET` sends it to lmkd.
    case interpolated(low: Bytes, high: Bytes, from: Bytes, to: Bytes)
    /// One amount per tier of device memory: the first tier whose `upTo` is at least the device's
    /// memory applies (the last tier has no bound).
    case tiered([MemoryTier])
    /// A zone watermark of the Linux kernel on the device (``ZoneWatermark``): where kswapd wakes
    /// (low) and where it stops (high).
    case watermark(ZoneWatermark)

    /// The amount in bytes on `device`.
    ///
    /// - Complexity: O(number of tiers)
    public func resolved(on device: Device) -> Bytes {
        switch self {
        case .fixed(let amount):
            return amount.resolved(against: device.usable)
        case .interpolated(let low, let high, let from, let to):
            let mebibyte: Int64 = 1 << 20
            let memoryMiB = device.memory.value / mebibyte
            let fromMiB = from.value / mebibyte
            let toMiB = to.value / mebibyte
            var scale = toMiB > fromMiB ? Float(memoryMiB - fromMiB) / Float(toMiB - fromMiB) : 1
            scale = Swift.min(Swift.max(scale, 0), 1)
            let lowKiB = Int32(clamping: low.value / 1024)
            let highKiB = Int32(clamping: high.value / 1024)
            let kib = Int64(Int32(Float(lowKiB) + Float(highKiB - lowKiB) * scale))
            let pages = kib * 1024 / 4096
            return Bytes(pages * 4096)
        case .tiered(let tiers):
            let tier = tiers.first { $0.upTo.map { device.memory <= $0 } ?? true } ?? tiers.last
            return tier?.amount.resolved(against: device.usable) ?? .zero
        case .watermark(let watermark):
            return watermark.resolved(on: device)
        }
    }

    /// `10%`, `72MiB`-style bytes, `{ low, high, scaleFrom, scaleTo }`, the list of tiers or a
    /// watermark's name (`lowWatermark`), as a policy file writes it.
    public var description: String {
        switch self {
        case .fixed(let amount):
            return amount.description
        case .interpolated(let low, let high, let from, let to):
            return "{ low: \(low.value), high: \(high.value), scaleFrom: \(from.value), scaleTo: \(to.value) }"
        case .tiered(let tiers):
            let items = tiers.map { tier in
                tier.upTo.map { "{ upTo: \($0.value), amount: \(tier.amount) }" } ?? "{ amount: \(tier.amount) }"
            }
            return "[" + items.joined(separator: ", ") + "]"
        case .watermark(let watermark):
            return watermark.name
        }
    }
}

/// One tier of a ``ScaledAmount/tiered(_:)`` threshold.
public struct MemoryTier: Sendable, Hashable {
    /// The largest device memory the tier applies to (`nil`: any).
    public var upTo: Bytes?
    /// The threshold on such a device.
    public var amount: MemoryAmount

    /// A tier.
    ///
    /// - Complexity: O(1)
    public init(upTo: Bytes?, amount: MemoryAmount) {
        self.upTo = upTo
        self.amount = amount
    }
}

/// A Linux zone watermark, in bytes of free memory, as mm/page_alloc.c sets them for a device with
/// one zone and the default `vm.watermark_scale_factor` of 10: `min_free_kbytes =
/// int_sqrt(KiB × 16)` clamped to 128…262144 (`calculate_min_free_kbytes()`), then low = min + d
/// and high = min + 2d with d = max(min / 4, memory × 10 / 10000) (`__setup_per_zone_wmarks()`).
/// On an 8 GiB device: min 11 MiB, low 19.5 MiB, high 28 MiB.
public enum ZoneWatermark: String, Sendable, Hashable, CaseIterable {
    /// Below it, an allocating task reclaims memory itself (direct reclaim).
    case min
    /// Below it, kswapd wakes and reclaims in the background.
    case low
    /// kswapd reclaims until free memory is back above it.
    case high

    /// How a policy file names it: `minWatermark`, `lowWatermark`, `highWatermark`.
    public var name: String { rawValue + "Watermark" }

    /// The watermark named `name`, if any.
    ///
    /// - Complexity: O(1)
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    /// The watermark on `device`, in bytes.
    ///
    /// - Complexity: O(1)
    public func resolved(on device: Device) -> Bytes {
        let kib = device.memory.value / 1024
        let minimum = Swift.min(Swift.max(Int64(Double(kib * 16).squareRoot().rounded(.down)), 128), 262_144)
        let distance = Swift.max(minimum / 4, kib * 10 / 10_000)
        switch self {
        case .min: return Bytes(minimum * 1024)
        case .low: return Bytes((minimum + distance) * 1024)
        case .high: return Bytes((minimum + 2 * distance) * 1024)
        }
    }
}
