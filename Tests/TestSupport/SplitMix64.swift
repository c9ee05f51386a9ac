/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64), so that
/// every randomised test and benchmark input is reproducible from its seed on every platform.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; advanced by a fixed odd constant on every draw.
    public var state: UInt64

    /// Creates a generator whose sequence is determined by `seed` alone.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 pseudo-random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
