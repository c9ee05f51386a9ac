import MemoryPressureFormats
import MemoryPressureSimulation
import PropertyBased
import TestSupport
import Testing

// The word-at-a-time marker search (`ByteMarkers.firstMatch(in:)` on a text of 64 bytes or more)
// against the plainest search: every start, every marker.

/// The earliest start of any of `markers` in `text`, found the plain way.
private func naiveFirstMatch(_ markers: [String], in text: [UInt8]) -> Int? {
    let patterns = markers.map { Array($0.utf8) }.filter { !$0.isEmpty }
    for start in text.indices {
        for pattern in patterns where start + pattern.count <= text.count {
            if text[start..<start + pattern.count].elementsEqual(pattern) { return start }
        }
    }
    return nil
}

private let markerSets: [[String]] = [
    KillHistoryReader.passOverMarkers.strings,
    ["#", "=3D", "\u{A0}", "lmkd", "pid ]", "Out of memory", "invoked oom-killer"],
    ["ab", "abc", "abcd", "bcdef", "x"],
    ["\u{E9}t\u{E9}", "caf\u{E9}"],
]

/// Bytes that make markers and near-misses likely: the markers' own bytes, blanks, line ends.
private func randomText(seed: Int, markers: [String], length: Int) -> [UInt8] {
    var random = SeededGenerator(seed: UInt64(seed))
    let pieces = markers.map { Array($0.utf8) } + [Array(" \n".utf8), [0xC2], [0xFF]]
    var text: [UInt8] = []
    while text.count < length {
        switch random.next() % 4 {
        case 0:
            // A piece of a marker: its start, its end, or the whole.
            let piece = pieces[Int(random.next() % UInt64(pieces.count))]
            let cut = Int(random.next() % UInt64(piece.count + 1))
            text += random.next() % 2 == 0 ? Array(piece[..<cut]) : Array(piece[cut...])
        case 1: text += pieces[Int(random.next() % UInt64(pieces.count))]
        default: text.append(UInt8(truncatingIfNeeded: random.next() % 96 + 32))
        }
    }
    return Array(text.prefix(length))
}

@Suite("ByteMarkers: the word-at-a-time search finds what a plain search finds")
struct ByteMarkersTests {
    @Test("random texts of marker pieces and near-misses, every marker set, lengths 0 to 400")
    func againstPlainSearch() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...400)) { seed, length in
            for markers in markerSets {
                let text = randomText(seed: seed, markers: markers, length: length)
                let actual = text.withUnsafeBufferPointer { ByteMarkers(markers).firstMatch(in: $0) }
                #expect(actual == naiveFirstMatch(markers, in: text), "seed \(seed), length \(length), \(markers)")
            }
        }
    }

    @Test("a marker at every offset of a long text, alone", .singleThreadedLongRun)
    func everyOffset() {
        let markers = KillHistoryReader.passOverMarkers
        for marker in markers.strings {
            for offset in stride(from: 0, through: 90, by: 1) {
                var text = [UInt8](repeating: 0x2E, count: 100)
                let bytes = Array(marker.utf8)
                text.replaceSubrange(offset..<min(text.count, offset + bytes.count), with: bytes.prefix(100 - offset))
                let expected = naiveFirstMatch(markers.strings, in: text)
                #expect(
                    text.withUnsafeBufferPointer { markers.firstMatch(in: $0) } == expected, "\(marker) at \(offset)")
            }
        }
    }
}
