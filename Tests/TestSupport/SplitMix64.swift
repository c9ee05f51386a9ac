import MemoryPressure

/// The tests' name for the package's seeded generator (SplitMix64), so every randomised test is
/// reproducible from its seed.
public typealias SplitMix64 = SeededGenerator
