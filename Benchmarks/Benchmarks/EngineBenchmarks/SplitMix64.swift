/// A small, fast, seedable random number generator (SplitMix64), so every benchmark input is the
/// same on every run and every machine. (A copy of the one in IndexedHeapBenchmarks and in the root
/// package's TestSupport, which are not products.)
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0); the tiny modulo bias is irrelevant for benchmark inputs.
    mutating func next(below bound: Int) -> Int {
        Int(truncatingIfNeeded: next() % UInt64(bound))
    }
}

/// Folds `value` into an order-sensitive checksum (FNV-1a style), so results are consumed and comparable.
@inline(__always)
func mix(_ checksum: UInt64, _ value: UInt64) -> UInt64 {
    (checksum ^ value) &* 0x0000_0100_0000_01B3
}
