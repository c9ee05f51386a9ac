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

    /// Books for `device`, with no app resident.
    public init(device: Device) {
        self.device = device
    }

    /// Free memory: physical − reserve − Σ footprints (negative when overcommitted).
    ///
    /// - Complexity: O(1)
    public var free: Bytes { device.usable - totalFootprint }

    /// Records that some app's footprint changed by `delta` bytes.
    ///
    /// - Complexity: O(1)
    @inline(__always)
    public mutating func charge(_ delta: Int64) {
        totalFootprint.value &+= delta
    }
}
