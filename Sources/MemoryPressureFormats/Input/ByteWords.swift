/// Eight bytes at a time: the word-at-a-time tests the log scan uses to pass over plain text
/// without looking at each byte (which line ends a word holds, whether it holds a byte that is not
/// ASCII, where a given byte is).
enum ByteWords {
    /// Every byte's low seven bits.
    static let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    /// Every byte's high bit.
    static let high: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` equal to `byte`, and no other bit (exact: no false hits
    /// from a borrow between bytes).
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        equal(word, repeated: 0x0101_0101_0101_0101 &* UInt64(byte))
    }

    /// ``equal(_:_:)`` with the byte given repeated in each byte of `repeated`.
    @inline(__always)
    static func equal(_ word: UInt64, repeated: UInt64) -> UInt64 {
        let x = word ^ repeated
        return ~(((x & low) &+ low) | x | low)
    }

    /// The 8 bytes at `offset` of `base` (any alignment), the first in the low bits.
    @inline(__always)
    static func load(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// How many bytes of `text[range]` are `byte`.
    ///
    /// - Complexity: O(`range.count` / 8)
    static func count(_ byte: UInt8, in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        guard let base = text.baseAddress else { return 0 }
        var index = range.lowerBound
        var count = 0
        while index + 8 <= range.upperBound {
            // Up to 255 words' matches summed byte by byte (no carry between bytes), then added up.
            var sums: UInt64 = 0
            var words = 0
            while words < 255, index + 8 <= range.upperBound {
                sums &+= equal(load(base, index), byte) >> 7
                index &+= 8
                words &+= 1
            }
            let pairs = (sums & 0x00FF_00FF_00FF_00FF) &+ ((sums >> 8) & 0x00FF_00FF_00FF_00FF)
            count &+= Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
        }
        while index < range.upperBound {
            if base[index] == byte { count &+= 1 }
            index &+= 1
        }
        return count
    }

    /// The first byte of `text[range]` that is not ASCII (0x80 or more), or `nil`.
    ///
    /// - Complexity: O(`range.count` / 8)
    static func firstNonASCII(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard let base = text.baseAddress else { return nil }
        var index = range.lowerBound
        while index + 8 <= range.upperBound {
            let bits = load(base, index) & high
            if bits != 0 { return index + bits.trailingZeroBitCount / 8 }
            index &+= 8
        }
        while index < range.upperBound {
            if base[index] >= 0x80 { return index }
            index &+= 1
        }
        return nil
    }
}
