#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MemoryPressure

/// Parsers of `/proc/<pid>` files that read the bytes where they lie (in ``ProcScanner``'s
/// reused buffer): no `String` per line or field; the process name is the one `String` made.
///
/// They give what the earlier `String` parsers gave (`Status.parse` over
/// `ProcText.numberedLines`/`keyValue`/`kilobytes`, and `Int(ProcText.trimmed(text))`), which the
/// property tests check on generated files (`ProcBytesPropertyTests`): lines split at `\n`, a
/// key before the first colon, values trimmed of spaces, tabs, `\r` and `\n`, sizes as
/// `<integer> kB`, integers as Swift's `Int(_:)` reads them (an optional sign, then digits).
/// That equivalence holds for any bytes without `\r` and without combining marks right after
/// the structural bytes (colon, spaces, tabs, `Z`), where `String` would fuse them into one
/// grapheme and the old parsers saw no colon or no space; the kernel writes neither.
enum ProcBytes {
    /// Whether `bytes` are exactly `text`.
    ///
    /// - Complexity: O(length of `text`).
    static func equals(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { expected in
            expected.count == bytes.count && memcmp(expected.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
    }

    /// Whether `bytes[start..<end]` are exactly `text`.
    ///
    /// - Complexity: O(length of `text`).
    @inline(__always)
    static func equals(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { expected in
            guard expected.count == end - start else { return false }
            for index in 0..<expected.count where expected[index] != bytes[start + index] { return false }
            return true
        }
    }

    @inline(__always)
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// `bytes[start..<end]` without leading and trailing spaces, tabs, `\r` and `\n`
    /// (`ProcText.trimmed`).
    ///
    /// - Complexity: O(end − start).
    @inline(__always)
    static func trimmed(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> (start: Int, end: Int) {
        var low = start
        var high = end
        while low < high && isSpace(bytes[low]) { low += 1 }
        while high > low && isSpace(bytes[high - 1]) { high -= 1 }
        return (low, high)
    }

    /// The integer `bytes[start..<end]` spells, as `T(String)` reads it (an optional `+` or
    /// `-`, then ASCII digits, nothing else), or `nil`. Plain digits short enough not to
    /// overflow are read in place; anything else goes through the standard library's parser.
    ///
    /// - Complexity: O(end − start).
    static func integer<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> T? {
        let length = end - start
        if length > 0 && length <= 9 {
            var value = 0
            var index = start
            while index < end {
                let digit = bytes[index] &- 0x30
                guard digit <= 9 else { break }
                value = value &* 10 &+ Int(digit)
                index += 1
            }
            if index == end { return T(exactly: value) }
        }
        guard length > 0 else { return nil }
        return T(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
    }

    /// The integer a whole file such as `oom_score_adj` holds, trimmed first
    /// (`Int(ProcText.trimmed(text))`), or `nil`.
    ///
    /// - Complexity: O(file size).
    static func trimmedInteger(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let (start, end) = trimmed(bytes, 0, bytes.count)
        return integer(bytes, start, end)
    }

    /// A size written as `<integer> kB` in `bytes[start..<end]`, in bytes (`ProcText.kilobytes`:
    /// exactly two blank-separated words, the second `kB`, the first a non-negative `Int64`
    /// whose product by 1024 does not overflow), or `nil`.
    ///
    /// - Complexity: O(end − start).
    static func kilobytes(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bytes? {
        var index = start
        while index < end && isBlank(bytes[index]) { index += 1 }
        let numberStart = index
        while index < end && !isBlank(bytes[index]) { index += 1 }
        let numberEnd = index
        while index < end && isBlank(bytes[index]) { index += 1 }
        let unitStart = index
        while index < end && !isBlank(bytes[index]) { index += 1 }
        let unitEnd = index
        while index < end && isBlank(bytes[index]) { index += 1 }
        guard index == end, numberEnd > numberStart, equals(bytes, unitStart, unitEnd, "kB"),
            let kilobytes: Int64 = integer(bytes, numberStart, numberEnd), kilobytes >= 0
        else { return nil }
        let (product, overflow) = kilobytes.multipliedReportingOverflow(by: 1024)
        return overflow ? nil : Bytes(product)
    }

    /// Parses a `/proc/<pid>/status` file: `Name`, `State` (zombie if it starts with `Z`),
    /// `Kthread` (`1`), the first `Uid` (the real uid), `VmRSS`, `VmSwap` and `VmPTE`; other
    /// lines, and lines without a colon or with an empty key, are passed over; a repeated key's
    /// last line wins.
    ///
    /// - Throws: the first garbled field (`Uid`, `VmRSS`, `VmSwap`, `VmPTE`), by its key.
    /// - Complexity: O(file size).
    static func status(_ bytes: UnsafeRawBufferPointer) throws(LinuxProcess.Status.GarbledField) -> LinuxProcess.Status
    {
        var status = LinuxProcess.Status()
        let count = bytes.count
        var lineStart = 0
        while lineStart < count {
            var lineEnd = lineStart
            var colon = -1
            while lineEnd < count {
                let byte = bytes[lineEnd]
                if byte == 0x0A { break }
                if byte == 0x3A && colon < 0 { colon = lineEnd }
                lineEnd += 1
            }
            defer { lineStart = lineEnd + 1 }
            guard colon > lineStart else { continue }
            let (valueStart, valueEnd) = trimmed(bytes, colon + 1, lineEnd)
            switch colon - lineStart {
            case 3 where equals(bytes, lineStart, colon, "Uid"):
                var tokenEnd = valueStart
                while tokenEnd < valueEnd && !isBlank(bytes[tokenEnd]) { tokenEnd += 1 }
                guard let uid: UInt32 = integer(bytes, valueStart, tokenEnd) else {
                    throw LinuxProcess.Status.GarbledField(field: "Uid")
                }
                status.uid = uid
            case 4 where equals(bytes, lineStart, colon, "Name"):
                status.name = String(
                    decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
            case 5 where equals(bytes, lineStart, colon, "State"):
                status.isZombie = valueEnd > valueStart && bytes[valueStart] == 0x5A
            case 5 where equals(bytes, lineStart, colon, "VmRSS"):
                guard let size = kilobytes(bytes, valueStart, valueEnd) else {
                    throw LinuxProcess.Status.GarbledField(field: "VmRSS")
                }
                status.resident = size
            case 5 where equals(bytes, lineStart, colon, "VmPTE"):
                guard let size = kilobytes(bytes, valueStart, valueEnd) else {
                    throw LinuxProcess.Status.GarbledField(field: "VmPTE")
                }
                status.pageTables = size
            case 6 where equals(bytes, lineStart, colon, "VmSwap"):
                guard let size = kilobytes(bytes, valueStart, valueEnd) else {
                    throw LinuxProcess.Status.GarbledField(field: "VmSwap")
                }
                status.swap = size
            case 7 where equals(bytes, lineStart, colon, "Kthread"):
                status.isKernelThread = equals(bytes, valueStart, valueEnd, "1")
            default:
                continue
            }
        }
        return status
    }
}
