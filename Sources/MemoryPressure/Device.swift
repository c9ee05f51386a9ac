/// The device: its physical memory and the part of it reserved for the system.
public struct Device: Sendable, Hashable {
    /// Physical memory.
    public var memory: Bytes
    /// Memory reserved for the system, never available to apps.
    public var reserved: Bytes
    /// Swap space (0 on phones); counts in the Linux `oom_badness` total.
    public var swap: Bytes
    /// Free swap at the start, when known (`nil`: the swap not used by the apps' own swap
    /// entries is free). Policies with a free-swap condition on a level read it (earlyoom).
    public var swapFree: Bytes?

    /// A device; `reserved` must be smaller than `memory`, `swapFree` at most `swap`.
    ///
    /// - Complexity: O(1)
    public init(memory: Bytes, reserved: Bytes = .zero, swap: Bytes = .zero, swapFree: Bytes? = nil) {
        self.memory = memory
        self.reserved = reserved
        self.swap = swap
        self.swapFree = swapFree
    }

    /// The total the kernel scales `oom_score_adj` and `oom_score` by: memory plus swap.
    public var badnessTotal: Bytes { memory + swap }

    /// Memory available to apps: physical minus reserve.
    public var usable: Bytes { memory - reserved }

    /// A 512 MiB phone with 96 MiB reserved (an iPhone 4-class device).
    public static let iPhone4 = Device(memory: .mebibytes(512), reserved: .mebibytes(96))
}
