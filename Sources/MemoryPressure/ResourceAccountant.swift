/// Keeps the device's memory books: the sum of every app's footprint, and so free memory, exact
/// after every change.
///
/// Every change of any app's footprint goes through ``charge(_:)`` (O(1)); ``free`` is derived,
/// never stored, so it cannot drift from the footprints.
public struct ResourceAccountant: Sendable, Hashable {
    /// The device whose memory is accounted.
    public let device: Device
    /// The sum of every resident app's footprint.
    public private(set) var totalFootprint: Bytes = .zero
    /// Memory in use outside the apps and outside the reserve, as a live source measures it
    /// (on Linux: MemTotal − MemAvailable − Σ process RSS); 0 for simulated devices.
    public private(set) var unattributed: Bytes = .zero
    /// Memory the compressed pool takes (``Policy/compression``): the compressed size of the
    /// resident apps' compressed memory.
    public private(set) var compressedPool: Bytes = .zero

    /// Books for `device`, with no app resident.
    ///
    /// - Complexity: O(1)
    public init(device: Device) {
        self.device = device
    }

    /// Free memory: physical − reserve − unattributed − Σ footprints − the compressed pool
    /// (negative when overcommitted).
    ///
    /// - Complexity: O(1)
    public var free: Bytes { device.usable - totalFootprint - unattributed - compressedPool }

    /// Records the memory in use outside the apps (see ``unattributed``), clamped to
    /// 0...``Bytes/maximum``.
    ///
    /// - Complexity: O(1)
    public mutating func setUnattributed(_ bytes: Bytes) {
        unattributed = Bytes(Swift.min(Swift.max(bytes.value, 0), Bytes.maximum.value))
    }

    /// Records that some app's footprint changed by `delta` bytes.
    ///
    /// - Complexity: O(1)
    @inline(__always)
    public mutating func charge(_ delta: Int64) {
        totalFootprint.value &+= delta
    }

    /// Records that the compressed pool grew (or, negative, shrank) by `delta` bytes.
    ///
    /// - Complexity: O(1)
    public mutating func chargePool(_ delta: Int64) {
        compressedPool.value &+= delta
    }
}
