import MemoryPressure

/// The machine's memory totals from `/proc/meminfo`.
public struct LinuxMemoryInfo: Hashable, Sendable {
    /// Usable RAM (`MemTotal`: physical memory minus what the kernel reserved at boot).
    public var total: Bytes
    /// Memory available for new work without swapping (`MemAvailable`: free plus reclaimable).
    public var available: Bytes
    /// Memory not used at all (`MemFree`).
    public var free: Bytes
    /// Swap space (`SwapTotal`).
    public var swapTotal: Bytes
    /// Unused swap space (`SwapFree`).
    public var swapFree: Bytes

    /// Totals from their parts; see each property.
    ///
    /// - Complexity: O(1)
    public init(total: Bytes, available: Bytes, free: Bytes, swapTotal: Bytes = .zero, swapFree: Bytes = .zero) {
        self.total = total
        self.available = available
        self.free = free
        self.swapTotal = swapTotal
        self.swapFree = swapFree
    }
}
