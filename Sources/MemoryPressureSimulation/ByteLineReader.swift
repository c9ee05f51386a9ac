import MemoryPressure

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a text input one line at a time through one reused byte buffer, so a file of any length
/// is read with bounded memory: the buffer starts at ``initialCapacity`` bytes and grows (by
/// doubling) only to hold one line longer than it, up to ``maximumLineBytes`` plus one byte (or 3
/// bytes, a byte order mark's length, if that is more). The text is read from a file descriptor
/// (the caller opens and closes it) or from bytes already in memory, with the conventions of every
/// text input of the project (`InputText`): lines end with LF or CRLF, a UTF-8 byte order mark at
/// the start is ignored.
///
/// Each line is checked to be UTF-8; an invalid byte is reported with its line and its byte
/// offset in the file, as reading a whole file reported it.
public final class ByteLineReader {
    /// What the lines are read from.
    public enum Source {
        /// An open file descriptor, read with `read(2)` until it returns 0 (a pipe, a terminal, a
        /// file at its current offset); it is not closed.
        case descriptor(Int32)
        /// An open regular file, read with `pread(2)` from offset 0 without moving the file's
        /// offset, so several readers may read the same descriptor at once; it is not closed.
        case file(Int32)
        /// Bytes in memory.
        case bytes([UInt8])
    }

    /// The buffer's size before any line needs more: 64 KiB.
    public static let initialCapacity = 64 << 10

    /// The default longest line: 16 MiB (a launch with the most views a trace allows, 1,000,
    /// each with a long name, is well under 1 MiB).
    public static let defaultMaximumLineBytes = 16 << 20

    /// The longest line accepted, in bytes without its line end (the limit given, within 1...Int.max / 2).
    public let maximumLineBytes: Int
    /// The name used in error messages.
    public let file: String

    private let source: Source
    /// Kept alive as long as the reader.
    private let owner: AnyObject?
    private var buffer: [UInt8]
    /// The first byte of `buffer` not yet handed out.
    private var start = 0
    /// The number of bytes of `buffer` that hold input.
    private var end = 0
    private var sawEnd = false
    /// The file offset of `buffer[0]`.
    private var bufferOffset: Int64 = 0
    private var byteOrderMarksLeft: Int
    /// The buffer's largest size: one byte more than the longest line, so that a line at the limit
    /// and the first byte after it fit, and at least the three bytes of a byte order mark (with a
    /// limit of 1 the buffer would otherwise wait forever for a mark's third byte).
    private let capacityLimit: Int

    /// The 1-based number of the line last returned (0 before the first).
    public private(set) var lineNumber = 0
    /// The byte offset in the input of the first byte of the line last returned.
    public private(set) var lineOffset: Int64 = 0
    /// Whether the line last returned ended with LF (false only for a last line without one).
    public private(set) var lineEndedWithNewline = false
    /// The largest the buffer has been, in bytes: at most ``maximumLineBytes`` plus one (and at
    /// most 3 for a limit below 2), whatever the length of the input.
    public private(set) var peakCapacity: Int
    /// How many times the buffer was refilled from the source (for tests that count work).
    public private(set) var reads = 0

    /// A reader of `source`; `file` names the input in errors. Up to `byteOrderMarks` UTF-8 byte
    /// order marks at the very start are skipped (they still count in byte offsets). A
    /// descriptor's buffer starts at `initialCapacity` bytes (at most one more than
    /// `maximumLineBytes`, or 3). `owner`, if given, is kept alive as long as the reader (the object
    /// that closes the descriptor when released).
    ///
    /// - Complexity: O(`initialCapacity`) for the buffer
    public init(
        _ source: Source, file: String, maximumLineBytes: Int = ByteLineReader.defaultMaximumLineBytes,
        byteOrderMarks: Int = 1, initialCapacity: Int = ByteLineReader.initialCapacity, owner: AnyObject? = nil
    ) {
        self.source = source
        self.owner = owner
        self.file = file
        // At most half the largest Int, so that the sizes derived from it cannot overflow.
        self.maximumLineBytes = min(max(maximumLineBytes, 1), Int.max / 2)
        self.byteOrderMarksLeft = byteOrderMarks
        self.capacityLimit = max(self.maximumLineBytes + 1, 3)
        switch source {
        case .descriptor, .file:
            buffer = [UInt8](repeating: 0, count: min(max(initialCapacity, 1), capacityLimit))
        case .bytes(let bytes):
            buffer = bytes
            end = bytes.count
            sawEnd = true
        }
        peakCapacity = buffer.count
    }

    /// The next line as text without its line end (a CR before the LF is dropped, and one more CR
    /// before that, as `InputText.lines` splits at the `"\r\n"` character), or `nil` at the end.
    ///
    /// - Throws: `InputError` for a line longer than ``maximumLineBytes``, a byte that is not
    ///   UTF-8, or a read that fails.
    /// - Complexity: O(length of the line), amortized.
    public func nextLine() throws(InputError) -> String? {
        guard let range = try checked({ () throws(InputError) in try nextLineRange() }) else { return nil }
        var upper = range.upperBound
        if lineEndedWithNewline {
            if upper > range.lowerBound, buffer[upper - 1] == 0x0D {
                upper -= 1
                if upper > range.lowerBound, buffer[upper - 1] == 0x0D { upper -= 1 }
            }
        } else if upper > range.lowerBound, buffer[upper - 1] == 0x0D {
            upper -= 1
        }
        return try checked({ () throws(InputError) in try text(range.lowerBound..<upper) })
    }

    /// The next line as text with a CR before its LF kept (for readers, such as the CSV reader,
    /// that decide themselves what a CR means), or `nil` at the end.
    ///
    /// - Throws: as ``nextLine()``.
    /// - Complexity: O(length of the line), amortized.
    public func nextRawLine() throws(InputError) -> String? {
        guard let range = try checked({ () throws(InputError) in try nextLineRange() }) else { return nil }
        return try checked({ () throws(InputError) in try text(range) })
    }

    /// The next line as ``nextRawLine()`` returns it, without moving past it (the next read
    /// returns it again), or `nil` at the end.
    ///
    /// - Throws: as ``nextLine()``.
    /// - Complexity: O(length of the line), amortized.
    public func peekRawLine() throws(InputError) -> String? {
        let saved = (lineNumber, lineOffset, lineEndedWithNewline)
        guard let range = try checked({ () throws(InputError) in try nextLineRange() }) else { return nil }
        defer {
            // The line is read again by the next read (which reports a bad byte in it).
            start = range.lowerBound
            (lineNumber, lineOffset, lineEndedWithNewline) = saved
        }
        return try text(range)
    }

    /// Whether reading failed (a line too long, a byte that is not UTF-8, a failed read): the
    /// error reported is the first a whole-file read would have found.
    public private(set) var failed = false

    private func checked<T>(_ body: () throws(InputError) -> T) throws(InputError) -> T {
        do {
            return try body()
        } catch {
            failed = true
            throw error
        }
    }

    /// Decodes `range` of the buffer, reporting the first invalid byte with its file offset.
    private func text(_ range: Range<Int>) throws(InputError) -> String {
        let decoded = buffer.withUnsafeBufferPointer { all in
            String(validating: UnsafeBufferPointer(rebasing: all[range]), as: UTF8.self)
        }
        if let decoded { return decoded }
        var offset = 0
        var iterator = buffer[range].makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += scalar.utf8.count
            case .emptyInput, .error: break loop
            }
        }
        throw InputError(
            file: file, line: lineNumber, column: 0, path: "",
            message: "expected UTF-8 text, found an invalid byte at offset \(lineOffset + Int64(offset))")
    }

    /// The buffer range of the next line without its LF, advancing past it.
    private func nextLineRange() throws(InputError) -> Range<Int>? {
        while byteOrderMarksLeft > 0 {
            // A byte order mark can only be recognized once three bytes are in.
            if end - start >= 3 {
                guard buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF else {
                    byteOrderMarksLeft = 0
                    break
                }
                start += 3
                byteOrderMarksLeft -= 1
            } else if sawEnd {
                byteOrderMarksLeft = 0
            } else {
                _ = try fill()
            }
        }
        var scanFrom = start
        while true {
            if let newline = firstNewline(from: scanFrom) {
                guard newline - start <= maximumLineBytes else { throw tooLong() }
                return take(start..<newline, newline: true)
            }
            if sawEnd {
                guard start < end else { return nil }
                guard end - start <= maximumLineBytes else { throw tooLong() }
                return take(start..<end, newline: false)
            }
            guard end - start <= maximumLineBytes else { throw tooLong() }
            scanFrom = end
            // `fill` may move the unread bytes to the front of the buffer.
            scanFrom -= try fill()
        }
    }

    private func take(_ range: Range<Int>, newline: Bool) -> Range<Int> {
        lineNumber += 1
        lineOffset = bufferOffset + Int64(range.lowerBound)
        lineEndedWithNewline = newline
        start = newline ? range.upperBound + 1 : range.upperBound
        return range
    }

    private func tooLong() -> InputError {
        InputError(
            file: file, line: lineNumber + 1, column: 0, path: "",
            message: "a line longer than the limit of \(maximumLineBytes) bytes")
    }

    private func firstNewline(from index: Int) -> Int? {
        guard index < end else { return nil }
        return buffer.withUnsafeBufferPointer { all -> Int? in
            guard let base = all.baseAddress,
                let found = memchr(base + index, 0x0A, end - index)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Reads more input: moves the unread bytes to the front, grows the buffer if it is full
    /// (doubling, up to `capacityLimit`), and reads once; returns how far the unread bytes moved.
    private func fill() throws(InputError) -> Int {
        let descriptor: Int32
        let positioned: Bool
        switch source {
        case .descriptor(let value): (descriptor, positioned) = (value, false)
        case .file(let value): (descriptor, positioned) = (value, true)
        case .bytes:
            sawEnd = true
            return 0
        }
        let moved = start
        if start > 0 {
            let unread = end - start
            if unread > 0 {
                buffer.withUnsafeMutableBufferPointer { all in
                    _ = memmove(all.baseAddress!, all.baseAddress! + start, unread)
                }
            }
            bufferOffset += Int64(start)
            start = 0
            end = unread
        }
        if end == buffer.count {
            let grown = min(buffer.count * 2, capacityLimit)
            if grown > buffer.count {
                buffer.append(contentsOf: repeatElement(0, count: grown - buffer.count))
                peakCapacity = max(peakCapacity, buffer.count)
            }
        }
        guard end < buffer.count else { return moved }
        while true {
            let offset = off_t(bufferOffset) + off_t(end)
            let count = buffer.withUnsafeMutableBufferPointer { all in
                positioned
                    ? pread(descriptor, all.baseAddress! + end, all.count - end, offset)
                    : read(descriptor, all.baseAddress! + end, all.count - end)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(
                    file: file, line: lineNumber + 1, column: 0, path: "",
                    message: "cannot be read (\(String(cString: strerror(errno))))")
            }
            reads += 1
            if count == 0 { sawEnd = true } else { end += count }
            return moved
        }
    }
}
