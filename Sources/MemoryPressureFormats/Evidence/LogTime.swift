import MemoryPressure

/// The time at the start of a log line, as the logger wrote it, and a key that orders times of
/// one kind: syslog's `Jun 20 12:47:04` (no year), ISO 8601 (`2026-09-10T21:54:23-04:00`, the
/// journal's `short-iso`), logcat's `10-24 14:24:06.590` or `2026-10-24 14:24:06.590`, and dmesg's
/// seconds since boot `[15180285.657506]` (after a `<6>` level, or inside a syslog line after
/// `kernel: `).
public struct LogTime: Sendable, Hashable {
    /// Which clock a time is on; times of different kinds do not compare.
    public enum Kind: String, Sendable, Hashable {
        /// syslog's month, day and time, without a year.
        case syslog
        /// A date with a year and a time (ISO 8601, or logcat with a year).
        case calendar
        /// logcat's month-day and time, without a year.
        case monthDay = "month-day"
        /// dmesg's seconds since boot.
        case uptime
    }

    /// The time as written.
    public var text: String
    /// Its kind.
    public var kind: Kind
    /// Seconds on its clock (a year-less time counts from January 1 of a leap year), for order.
    public var key: Double

    /// A time `text` of `kind` at `key` seconds on its clock.
    ///
    /// - Complexity: O(1)
    public init(text: String, kind: Kind, key: Double) {
        self.text = text
        self.kind = kind
        self.key = key
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The time at the start of `line`, or `nil`.
    ///
    /// - Complexity: O(1) (the first 48 bytes are looked at)
    public static func parse<S: StringProtocol>(_ line: S) -> LogTime? {
        guard let first = line.utf8.first, mayStart(with: first) else { return nil }
        return Array(line.utf8.prefix(48)).withUnsafeBufferPointer { parse(head: $0) }
    }

    /// The time at the start of the line whose UTF-8 text (without its line end) is `line`, or
    /// `nil`: what ``parse(_:)`` gives for that line.
    ///
    /// - Complexity: O(1) (the first 48 bytes are looked at)
    package static func parse(utf8 line: UnsafeBufferPointer<UInt8>) -> LogTime? {
        guard let first = line.first, mayStart(with: first) else { return nil }
        return parse(head: UnsafeBufferPointer(rebasing: line.prefix(48)))
    }

    /// Whether a line that starts with `byte` can start with a time: a digit, a letter of a month,
    /// `[` or `<`.
    @inline(__always)
    private static func mayStart(with byte: UInt8) -> Bool {
        (48...57).contains(byte) || byte == 91 || byte == 60 || (65...90).contains(byte)
    }

    /// The time at the start of a line whose first (up to) 48 bytes are `bytes`.
    private static func parse(head bytes: UnsafeBufferPointer<UInt8>) -> LogTime? {
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start >= 0, start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func clock(_ start: Int) -> Double? {
            guard let hour = digits(start, 2), start + 8 <= bytes.count, bytes[start + 2] == 58,
                let minute = digits(start + 3, 2), bytes[start + 5] == 58, let second = digits(start + 6, 2),
                hour < 24, minute < 60, second < 61
            else { return nil }
            var value = Double(hour * 3600 + minute * 60 + second)
            if start + 8 < bytes.count, bytes[start + 8] == 46 {
                var scale = 0.1
                var index = start + 9
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    value += Double(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
            }
            return value
        }
        func text(_ count: Int) -> String { String(decoding: bytes.prefix(count), as: UTF8.self) }
        // ISO 8601 or logcat with a year: YYYY-MM-DD(T| )HH:MM:SS
        if let year = digits(0, 4), bytes.count >= 19, bytes[4] == 45, let month = digits(5, 2), bytes[7] == 45,
            let day = digits(8, 2), bytes[10] == 84 || bytes[10] == 32, (1...12).contains(month),
            (1...31).contains(day),
            let seconds = clock(11)
        {
            var end = 19
            while end < bytes.count, bytes[end] != 32 { end += 1 }
            let days = Double(CivilDate.days(year: year, month: month, day: day))
            return LogTime(text: text(end), kind: .calendar, key: days * 86_400 + seconds)
        }
        // logcat: MM-DD HH:MM:SS.mmm
        if let month = digits(0, 2), bytes.count >= 14, bytes[2] == 45, let day = digits(3, 2), bytes[5] == 32,
            (1...12).contains(month), (1...31).contains(day), let seconds = clock(6)
        {
            var end = 14
            while end < bytes.count, bytes[end] != 32 { end += 1 }
            return LogTime(
                text: text(end), kind: .monthDay,
                key: Double(CivilDate.days(year: 2000, month: month, day: day)) * 86_400 + seconds)
        }
        // syslog: Mmm dd HH:MM:SS (the day padded with a blank or a zero)
        if bytes.count >= 15, bytes[3] == 32, let month = months.firstIndex(of: text(3)) {
            let dayStart = bytes[4] == 32 ? 5 : 4
            if let day = digits(dayStart, 6 - dayStart), bytes[6] == 32, (1...31).contains(day), let seconds = clock(7)
            {
                return LogTime(
                    text: text(15), kind: .syslog,
                    key: Double(CivilDate.days(year: 2000, month: month + 1, day: day)) * 86_400 + seconds)
            }
        }
        // /dev/kmsg: PRI,SEQ,MICROSECONDS,FLAGS;text — the microseconds since boot.
        if let semicolon = bytes.firstIndex(of: 59), (48...57).contains(bytes[0]) {
            let fields = bytes[..<semicolon].split(separator: 44, omittingEmptySubsequences: false)
            if fields.count >= 4, fields[0...2].allSatisfy({ !$0.isEmpty && $0.allSatisfy { (48...57).contains($0) } }),
                let micros = Double(String(decoding: fields[2], as: UTF8.self))
            {
                let seconds = micros / 1_000_000
                let whole = Int(seconds)
                let fraction = String(Int(micros) % 1_000_000)
                let text = "[\(whole).\(String(repeating: "0", count: 6 - fraction.count) + fraction)]"
                return LogTime(text: text, kind: .uptime, key: seconds)
            }
        }
        // dmesg: [ 123.456] (after a <6> level)
        var start = 0
        if bytes.first == 60, let close = bytes.prefix(6).firstIndex(of: 62) { start = close + 1 }
        if start < bytes.count, bytes[start] == 91, let close = bytes[start...].firstIndex(of: 93) {
            let inside = String(decoding: bytes[(start + 1)..<close], as: UTF8.self)
            let trimmed = inside.drop { $0 == " " }
            if let value = Double(trimmed), trimmed.contains(".") {
                return LogTime(text: "[" + inside + "]", kind: .uptime, key: value)
            }
        }
        return nil
    }
}
