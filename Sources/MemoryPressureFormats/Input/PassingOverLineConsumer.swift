import MemoryPressure

/// A reader of a log's lines that need not see every line: while ``mayPassOver`` holds, a line in
/// which none of ``passOverMarkers`` occurs would change nothing in it but what
/// ``passOver(_:)`` records (a count, a time). ``LogLineScanner`` hands it only the lines it must
/// read, decoded, and tells it of the others in runs, from their bytes.
package protocol PassingOverLineConsumer {
    /// A superset of what a line must hold for ``consume(_:lineNumber:)`` to matter while
    /// ``mayPassOver`` holds.
    var passOverMarkers: ByteMarkers { get }
    /// Whether a line without any of ``passOverMarkers`` may be passed over now (no report is
    /// open, nothing is held for the next line).
    var mayPassOver: Bool { get }
    /// Reads line `lineNumber` (1-based).
    mutating func consume(_ line: Substring, lineNumber: Int) throws(InputError)
    /// Records a run of lines passed over: what reading each of them would have recorded.
    mutating func passOver(_ lines: PassedOverLines)
}

/// A run of whole lines passed over, as bytes checked to be UTF-8: valid only during the
/// ``PassingOverLineConsumer/passOver(_:)`` call that receives it.
package struct PassedOverLines {
    /// How many lines.
    package let count: Int
    /// The 1-based number of the first.
    package let firstLineNumber: Int
    /// The lines with their line ends (the last may lack one, at the end of the input).
    let text: UnsafeBufferPointer<UInt8>

    /// The first non-`nil` result of `transform` on the lines' text (without line ends), from the
    /// first line on.
    ///
    /// - Complexity: O(bytes up to that line), plus the calls of `transform`.
    package func first<T>(_ transform: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        var start = 0
        while start < text.count {
            let end = text[start...].firstIndex(of: 0x0A) ?? text.count
            if let value = transform(LogLineScanner.content(of: text, start..<end, endedWithNewline: end < text.count))
            {
                return value
            }
            start = end + 1
        }
        return nil
    }

    /// The first non-`nil` result of `transform` on the lines' text, from the last line back.
    ///
    /// - Complexity: O(bytes from that line to the end), plus the calls of `transform`.
    package func last<T>(_ transform: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        var end = text.count
        var endedWithNewline = false
        if end > 0, text[end - 1] == 0x0A {
            end -= 1
            endedWithNewline = true
        }
        while true {
            let start = text[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            if start == end && !endedWithNewline && end == text.count { return nil }
            if let value = transform(LogLineScanner.content(of: text, start..<end, endedWithNewline: endedWithNewline))
            {
                return value
            }
            guard start > 0 else { return nil }
            end = start - 1
            endedWithNewline = true
        }
    }
}
