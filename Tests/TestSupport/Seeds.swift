/// Runs `body` once per seed, so a failing case can be reproduced from the seed in its message.
public func withEvery<S: Sequence>(
    _ label: String,
    in seeds: S,
    _ body: (S.Element) throws -> Void
) rethrows {
    for seed in seeds {
        try body(seed)
    }
}
