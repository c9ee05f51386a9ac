/// A set of byte strings to look for in a line, or in a whole block of a log, without decoding it
/// as text. The readers use it to pass over the lines of a long log that can say nothing to them.
///
/// Two searches give the same answers. A short text is searched a byte at a time: each byte is
/// looked up in a 256-entry table of the strings' first bytes, and only the strings starting with
/// it are compared there. A long text (a block of a log) is searched eight bytes at a time
/// (``firstMatch(in:)``): every second position's three bytes are hashed into a 65,536-entry
/// table of the three-byte windows at offsets 0 and 1 of every string of four bytes or more, and
/// the strings of one to three bytes are found by their first byte with word-at-a-time tests; only
/// a hit is compared in full.
package struct ByteMarkers: Sendable {
    /// The markers, as given (empty strings left out).
    package let strings: [String]
    /// Whether a byte starts some marker.
    private let starts: [Bool]
    /// Every marker, its bytes back to back in ``bytes`` from ``offsets``[i] for ``lengths``[i].
    private let bytes: [UInt8]
    private let offsets: [Int], lengths: [Int], firstBytes: [UInt8]
    /// The bucket (1 or more) of each hashed three-byte window that some marker holds; 0 for none.
    private let windows: [UInt8]
    /// Bucket `b`'s probes are `probes[bucketStarts[b]..<bucketStarts[b + 1]]`: a marker and the
    /// offset in it of the window.
    private let bucketStarts: [Int]
    private let probes: [(marker: Int, offset: Int)]
    /// The first bytes (ASCII) of the markers shorter than four bytes, and whether one of them
    /// starts with a byte that is not ASCII.
    private let shortFirstBytes: [UInt8]
    private let shortStartsHigh: Bool

    /// A text shorter than this is searched a byte at a time.
    static let wordSearchLength = 64

    /// A set of `markers` (empty strings are ignored).
    ///
    /// - Complexity: O(total length of the markers), plus the 64 KiB window table.
    package init(_ markers: [String]) {
        let markers = markers.filter { !$0.isEmpty }
        var starts = [Bool](repeating: false, count: 256)
        var bytes: [UInt8] = []
        var offsets: [Int] = [], lengths: [Int] = [], firstBytes: [UInt8] = []
        var lists: [Int: [(marker: Int, offset: Int)]] = [:]
        var shortFirstBytes: [UInt8] = []
        var shortStartsHigh = false
        for (index, marker) in markers.enumerated() {
            let utf8 = Array(marker.utf8)
            starts[Int(utf8[0])] = true
            offsets.append(bytes.count)
            lengths.append(utf8.count)
            firstBytes.append(utf8[0])
            bytes += utf8
            if utf8.count < 4 {
                if utf8[0] >= 0x80 {
                    shortStartsHigh = true
                } else if !shortFirstBytes.contains(utf8[0]) {
                    shortFirstBytes.append(utf8[0])
                }
                continue
            }
            for offset in 0..<2 {
                let window = UInt32(utf8[offset]) | UInt32(utf8[offset + 1]) << 8 | UInt32(utf8[offset + 2]) << 16
                lists[Self.hash(window), default: []].append((index, offset))
            }
        }
        var windows = [UInt8](repeating: 0, count: 1 << 16)
        var bucketLists: [[(marker: Int, offset: Int)]] = [[]]
        for (hash, list) in lists.sorted(by: { $0.key < $1.key }) {
            // At most 255 buckets: past that, the last one takes every further list.
            if bucketLists.count < 256 {
                windows[hash] = UInt8(bucketLists.count)
                bucketLists.append(list)
            } else {
                windows[hash] = 255
                bucketLists[255] += list
            }
        }
        var bucketStarts: [Int] = [0]
        for list in bucketLists { bucketStarts.append(bucketStarts.last! + list.count) }
        self.strings = markers
        self.starts = starts
        self.bytes = bytes
        self.offsets = offsets
        self.lengths = lengths
        self.firstBytes = firstBytes
        self.windows = windows
        self.bucketStarts = bucketStarts
        self.probes = bucketLists.flatMap { $0 }
        self.shortFirstBytes = shortFirstBytes
        self.shortStartsHigh = shortStartsHigh
    }

    /// The markers of every set in `sets`, as one set.
    ///
    /// - Complexity: O(total length of the markers)
    package init(union sets: [ByteMarkers]) {
        var seen: Set<String> = []
        self.init(sets.flatMap(\.strings).filter { seen.insert($0).inserted })
    }

    /// The table index of a three-byte window (its bytes in the low 24 bits, the first lowest).
    @inline(__always)
    private static func hash(_ window: UInt32) -> Int {
        Int(truncatingIfNeeded: ((window & 0xFF_FFFF) &* 0x9E37_79B1) >> 16)
    }

    /// Whether any marker occurs in `line`.
    ///
    /// - Complexity: O(length of `line`) table look-ups, plus a comparison where a byte starts a
    ///   marker.
    package func matches<S: StringProtocol>(_ line: S) -> Bool {
        if let found = line.utf8.withContiguousStorageIfAvailable({ firstMatch(in: $0) != nil }) { return found }
        return Array(line.utf8).withUnsafeBufferPointer { firstMatch(in: $0) != nil }
    }

    /// The offset of the first marker in `text` (the earliest start of any marker's occurrence),
    /// or `nil`.
    ///
    /// - Complexity: as ``matches(_:)``; a long text is searched about eight bytes at a time.
    package func firstMatch(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard text.count >= Self.wordSearchLength, let base = text.baseAddress else {
            return firstMatchByByte(in: text, starts: 0..<text.count)
        }
        let count = text.count
        return windows.withUnsafeBufferPointer { windows -> Int? in
            var word = 0
            // Each step reads the 8 bytes at `word` and the 3-byte windows at its even offsets (up
            // to `word + 9`).
            while word + 16 <= count {
                var probe = word
                while probe < word + 8 {
                    let window = UInt32(truncatingIfNeeded: ByteWords.load(base, probe))
                    let bucket = windows[Self.hash(window)]
                    if bucket != 0, let start = verify(bucket: Int(bucket), at: probe, in: text) {
                        return earliest(before: start, in: text)
                    }
                    probe &+= 2
                }
                if let start = shortMarker(inWordAt: word, of: text) {
                    return earliest(before: start, in: text)
                }
                word &+= 8
            }
            // The rest a byte at a time, from the last start the words did not cover.
            return firstMatchByByte(in: text, starts: max(0, word - 1)..<count)
        }
    }

    /// The start of a marker whose window sits at `probe` in `bucket`'s probes, or `nil`.
    @inline(__always)
    private func verify(bucket: Int, at probe: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        for index in bucketStarts[bucket]..<bucketStarts[bucket + 1] {
            let (marker, offset) = probes[index]
            let start = probe - offset
            if start >= 0, matchesMarker(marker, at: start, in: text) { return start }
        }
        return nil
    }

    /// The start of a marker shorter than four bytes in the 8 bytes at `word`, or `nil`.
    @inline(__always)
    private func shortMarker(inWordAt word: Int, of text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !shortFirstBytes.isEmpty || shortStartsHigh, let base = text.baseAddress else { return nil }
        let bytes = ByteWords.load(base, word)
        var hits: UInt64 = shortStartsHigh ? bytes & ByteWords.high : 0
        for byte in shortFirstBytes { hits |= ByteWords.equal(bytes, byte) }
        while hits != 0 {
            let start = word + hits.trailingZeroBitCount / 8
            hits &= hits &- 1
            if let found = firstMatchByByte(in: text, starts: start..<start + 1) { return found }
        }
        return nil
    }

    /// The earliest start of a marker in `text` at or before `start`, where one starts: a match
    /// found by the word search may be preceded by one found a few bytes later in its order.
    private func earliest(before start: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        firstMatchByByte(in: text, starts: max(0, start - 16)..<start) ?? start
    }

    /// Whether marker `marker` occurs at `start` of `text`.
    @inline(__always)
    private func matchesMarker(_ marker: Int, at start: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = lengths[marker], offset = offsets[marker]
        guard start + length <= text.count else { return false }
        var matched = 0
        while matched < length, text[start + matched] == bytes[offset + matched] { matched += 1 }
        return matched == length
    }

    /// The first start in `range` of a marker occurrence in `text`, a byte at a time.
    private func firstMatchByByte(in text: UnsafeBufferPointer<UInt8>, starts range: Range<Int>) -> Int? {
        starts.withUnsafeBufferPointer { starts in
            var index = range.lowerBound
            while index < range.upperBound {
                let byte = text[index]
                if starts[Int(byte)] {
                    for marker in 0..<offsets.count where firstBytes[marker] == byte {
                        if matchesMarker(marker, at: index, in: text) { return index }
                    }
                }
                index += 1
            }
            return nil
        }
    }
}
