// Which app ids input files may give, and how ids are shown on a terminal.

extension AppID {
    /// The longest id input files may give, in UTF-8 bytes.
    public static let maximumLength = 1024

    /// Whether `scalar` may appear in an id read from a file: every character but the control
    /// characters (U+0000–U+001F, U+007F–U+009F), the line and paragraph separators
    /// (U+2028, U+2029) and the bidirectional controls (U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069), which would break tables or drive the terminal that prints them.
    ///
    /// - Complexity: O(1)
    public static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: false
        default: true
        }
    }

    /// Why `text` cannot be an app id read from a file, or `nil` when it can: ids are 1 to
    /// ``maximumLength`` bytes of printable characters (see ``isPrintable(_:)``).
    ///
    /// - Complexity: O(length of `text`)
    public static func problem(with text: String) -> String? {
        if text.isEmpty { return "expected a non-empty app id" }
        if text.utf8.count > maximumLength {
            return "expected an app id of at most \(maximumLength) bytes, found \(text.utf8.count) bytes"
        }
        // Printable ASCII (the usual id) in one pass over the bytes; anything else scalar by scalar.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        if let bad = text.unicodeScalars.first(where: { !isPrintable($0) }) {
            return "expected an app id of printable characters, found the control character "
                + Self.codePoint(bad) + " in \"\(AppID(text).escaped)\""
        }
        return nil
    }

    /// The id with every character ``isPrintable(_:)`` refuses written as `\u{1B}`, so that
    /// printing it can neither break a table nor drive a terminal (live process names are not
    /// checked when read).
    ///
    /// - Complexity: O(length of the id)
    public var escaped: String { rawValue.escapingControlCharacters() }

    package static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension String {
    /// The text with every control character (see ``AppID/isPrintable(_:)``) written as `\u{1B}`.
    ///
    /// - Complexity: O(length of the text)
    public func escapingControlCharacters() -> String {
        guard unicodeScalars.contains(where: { !AppID.isPrintable($0) }) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if AppID.isPrintable(scalar) {
                out.append(scalar)
            } else {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            }
        }
        return String(out)
    }
}
