import MemoryPressure
import MemoryPressureSimulation

/// The tests' name for the simulation module's seeded generator (SplitMix64), so every randomised test is
/// reproducible from its seed.
public typealias SplitMix64 = SeededGenerator
