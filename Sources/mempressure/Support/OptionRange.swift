import ArgumentParser

/// The range checks of numeric options, with one wording for every command: `--seeds must be
/// 1...10000, got 0`.
enum OptionRange {
    /// Throws unless `value` is absent or within `range`; `shown` is the range as `--help` writes
    /// it, when its bounds are better written otherwise (`0...2^63-1`).
    static func check<Value: BinaryInteger>(
        _ value: Value?, in range: ClosedRange<Value>, _ option: String, shown: String? = nil
    ) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(option) must be \(shown ?? "\(range.lowerBound)...\(range.upperBound)"), got \(value)")
    }

    /// The first seed of generated samples: any seed whose run can be numbered as a signed 64-bit
    /// integer (`compare --first-seed`, `sweep --first-seed`).
    static func checkFirstSeed(_ firstSeed: UInt64?) throws {
        try check(firstSeed, in: 0...UInt64(Int64.max), "--first-seed", shown: "0...2^63-1")
    }

    /// The number of generated samples (`compare`, `sweep` and `profile`'s `--seeds`).
    static func checkSeeds(_ seeds: Int?) throws { try check(seeds, in: 1...10_000, "--seeds") }
}
