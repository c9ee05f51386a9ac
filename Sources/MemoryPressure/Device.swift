/// The device: its physical memory and the part of it reserved for the system.
public struct Device: Sendable, Hashable {
    /// Physical memory.
    public var memory: Bytes
    /// Memory reserved for the system, never available to apps.
    public var reserved: Bytes

    /// A device; `reserved` must be smaller than `memory`.
    public init(memory: Bytes, reserved: Bytes = .zero) {
        self.memory = memory
        self.reserved = reserved
    }

    /// Memory available to apps: physical minus reserve.
    public var usable: Bytes { memory - reserved }

    /// A 512 MiB phone with 96 MiB reserved (an iPhone 4-class device).
    public static let iPhone4 = Device(memory: .mebibytes(512), reserved: .mebibytes(96))
}
