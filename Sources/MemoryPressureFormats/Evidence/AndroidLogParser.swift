import MemoryPressure

/// Reads Android logs a line at a time — `adb logcat -b events` and `-b main` (lmkd's own kill
/// lines are in the main log), in logcat's `threadtime` (the default), `year`, `time` and `epoch`
/// formats — and keeps the lines that say what the user brought to the front and what the
/// system killed (``AndroidLogRecord``). Every other line is skipped: a logcat holds thousands.
///
/// Sources of the formats:
/// - ActivityManager and WindowManager event tags (frameworks/base `EventLogTags.logtags`):
///   `am_proc_start (User|1|5),(PID|1|5),(UID|1|5),(Process Name|3),(Type|3),(Component|3)`,
///   `am_proc_died (User|1|5),(PID|1|5),(Process Name|3),(OomAdj|1|5),(ProcState|1|5)`,
///   `am_kill (User|1|5),(PID|1|5),(Process Name|3),(OomAdj|1|5),(Reason|3)`,
///   `wm_set_resumed_activity (User|1|5),(Component Name|3),(Reason|3)` (`am_…` before
///   Android 10), `am_focused_activity (User|1|5),(Component Name|3)`,
///   `wm_resume_activity (User|1|5),(Token|1|5),(Task ID|1|5),(Component Name|3)`.
/// - lmkd (system/memory/lmkd `lmkd.cpp`, `kill_one_process()`): `Kill '%s' (%d), uid %d,
///   oom_score_adj %d to free %ldkB rss, %ldkB swap; reason: %s` (Android 11+), `Kill '%s' (%d),
///   uid %d, oom_adj %d to free %ldkB` (Android 9–10), `Killing '%s' (%d), uid %d, adj %d`
///   (8.1); the kernel's staging lowmemorykiller driver wrote `Killing '%s' (%d), adj %d,`; the
///   `killinfo` event (`event.logtags` 10195) starts `[pid,uid,oom_score_adj,min_oom_score,
///   rss_kb,kill_reason,…`.
public struct AndroidLogParser {
    /// The input's name in errors.
    public let file: String
    /// The process name of each pid an `am_proc_start` or a kill line named.
    private var names: [Int: String] = [:]

    /// A parser for the input named `file`.
    ///
    /// - Complexity: O(1)
    public init(file: String) {
        self.file = file
    }

    /// Every record of `text`, in order.
    ///
    /// - Throws: `InputError` for a recognised line whose fields are malformed.
    /// - Complexity: O(length of `text`)
    public static func records(in text: String, file: String) throws(InputError) -> [AndroidLogRecord] {
        var parser = AndroidLogParser(file: file)
        var records: [AndroidLogRecord] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if let record = try parser.consume(line, lineNumber: number) { records.append(record) }
        }
        return records
    }

    /// Whether `line` is an Android log line this parser reads (for recognising a file).
    ///
    /// - Complexity: O(length of `line`)
    public static func recognises<S: StringProtocol>(_ line: S) -> Bool {
        guard let (_, rest) = timestamp(Substring(line)), let (tag, _) = tagAndMessage(rest) else { return false }
        return tag == "lowmemorykiller" || tag == "lmkd" || tag == "killinfo" || tag.hasPrefix("am_")
            || tag.hasPrefix("wm_")
    }

    /// The record of `line`, or `nil` for a line that says nothing this parser keeps.
    ///
    /// - Throws: `InputError` naming the line and the field for a recognised line whose fields
    ///   are malformed (a pid that is not a number).
    /// - Complexity: O(length of `line`)
    public mutating func consume(_ line: Substring, lineNumber: Int) throws(InputError) -> AndroidLogRecord? {
        let line = line.hasSuffix("\r") ? line.dropLast() : line
        guard let (time, rest) = Self.timestamp(line), let (tag, message) = Self.tagAndMessage(rest) else { return nil }
        let file = self.file
        func error(_ message: String) -> InputError {
            InputError(file: file, line: lineNumber, column: 0, path: String(tag), message: message)
        }
        func fields(_ count: Int) -> [Substring] {
            var body = message.drop { $0 == " " }
            if body.first == "[" { body = body.dropFirst() }
            if body.last == "]" { body = body.dropLast() }
            return body.split(separator: ",", maxSplits: count - 1, omittingEmptySubsequences: false)
        }
        func int(_ text: Substring, _ field: String) throws(InputError) -> Int {
            guard let value = Int(text.trimmingSpaces) else {
                throw error("expected \(field) as a whole number, found \(String(text).quotedExcerpt())")
            }
            return value
        }
        func name(_ text: Substring, _ field: String) throws(InputError) -> String {
            let name = String(text.trimmingSpaces)
            if let problem = AppID.problem(with: name) { throw error("\(field): \(problem)") }
            return name
        }
        let kind: AndroidLogRecord.Kind
        switch tag {
        case "am_proc_start":
            let parts = fields(6)
            guard parts.count >= 4 else {
                throw error("expected [user,pid,uid,process,type,component], found \(parts.count) fields")
            }
            let pid = try int(parts[1], "the pid"), process = try name(parts[3], "the process name")
            names[pid] = process
            kind = .processStarted(pid: pid, name: process)
        case "am_proc_died":
            let parts = fields(5)
            guard parts.count >= 3 else {
                throw error("expected [user,pid,process,oom_adj,state], found \(parts.count) fields")
            }
            kind = .processDied(pid: try int(parts[1], "the pid"), name: try name(parts[2], "the process name"))
        case "am_kill":
            let parts = fields(5)
            guard parts.count >= 5 else {
                throw error("expected [user,pid,process,oom_adj,reason], found \(parts.count) fields")
            }
            kind = .activityManagerKill(
                pid: try int(parts[1], "the pid"), name: try name(parts[2], "the process name"),
                oomAdj: Int(parts[3].trimmingSpaces), reason: String(parts[4].trimmingSpaces))
        case "wm_set_resumed_activity", "am_set_resumed_activity", "am_focused_activity", "wm_focused_activity":
            let parts = fields(3)
            guard parts.count >= 2, let package = Self.package(of: parts[1]) else { return nil }
            kind = .resumed(package: try name(package, "the package"))
        case "wm_resume_activity", "am_resume_activity", "am_restart_activity", "wm_restart_activity":
            let parts = fields(4)
            guard parts.count >= 4, let package = Self.package(of: parts[3]) else { return nil }
            kind = .resumed(package: try name(package, "the package"))
        case "killinfo":
            let parts = fields(Int.max)
            guard parts.count >= 5 else {
                throw error("expected [pid,uid,oom_score_adj,min_oom_score,rss_kb,…], found \(parts.count) fields")
            }
            let pid = try int(parts[0], "the pid")
            // Newer lmkd versions end the event with the task name.
            let last = parts.last.map { String($0.trimmingSpaces) }
            let trailing = last.flatMap { $0.isEmpty || Int($0) != nil || AppID.problem(with: $0) != nil ? nil : $0 }
            kind = .lowMemoryKill(
                pid: pid, name: names[pid] ?? trailing, oomScoreAdj: Int(parts[2].trimmingSpaces),
                residentKiB: Int64(parts[4].trimmingSpaces),
                reason: parts.count > 5 ? "kill_reason \(parts[5].trimmingSpaces)" : nil)
        case "lowmemorykiller", "lmkd":
            guard let kill = try Self.lmkdKill(message, error: error) else { return nil }
            if let known = kill.name { names[kill.pid] = known }
            kind = .lowMemoryKill(
                pid: kill.pid, name: kill.name, oomScoreAdj: kill.adj, residentKiB: kill.kib, reason: kill.reason)
        default:
            return nil
        }
        return AndroidLogRecord(time: time, kind: kind, line: lineNumber)
    }

    /// The package of a component name `com.example/.Main` (or `u0 com.example/.Main` as some
    /// versions write it inside an activity record), or `nil`.
    static func package(of component: Substring) -> Substring? {
        var text = component.trimmingSpaces
        if let space = text.lastIndex(of: " ") { text = text[text.index(after: space)...] }
        guard let slash = text.firstIndex(of: "/"), slash > text.startIndex else { return nil }
        return text[..<slash]
    }

    /// lmkd's kill line: `Kill 'name' (pid), uid U, oom_score_adj A to free NkB rss, MkB swap;
    /// reason: R`, the older `oom_adj` and `Killing … adj A` forms, or the kernel driver's.
    static func lmkdKill(
        _ message: Substring, error: (String) -> InputError
    ) throws(InputError) -> (pid: Int, name: String?, adj: Int?, kib: Int64?, reason: String?)? {
        let text = message.drop { $0 == " " }
        guard text.hasPrefix("Kill '") || text.hasPrefix("Killing '") else { return nil }
        guard let open = text.firstIndex(of: "'"), let close = text.lastIndex(of: "'"), close > open,
            let pidOpen = text[close...].firstIndex(of: "("), let pidClose = text[pidOpen...].firstIndex(of: ")")
        else { throw error("expected Kill 'NAME' (PID), …, found \(String(text).quotedExcerpt())") }
        let name = String(text[text.index(after: open)..<close])
        guard let pid = Int(text[text.index(after: pidOpen)..<pidClose]) else {
            throw error(
                "expected the pid in parentheses after the name, found \(String(text[pidOpen...pidClose]).quotedExcerpt())"
            )
        }
        let rest = text[pidClose...]
        func number(after key: String) -> Int64? {
            guard let range = rest.firstRange(of: key) else { return nil }
            let digits = rest[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "-" }
            return Int64(digits)
        }
        let adj = number(after: "oom_score_adj ") ?? number(after: "oom_adj ") ?? number(after: "adj ")
        let kib = number(after: "to free ")
        let reason = rest.firstRange(of: "reason: ").map { String(rest[$0.upperBound...]) }
        return (pid, AppID.problem(with: name) == nil ? name : nil, adj.map { Int(clamping: $0) }, kib, reason)
    }

    /// The time at the start of a logcat line and the rest: `MM-DD HH:MM:SS.mmm`,
    /// `YYYY-MM-DD HH:MM:SS.mmm` or `SECONDS.mmm` (epoch, read as UTC).
    static func timestamp(_ line: Substring) -> (AndroidLogRecord.Time, Substring)? {
        let bytes = Array(line.utf8.prefix(32))
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        /// The fraction of `.ddd` at `start` (0 and `start` if there is none) and where it ends.
        func fraction(at start: Int) -> (value: Double, end: Int) {
            guard start < bytes.count, bytes[start] == 46 else { return (0, start) }
            var value = 0.0
            var scale = 0.1
            var end = start + 1
            while end < bytes.count, bytes[end] >= 48, bytes[end] <= 57 {
                value += Double(bytes[end] - 48) * scale
                scale /= 10
                end += 1
            }
            return (value, end)
        }
        func clock(at start: Int) -> (seconds: Double, end: Int)? {
            guard let hour = digits(start, 2), bytes.count > start + 8, bytes[start + 2] == 58,
                let minute = digits(start + 3, 2), bytes[start + 5] == 58, let second = digits(start + 6, 2),
                hour < 24, minute < 60, second < 61
            else { return nil }
            let (value, end) = fraction(at: start + 8)
            return (Double(hour * 3600 + minute * 60) + Double(second) + value, end)
        }
        func rest(from offset: Int) -> Substring {
            line[line.utf8.index(line.startIndex, offsetBy: offset)...]
        }
        // YYYY-MM-DD HH:MM:SS.mmm
        if let year = digits(0, 4), bytes.count > 10, bytes[4] == 45, let month = digits(5, 2), bytes[7] == 45,
            let day = digits(8, 2), bytes[10] == 32, (1...12).contains(month), day >= 1,
            day <= CivilDate.daysIn(month: month, year: year), let (seconds, end) = clock(at: 11)
        {
            return (
                .init(year: year, day: CivilDate.days(year: year, month: month, day: day), seconds: seconds),
                rest(from: end)
            )
        }
        // MM-DD HH:MM:SS.mmm (no year: the day is taken in 2000, a leap year, and said so)
        if let month = digits(0, 2), bytes.count > 5, bytes[2] == 45, let day = digits(3, 2), bytes[5] == 32,
            (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: 2000),
            let (seconds, end) = clock(at: 6)
        {
            return (
                .init(year: nil, day: CivilDate.days(year: 2000, month: month, day: day), seconds: seconds),
                rest(from: end)
            )
        }
        // SECONDS.mmm (logcat -v epoch), 9 to 11 digits before the point (more would overflow, and
        // no time that far is a phone's)
        var end = 0
        while end < bytes.count, bytes[end] >= 48, bytes[end] <= 57 { end += 1 }
        if end >= 9, end <= 11, end < bytes.count, bytes[end] == 46, let whole = digits(0, end),
            whole < 100_000_000_000
        {
            let (value, fractionEnd) = fraction(at: end)
            let day = whole / 86_400
            let civil = CivilDate(day: day)
            return (.init(year: civil.year, day: day, seconds: Double(whole % 86_400) + value), rest(from: fractionEnd))
        }
        return nil
    }

    /// The tag and the message of what follows a logcat time: `  PID  TID P TAG: MSG`
    /// (threadtime, year, epoch) or ` P/TAG( PID): MSG` (time).
    static func tagAndMessage(_ rest: Substring) -> (tag: Substring, message: Substring)? {
        let text = rest.drop { $0 == " " }
        if text.count > 2, text.dropFirst().first == "/", let first = text.first, first.isLetter {
            // time: P/TAG( PID): MSG
            let afterLevel = text.dropFirst(2)
            guard let paren = afterLevel.firstIndex(of: "("), let colon = afterLevel[paren...].firstRange(of: "): ")
            else { return nil }
            return (afterLevel[..<paren].trimmingSpaces, afterLevel[colon.upperBound...])
        }
        // threadtime: PID TID P TAG: MSG
        var fields = text[...]
        for _ in 0..<2 {
            let number = fields.prefix { $0.isNumber }
            guard !number.isEmpty else { return nil }
            fields = fields.dropFirst(number.count).drop { $0 == " " }
        }
        guard let level = fields.first, level.isLetter, fields.dropFirst().first == " " else { return nil }
        fields = fields.dropFirst(2)
        guard
            let colon = fields.firstRange(of: ": ")
                ?? (fields.hasSuffix(":") ? fields.index(before: fields.endIndex)..<fields.endIndex : nil)
        else { return nil }
        return (fields[..<colon.lowerBound].trimmingSpaces, fields[colon.upperBound...])
    }
}

extension Substring {
    /// The text without spaces at either end.
    fileprivate var trimmingSpaces: Substring {
        var text = self.drop { $0 == " " }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
