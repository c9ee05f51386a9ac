/// A set of byte strings to look for in a line, in one pass over its bytes: each byte is looked up
/// in a 256-entry table of the strings' first bytes (no reference counting in the loop), and only
/// the strings starting with it are compared there. The readers use it to pass over the lines of a
/// long log that can say nothing to them without decoding or searching them as text.
package struct ByteMarkers: Sendable {
    /// Whether a byte starts some marker.
    private let starts: [Bool]
    /// Every marker, its bytes back to back in ``bytes`` from ``offsets``[i] for ``lengths``[i].
    private let bytes: [UInt8]
    private let offsets: [Int], lengths: [Int], firstBytes: [UInt8]

    /// A set of `markers` (empty strings are ignored).
    package init(_ markers: [String]) {
        var starts = [Bool](repeating: false, count: 256)
        var bytes: [UInt8] = []
        var offsets: [Int] = [], lengths: [Int] = [], firstBytes: [UInt8] = []
        for marker in markers where !marker.isEmpty {
            let utf8 = Array(marker.utf8)
            starts[Int(utf8[0])] = true
            offsets.append(bytes.count)
            lengths.append(utf8.count)
            firstBytes.append(utf8[0])
            bytes += utf8
        }
        self.starts = starts
        self.bytes = bytes
        self.offsets = offsets
        self.lengths = lengths
        self.firstBytes = firstBytes
    }

    /// Whether any marker occurs in `line`.
    ///
    /// - Complexity: O(length of `line`) table look-ups, plus a comparison where a byte starts a
    ///   marker.
    package func matches<S: StringProtocol>(_ line: S) -> Bool {
        if let found = line.utf8.withContiguousStorageIfAvailable({ firstMatch(in: $0) != nil }) { return found }
        return Array(line.utf8).withUnsafeBufferPointer { firstMatch(in: $0) != nil }
    }

    /// The offset of the first marker in `text`, or `nil`.
    ///
    /// - Complexity: as ``matches(_:)``.
    package func firstMatch(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        starts.withUnsafeBufferPointer { starts in
            bytes.withUnsafeBufferPointer { bytes in
                offsets.withUnsafeBufferPointer { offsets in
                    lengths.withUnsafeBufferPointer { lengths in
                        firstBytes.withUnsafeBufferPointer { firstBytes in
                            let count = text.count
                            var index = 0
                            while index < count {
                                let byte = text[index]
                                if starts[Int(byte)] {
                                    for marker in 0..<offsets.count where firstBytes[marker] == byte {
                                        let length = lengths[marker], offset = offsets[marker]
                                        guard index + length <= count else { continue }
                                        var matched = 1
                                        while matched < length, text[index + matched] == bytes[offset + matched] {
                                            matched += 1
                                        }
                                        if matched == length { return index }
                                    }
                                }
                                index += 1
                            }
                            return nil
                        }
                    }
                }
            }
        }
    }
}
