/// A set of byte strings to look for in a line, or in a whole block of a log, without decoding it
/// as text. The readers use it to pass over the lines of a long log that can say nothing to them.
///
/// Two searches give the same answers. A short text is searched a byte at a time: each byte is
/// looked up in a 256-entry table of the strings' first bytes, and only the strings starting with
/// it are compared there. A long text (a block of a log) is searched eight bytes at a time
/// (``firstMatch(in:)``): every second position's three bytes are hashed into a 65,536-entry
/// table of the three-byte windows at offsets 0 and 1 of every string of four bytes or more
/// (whatever a string's start, one of them is probed), and the strings of one to three bytes are found by their first byte with word-at-a-time
/// tests; only a hit is compared in full.
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
    /// The first bytes (ASCII) of the markers shorter than four bytes, each repeated in the eight
    /// bytes of a word (one to three: the first repeated; or more), and whether one of them
    /// starts with a byte that is not ASCII.
    private let shortWords: [UInt64]
    private let shortStartsHigh: Bool
    /// The largest offset of a hashed window in its marker.
    private let farthestWindow: Int

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
        let farthestWindow = 1
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
            // The windows at offsets 0 and 1: one of them is probed, whatever the marker's start.
            // (Choosing the pair least like common English text made no difference on a syslog.)
            for offset in 0...1 {
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
        var shortWords = shortFirstBytes.map { 0x0101_0101_0101_0101 &* UInt64($0) }
        while !shortWords.isEmpty && shortWords.count < 3 { shortWords.append(shortWords[0]) }
        self.shortWords = shortWords
        self.shortStartsHigh = shortStartsHigh
        self.farthestWindow = farthestWindow
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
        let found: Int? = windows.withUnsafeBufferPointer { windows in
            shortWords.withUnsafeBufferPointer { shortWords in
                let windows = windows.baseAddress!
                let highMask = shortStartsHigh ? ByteWords.high : 0
                let hasShort = shortStartsHigh || !shortWords.isEmpty
                let (short0, short1, short2) =
                    shortWords.count == 3 ? (shortWords[0], shortWords[1], shortWords[2]) : (0, 0, 0)
                var word = 0
                // Each step reads the 8 bytes at `word` and the 3-byte windows at its even offsets
                // (up to `word + 13`).
                while word &+ 16 <= count {
                    let bytes = ByteWords.load(base, word)
                    let next = ByteWords.load(base, word &+ 8)
                    let b0 = windows[Self.hash(UInt32(truncatingIfNeeded: bytes))]
                    let b2 = windows[Self.hash(UInt32(truncatingIfNeeded: bytes >> 16))]
                    let b4 = windows[Self.hash(UInt32(truncatingIfNeeded: bytes >> 32))]
                    let b6 = windows[Self.hash(UInt32(truncatingIfNeeded: bytes >> 48 | next << 16))]
                    if b0 | b2 | b4 | b6 != 0 {
                        if b0 != 0, let start = verify(bucket: Int(b0), at: word, in: text) { return start }
                        if b2 != 0, let start = verify(bucket: Int(b2), at: word &+ 2, in: text) { return start }
                        if b4 != 0, let start = verify(bucket: Int(b4), at: word &+ 4, in: text) { return start }
                        if b6 != 0, let start = verify(bucket: Int(b6), at: word &+ 6, in: text) { return start }
                    }
                    if hasShort {
                        var hits = bytes & highMask
                        if shortWords.count == 3 {
                            hits |=
                                ByteWords.equal(bytes, repeated: short0) | ByteWords.equal(bytes, repeated: short1)
                                | ByteWords.equal(bytes, repeated: short2)
                        } else {
                            for short in shortWords { hits |= ByteWords.equal(bytes, repeated: short) }
                        }
                        while hits != 0 {
                            let start = word &+ hits.trailingZeroBitCount / 8
                            hits &= hits &- 1
                            if let found = firstMatchByByte(in: text, starts: start..<start + 1) { return found }
                        }
                    }
                    word &+= 8
                }
                // The rest a byte at a time, from the first start whose windows the words did not
                // all probe.
                let tail = max(0, word - 1 - farthestWindow)
                return firstMatchByByte(in: text, starts: tail..<count).map { -1 - $0 }
            }
        }
        guard let found else { return nil }
        // A match of the tail is final; one of the words may follow one a few bytes earlier.
        return found < 0 ? -1 - found : earliest(before: found, in: text)
    }

    /// The start of a marker whose window sits at `probe` in `bucket`'s probes, or `nil`.
    private func verify(bucket: Int, at probe: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        for index in bucketStarts[bucket]..<bucketStarts[bucket + 1] {
            let (marker, offset) = probes[index]
            let start = probe - offset
            if start >= 0, matchesMarker(marker, at: start, in: text) { return start }
        }
        return nil
    }

    /// The earliest start of a marker in `text` at or before `start`: a match found by the word
    /// search may be preceded by one whose window lies a few bytes further on.
    private func earliest(before start: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        firstMatchByByte(in: text, starts: max(0, start - 16 - farthestWindow)..<start) ?? start
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
