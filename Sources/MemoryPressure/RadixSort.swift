/// A stable least-significant-digit radix sort, for orders of a million keys that a comparison
/// sort would spend most of a snapshot's load on.
package enum RadixSort {
    /// The positions `0..<keys.count` ordered by `keys[position]`, equal keys in position order
    /// (a stable sort). Bytes that every key shares are skipped.
    ///
    /// - Complexity: O(n × distinct byte positions) time, O(n) extra memory.
    package static func order(of keys: [UInt64]) -> [Int32] {
        let count = keys.count
        var order = (0..<Int32(truncatingIfNeeded: count)).map { $0 }
        guard count > 1 else { return order }
        // One pass counts every byte position.
        var histograms = [Int](repeating: 0, count: 8 * 256)
        for key in keys {
            for byte in 0..<8 { histograms[byte << 8 | Int((key >> (UInt64(byte) << 3)) & 0xFF)] += 1 }
        }
        var scratch = [Int32](repeating: 0, count: count)
        for byte in 0..<8 {
            let base = byte << 8
            // A byte every key shares does not reorder anything.
            if (0..<256).contains(where: { histograms[base | $0] == count }) { continue }
            var offsets = [Int](repeating: 0, count: 256)
            var running = 0
            for digit in 0..<256 {
                offsets[digit] = running
                running += histograms[base | digit]
            }
            let shift = UInt64(byte) << 3
            for position in order {
                let digit = Int((keys[Int(position)] >> shift) & 0xFF)
                scratch[offsets[digit]] = position
                offsets[digit] += 1
            }
            swap(&order, &scratch)
        }
        return order
    }

    /// A key whose unsigned order is `value`'s order (−0 taken as +0, so the two are one key).
    ///
    /// - Complexity: O(1)
    @inline(__always)
    package static func key(_ value: Double) -> UInt64 {
        let bits = (value == 0 ? 0.0 : value).bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }
}
