import Foundation
import MemoryPressure
import MemoryPressureSimulation
import PropertyBased
import Testing

// ByteLineReader against a plain model of the project's text conventions (whole input in memory,
// split at LF): every source, every buffer size, limits down to one byte.

/// What reading `bytes` whole gives: the lines (a CR before the LF dropped, and one more before
/// that; a last line without LF loses one CR), then the first error's description, if any.
private func modelLines(_ bytes: [UInt8], file: String, limit: Int, byteOrderMarks: Int) -> ([String], String?) {
    var start = 0
    for _ in 0..<byteOrderMarks where bytes[start...].starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
    var lines: [String] = []
    while start < bytes.count {
        let newline = bytes[start...].firstIndex(of: 0x0A)
        let end = newline ?? bytes.count
        let number = lines.count + 1
        guard end - start <= limit else {
            return (lines, "\(file):\(number): a line longer than the limit of \(limit) bytes")
        }
        var upper = end
        for _ in 0..<(newline == nil ? 1 : 2) where upper > start && bytes[upper - 1] == 0x0D { upper -= 1 }
        guard let line = String(validating: bytes[start..<upper], as: UTF8.self) else {
            // The first invalid byte ends the longest prefix that is valid UTF-8.
            let valid = stride(from: upper, through: start, by: -1).first {
                String(validating: bytes[start..<$0], as: UTF8.self) != nil
            }!
            return (lines, "\(file):\(number): expected UTF-8 text, found an invalid byte at offset \(valid)")
        }
        lines.append(line)
        start = end + 1
    }
    return (lines, nil)
}

/// Every line `reader` gives, then its error's description, if any.
private func readAll(_ reader: ByteLineReader) -> ([String], String?) {
    var lines: [String] = []
    do {
        while let line = try reader.nextLine() { lines.append(line) }
        return (lines, nil)
    } catch {
        return (lines, error.description)
    }
}

/// Input pieces: ASCII, line ends, byte order marks (anywhere), a two-byte letter, an invalid byte
/// and the first half of a two-byte letter.
private let pieces: [[UInt8]] = [
    [0x61], [0x0A], [0x0D], [0xEF, 0xBB, 0xBF], [0xC3, 0xA9], [0xFF], [0xC3], [0x62, 0x63, 0x64],
]

@Suite("ByteLineReader: every source and buffer size reads what the whole input gives")
struct ByteLineReaderTests {
    @Test("random inputs, limits of 1 to 6 bytes, buffers of 1 to 8, up to two byte order marks")
    func againstModel() async {
        let input = Gen.int(in: 0..<pieces.count).array(of: 0...30)
        await propertyCheck(count: 300, input: input, Gen.int(in: 0...1_000)) { choices, settings in
            let bytes = choices.flatMap { pieces[$0] }
            let limit = 1 + settings % 6
            let capacity = 1 + (settings / 6) % 8
            let marks = (settings / 48) % 3
            let expected = modelLines(bytes, file: "in", limit: limit, byteOrderMarks: marks)
            let label = "\(bytes), limit \(limit), buffer \(capacity), marks \(marks)"
            let inMemory = readAll(
                ByteLineReader(.bytes(bytes), file: "in", maximumLineBytes: limit, byteOrderMarks: marks))
            #expect(inMemory.0 == expected.0 && inMemory.1 == expected.1, "bytes: \(label)")
            guard let file = try? TemporaryInput(bytes) else {
                Issue.record("no temporary file")
                return
            }
            defer { file.close() }
            let positioned = ByteLineReader(
                .file(file.descriptor), file: "in", maximumLineBytes: limit, byteOrderMarks: marks,
                initialCapacity: capacity)
            let fromFile = readAll(positioned)
            #expect(fromFile.0 == expected.0 && fromFile.1 == expected.1, "file: \(label)")
            #expect(positioned.peakCapacity <= max(limit + 1, 3), "file: \(label)")
            let descriptor = open(file.path, O_RDONLY)
            defer { _ = close(descriptor) }
            let streamed = readAll(
                ByteLineReader(
                    .descriptor(descriptor), file: "in", maximumLineBytes: limit, byteOrderMarks: marks,
                    initialCapacity: capacity))
            #expect(streamed.0 == expected.0 && streamed.1 == expected.1, "descriptor: \(label)")
        }
    }

    /// A buffer of the limit plus one byte could not hold a byte order mark's three bytes below a
    /// limit of 2, and the reader waited for them forever; the buffer now holds at least three.
    @Test("a limit of 1 byte still skips a byte order mark at the start of a file", arguments: [1, 2])
    func byteOrderMarkUnderTinyLimit(limit: Int) throws {
        let file = try TemporaryInput("\u{FEFF}a\nb\n\n")
        defer { file.close() }
        let reader = ByteLineReader(.file(file.descriptor), file: "in", maximumLineBytes: limit, initialCapacity: 1)
        let (lines, error) = readAll(reader)
        #expect(lines == ["a", "b", ""])
        #expect(error == nil)
        #expect(reader.peakCapacity == 3)
    }

    @Test("the largest limit a caller can pass reads as any other (no size derived from it overflows)")
    func largestLimit() throws {
        let file = try TemporaryInput("a\nb")
        defer { file.close() }
        for source in [ByteLineReader.Source.bytes(Array("a\nb".utf8)), .file(file.descriptor)] {
            let reader = ByteLineReader(source, file: "in", maximumLineBytes: .max)
            #expect(reader.maximumLineBytes == Int.max / 2)
            let (lines, error) = readAll(reader)
            #expect(lines == ["a", "b"] && error == nil)
        }
    }
}
