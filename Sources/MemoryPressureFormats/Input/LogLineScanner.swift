import MemoryPressure

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a long log at the speed of its bytes: in blocks (1 MiB by default; a line cut by a block's
/// end is carried over to the next), handing a ``PassingOverLineConsumer`` decoded only the lines
/// it must read: the lines that hold one of its markers, and every line while it may not pass
/// over (inside a report). The runs of lines between are searched for the markers eight bytes at
/// a time (``ByteMarkers/firstMatch(in:)``), their line ends counted and their bytes checked to be
/// UTF-8 a word at a time, and never made into strings.
///
/// It reads what `ByteLineReader` reads, the same way: lines end with LF or CRLF (a CR before the
/// LF is dropped, and one more CR before that; a last line without LF loses one CR), one UTF-8 byte
/// order mark at the start is skipped, and the same errors are reported for the same line: a line
/// longer than ``maximumLineBytes``, a byte that is not UTF-8 (with its byte offset in the input),
/// a read that fails. Memory stays at one block, or one line of at most ``maximumLineBytes`` if
/// longer, whatever the input.
package final class LogLineScanner {
    /// What the lines are read from.
    package enum Source {
        /// An open descriptor read with `read(2)` until it returns 0 (a pipe, standard input); it
        /// is not closed.
        case descriptor(Int32)
        /// An open regular file read with `pread(2)` from offset 0; it is not closed.
        case file(Int32)
        /// Bytes in memory.
        case bytes([UInt8])
    }

    /// The default size of one read: 1 MiB.
    package static let defaultBlockBytes = 1 << 20
    /// The default longest line: 16 MiB, as `ByteLineReader`'s.
    package static let defaultMaximumLineBytes = 16 << 20

    /// The longest line accepted, in bytes without its line end (the limit given, within 1...Int.max / 2).
    package let maximumLineBytes: Int
    /// The name used in error messages.
    package let file: String
    /// The number of lines read or passed over so far.
    package private(set) var lineNumber = 0
    /// The largest the buffer has been, in bytes: at most one block, or ``maximumLineBytes`` plus
    /// one when a line is longer than a block.
    package private(set) var peakCapacity: Int

    private let source: Source
    private let owner: AnyObject?
    /// The buffer: `capacity` bytes of input, and 16 more that are never input.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The unread input is `buffer[start..<end]`; `start` is always the start of a line.
    private var start = 0, end = 0
    private var sawEnd = false
    /// The input offset of `buffer[0]`.
    private var bufferOffset: Int64 = 0
    /// The byte position in `bytes` input.
    private var bytesOffset = 0

    /// A scanner of `source`; `file` names the input in errors. A descriptor or file is read
    /// `blockBytes` at a time (at most one more than `maximumLineBytes`). `owner`, if given, is
    /// kept alive as long as the scanner (the object that closes the descriptor when released).
    ///
    /// - Complexity: O(`blockBytes`) for the buffer.
    package init(
        _ source: Source, file: String, maximumLineBytes: Int = LogLineScanner.defaultMaximumLineBytes,
        blockBytes: Int = LogLineScanner.defaultBlockBytes, owner: AnyObject? = nil
    ) {
        self.source = source
        self.file = file
        self.owner = owner
        // At most half the largest Int, so that the sizes derived from it cannot overflow.
        self.maximumLineBytes = min(max(maximumLineBytes, 1), Int.max / 2)
        capacity = min(max(blockBytes, 1), self.maximumLineBytes + 1)
        buffer = .allocate(capacity: capacity + 16)
        peakCapacity = capacity
    }

    deinit { buffer.deallocate() }

    /// Reads the whole input into `consumer`: the lines it must read through
    /// ``PassingOverLineConsumer/consume(_:lineNumber:)``, the others, in runs, through
    /// ``PassingOverLineConsumer/passOver(_:)``.
    ///
    /// - Throws: `InputError` for a line longer than ``maximumLineBytes``, a byte that is not
    ///   UTF-8 or a read that fails (after every line before it was read), or what `consumer` throws.
    /// - Complexity: O(length of the input), about eight bytes at a time outside the lines
    ///   `consumer` reads; memory O(block size + longest line).
    package func run<Consumer: PassingOverLineConsumer>(_ consumer: inout Consumer) throws(InputError) {
        try skipByteOrderMark()
        let markers = consumer.passOverMarkers
        while true {
            if consumer.mayPassOver {
                if let whole = wholeLinesEnd(), whole > start {
                    let hit = markers.firstMatch(in: UnsafeBufferPointer(start: buffer + start, count: whole - start))
                    let runEnd = hit.map { lineStart(before: start + $0) } ?? whole
                    try passOver(start..<runEnd, into: &consumer)
                    // The line with a marker is read whole (it is in the buffer).
                    if hit != nil { _ = try readLine(into: &consumer) }
                    continue
                }
                if !sawEnd {
                    guard end - start <= maximumLineBytes else { throw tooLong() }
                    try fill()
                    continue
                }
            }
            guard try readLine(into: &consumer) else { return }
        }
    }

    /// The end of the whole lines in the buffer from `start`: after its last LF, or at the end of
    /// the input its end (unless the last line is too long: it is then read, to report it).
    private func wholeLinesEnd() -> Int? {
        var index = end
        while index > start, buffer[index - 1] != 0x0A { index -= 1 }
        if sawEnd, end - index <= maximumLineBytes { return end }
        return index
    }

    /// Reads the line at `start` into `consumer`, filling the buffer first if it is cut; `false`
    /// at the end of the input.
    private func readLine<Consumer: PassingOverLineConsumer>(into consumer: inout Consumer) throws(InputError)
        -> Bool
    {
        while true {
            if let newline = firstNewline(from: start) {
                guard newline - start <= maximumLineBytes else { throw tooLong() }
                var upper = newline
                if upper > start, buffer[upper - 1] == 0x0D {
                    upper -= 1
                    if upper > start, buffer[upper - 1] == 0x0D { upper -= 1 }
                }
                try deliver(start..<upper, into: &consumer)
                start = newline + 1
                return true
            }
            if sawEnd {
                guard start < end else { return false }
                guard end - start <= maximumLineBytes else { throw tooLong() }
                var upper = end
                if buffer[upper - 1] == 0x0D { upper -= 1 }
                try deliver(start..<upper, into: &consumer)
                start = end
                return true
            }
            guard end - start <= maximumLineBytes else { throw tooLong() }
            try fill()
        }
    }

    /// Decodes the line in `range` (its text) and hands it to `consumer`.
    private func deliver<Consumer: PassingOverLineConsumer>(_ range: Range<Int>, into consumer: inout Consumer)
        throws(InputError)
    {
        lineNumber += 1
        let bytes = UnsafeBufferPointer(start: buffer + range.lowerBound, count: range.count)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw invalidByte(in: bytes, lineStart: range.lowerBound)
        }
        try consumer.consume(text[...], lineNumber: lineNumber)
    }

    /// Hands the whole lines in `range` to `consumer` as passed over, after checking that they
    /// are UTF-8 (an invalid one is reported after the lines before it are passed over).
    private func passOver<Consumer: PassingOverLineConsumer>(_ range: Range<Int>, into consumer: inout Consumer)
        throws(InputError)
    {
        guard !range.isEmpty else { return }
        let all = UnsafeBufferPointer(start: buffer, count: end)
        var from = range.lowerBound
        while let high = ByteWords.firstNonASCII(in: all, from..<range.upperBound) {
            let lineStart = lineStart(before: high)
            let newline = firstNewline(from: high, before: range.upperBound)
            var upper = newline ?? range.upperBound
            if upper > lineStart, buffer[upper - 1] == 0x0D {
                upper -= 1
                if newline != nil, upper > lineStart, buffer[upper - 1] == 0x0D { upper -= 1 }
            }
            let line = UnsafeBufferPointer(start: buffer + lineStart, count: upper - lineStart)
            if String(validating: line, as: UTF8.self) == nil {
                hand(range.lowerBound..<lineStart, to: &consumer)
                lineNumber += 1
                throw invalidByte(in: line, lineStart: lineStart)
            }
            guard let newline else { break }
            from = newline + 1
        }
        hand(range, to: &consumer)
        start = range.upperBound
    }

    /// Tells `consumer` of the whole lines in `range` (checked), and counts them.
    private func hand<Consumer: PassingOverLineConsumer>(_ range: Range<Int>, to consumer: inout Consumer) {
        guard !range.isEmpty else { return }
        let text = UnsafeBufferPointer(start: buffer + range.lowerBound, count: range.count)
        var count = ByteWords.count(0x0A, in: text, 0..<text.count)
        if text[text.count - 1] != 0x0A { count += 1 }  // the last line, without a line end
        consumer.passOver(PassedOverLines(count: count, firstLineNumber: lineNumber + 1, text: text))
        lineNumber += count
    }

    /// The text of the line in `range` of `text` (without its LF): a CR before the LF is dropped,
    /// and one more CR before that; a last line without LF loses one CR.
    static func content(of text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, endedWithNewline: Bool)
        -> UnsafeBufferPointer<UInt8>
    {
        var upper = range.upperBound
        if upper > range.lowerBound, text[upper - 1] == 0x0D {
            upper -= 1
            if endedWithNewline, upper > range.lowerBound, text[upper - 1] == 0x0D { upper -= 1 }
        }
        return UnsafeBufferPointer(rebasing: text[range.lowerBound..<upper])
    }

    // MARK: - The buffer

    /// Skips one UTF-8 byte order mark at the start (a buffer of fewer than 3 bytes, for a longest
    /// line of 1 byte, cannot hold one: its line is too long anyway).
    private func skipByteOrderMark() throws(InputError) {
        while end - start < 3 && !sawEnd && end - start <= maximumLineBytes { try fill() }
        if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
            start += 3
        }
    }

    /// The start of the line that holds `index` (the byte after the LF before it, or `start`).
    private func lineStart(before index: Int) -> Int {
        var index = index
        while index > start, buffer[index - 1] != 0x0A { index -= 1 }
        return index
    }

    /// The first LF at or after `index` and before `limit` (the end of the input read), or `nil`.
    private func firstNewline(from index: Int, before limit: Int? = nil) -> Int? {
        let limit = limit ?? end
        guard index < limit, let found = memchr(buffer + index, 0x0A, limit - index) else { return nil }
        return UnsafeRawPointer(buffer).distance(to: UnsafeRawPointer(found))
    }

    /// Reads more input: moves the unread bytes to the front, grows the buffer if it is full
    /// (doubling, up to one more than the longest line), and reads once.
    private func fill() throws(InputError) {
        if start > 0 {
            let unread = end - start
            if unread > 0 { memmove(buffer, buffer + start, unread) }
            bufferOffset += Int64(start)
            start = 0
            end = unread
        }
        if end == capacity {
            let grown = min(capacity * 2, maximumLineBytes + 1)
            if grown > capacity {
                let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown + 16)
                larger.update(from: buffer, count: end)
                buffer.deallocate()
                buffer = larger
                capacity = grown
                peakCapacity = max(peakCapacity, capacity)
            }
        }
        guard end < capacity else { return }
        while true {
            let count: Int
            switch source {
            case .descriptor(let descriptor):
                count = read(descriptor, buffer + end, capacity - end)
            case .file(let descriptor):
                count = pread(descriptor, buffer + end, capacity - end, off_t(bufferOffset) + off_t(end))
            case .bytes(let bytes):
                count = min(capacity - end, bytes.count - bytesOffset)
                bytes.withUnsafeBufferPointer { all in
                    if count > 0 { (buffer + end).update(from: all.baseAddress! + bytesOffset, count: count) }
                }
                bytesOffset += count
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(
                    file: file, line: lineNumber + 1, column: 0, path: "",
                    message: "cannot be read (\(String(cString: strerror(errno))))")
            }
            if count == 0 { sawEnd = true } else { end += count }
            return
        }
    }

    private func tooLong() -> InputError {
        InputError(
            file: file, line: lineNumber + 1, column: 0, path: "",
            message: "a line longer than the limit of \(maximumLineBytes) bytes")
    }

    /// The error for the line `bytes` (just counted in ``lineNumber``), which is not UTF-8: the
    /// input offset of its first invalid byte.
    private func invalidByte(in bytes: UnsafeBufferPointer<UInt8>, lineStart: Int) -> InputError {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += scalar.utf8.count
            case .emptyInput, .error: break loop
            }
        }
        return InputError(
            file: file, line: lineNumber, column: 0, path: "",
            message: "expected UTF-8 text, found an invalid byte at offset \(bufferOffset + Int64(lineStart + offset))")
    }
}
