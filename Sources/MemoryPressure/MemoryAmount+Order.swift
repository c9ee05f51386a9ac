extension MemoryAmount {
    /// Compares two amounts when both are in the same unit (mixed units cannot be
    /// ordered without a device, and count as `.less`). Policy validation and the policy loader use it.
    package static func compare(_ lhs: MemoryAmount, _ rhs: MemoryAmount) -> Order {
        switch (lhs, rhs) {
        case (.bytes(let a), .bytes(let b)): a < b ? .less : (a == b ? .same : .more)
        case (.percent(let a), .percent(let b)): a < b ? .less : (a == b ? .same : .more)
        default: .less
        }
    }

    /// How two amounts compare.
    package enum Order { case less, same, more }
}
