/// A set of byte strings to look for in a line, in one pass over its bytes: each byte is looked up
/// in a table of the strings' first bytes, and only the strings starting with it are compared there.
/// The readers use it to pass over the lines of a long log that can say nothing to them without
/// decoding or searching them as text.
package struct ByteMarkers: Sendable {
    /// The strings by their first byte.
    private let byFirstByte: [[[UInt8]]]

    /// A set of `markers` (none of them empty).
    package init(_ markers: [String]) {
        var table = [[[UInt8]]](repeating: [], count: 256)
        for marker in markers where !marker.isEmpty {
            let bytes = Array(marker.utf8)
            table[Int(bytes[0])].append(bytes)
        }
        byFirstByte = table
    }

    /// Whether any marker occurs in `line`.
    ///
    /// - Complexity: O(length of `line` × the markers sharing a first byte) at worst; about
    ///   O(length of `line`) on text.
    package func matches<S: StringProtocol>(_ line: S) -> Bool {
        if let found = line.utf8.withContiguousStorageIfAvailable({ firstMatch(in: $0) != nil }) { return found }
        return Array(line.utf8).withUnsafeBufferPointer { firstMatch(in: $0) != nil }
    }

    /// The offset of the first marker in `bytes`, or `nil`.
    ///
    /// - Complexity: as ``matches(_:)``.
    package func firstMatch(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = 0
        while index < count {
            let candidates = byFirstByte[Int(bytes[index])]
            if !candidates.isEmpty {
                for marker in candidates where index + marker.count <= count {
                    var offset = 1
                    while offset < marker.count, bytes[index + offset] == marker[offset] { offset += 1 }
                    if offset == marker.count { return index }
                }
            }
            index += 1
        }
        return nil
    }
}
