import MemoryPressure

extension PressureEngine {
    /// An engine for `device` following the default policy, `Policy.ios4`
    /// (compiled in with the other shipped policies, so this lives beside them).
    ///
    /// - Throws: `EngineError` as `PressureEngine.init(device:policy:)` does (the shipped
    ///   policy is valid, so only in principle).
    /// - Complexity: O(size of the policy)
    public convenience init(device: Device) throws(EngineError) {
        try self.init(device: device, policy: .ios4)
    }
}
