/// Folds `value` into an order-sensitive checksum (FNV-1a style), so results are consumed and comparable.
@inline(__always)
func mix(_ checksum: UInt64, _ value: UInt64) -> UInt64 {
    (checksum ^ value) &* 0x0000_0100_0000_01B3
}
