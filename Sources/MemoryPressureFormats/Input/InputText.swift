import MemoryPressure

/// The conventions every text input shares: a UTF-8 byte order mark at the start is ignored,
/// and lines end with LF or CRLF.
package enum InputText {
    /// `text` without a leading UTF-8 byte order mark (U+FEFF).
    ///
    /// - Complexity: O(1)
    package static func droppingByteOrderMark(_ text: String) -> Substring {
        text.unicodeScalars.first == "\u{FEFF}" ? Substring(text.unicodeScalars.dropFirst()) : Substring(text)
    }

    /// The lines of `text` (after ``droppingByteOrderMark(_:)``), split at LF and CRLF, each
    /// without its line end; a final line end does not start another line.
    ///
    /// - Complexity: O(length of `text`)
    package static func lines(_ text: String) -> [Substring] {
        let body = droppingByteOrderMark(text)
        // "\r\n" is one Character in Swift, so it is a separator of its own.
        var lines = body.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    }
}
