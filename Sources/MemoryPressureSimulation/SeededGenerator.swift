/// A deterministic random number generator (SplitMix64, Steele, Lea and Flood): the only source
/// of randomness in workloads, synthetic test data and benchmarks, so the same seed always gives
/// the same output on every platform. The engine itself never draws random numbers.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose whole output is determined by `seed`.
    ///
    /// - Complexity: O(1)
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    ///
    /// - Complexity: O(1)
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
