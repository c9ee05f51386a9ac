import MemoryPressure
import MemoryPressureFormats

/// Imports real app-usage logs in the common form `user, session, timestamp, app, event` with
/// `Opened`/`Closed` events (CSV or TSV, with a header row), mapping each user's day to a trace.
public enum UsageLogImport {
    /// One user's trace, ready to replay.
    public struct UserTrace: Sendable {
        /// The user's id as the log writes it.
        public var user: String
        /// The trace: `open` for each Opened, `home` for a Closed of the foreground app.
        public var trace: Trace
    }

    /// The largest timestamp in seconds a log may give, either side of zero (about 3,170 years).
    public static let maximumTimestamp = 1e11

    /// Parses `text` (the separator is detected from the header: tab or comma). Fields may be
    /// quoted as RFC 4180 says (`"Foo, Inc."`, `""` for a quote); lines end with LF or CRLF.
    /// Timestamps are seconds (integers or decimals, at most ``maximumTimestamp`` either side of
    /// zero) or valid ISO 8601 dates (`2016-05-03T08:15:00Z` or with a space, years 1–9999).
    /// App names must be app ids (printable characters, see `AppID.problem(with:)`).
    /// Apps get footprints from `catalogue` (by app name) or, for unknown names, a stable size
    /// drawn from `workload`'s footprint distribution, so imports are deterministic.
    ///
    /// - Throws: `InputError` naming the file, line and column (field) of the first bad row;
    ///   a message quotes at most a short excerpt of the input.
    /// - Complexity: O(length of the text + rows × log rows) (rows are grouped by user and sorted
    ///   by time), plus O(apps) per user for the footprints.
    public static func parse(
        _ text: String, file: String, workload: Workload = .phone
    ) throws(InputError) -> [UserTrace] {
        // A byte order mark may start the text, and another the body after it (as before).
        try parse(ByteLineReader(.bytes(Array(text.utf8)), file: file, byteOrderMarks: 2), workload: workload)
    }

    /// Reads the log `lines` holds row by row (``UsageLogReader``) and returns the traces of the
    /// users `keeping` accepts, in the order of their first row. Only those users' rows are kept
    /// (about 32 bytes a row: time, line, flag and an index into the file's app names), never the
    /// text: a row of a user not kept is checked and dropped. Rows of one user need not be
    /// contiguous — a fleet log is often sorted by time, every user's rows interleaved — because a
    /// user's trace is only built once the whole file has been read (a later row may come
    /// earlier in time); each kept user's trace is then built, its rows sorted by time.
    ///
    /// - Throws: `InputError` naming the file, line and column (field) of the first bad row.
    /// - Complexity: O(length of the input + kept rows × log(rows of a user)); memory O(kept
    ///   rows + users + distinct app names) beyond one line's buffer.
    public static func parse(
        _ lines: ByteLineReader, workload: Workload = .phone, keeping: (String) -> Bool = { _ in true }
    ) throws(InputError) -> [UserTrace] {
        struct Row {
            var time: Double
            var line: Int
            var app: Int32
            var opened: Bool
        }
        var reader = UsageLogReader(lines)
        var rowsByUser: [String: [Row]] = [:]
        var userOrder: [String] = []
        var seen: Set<String> = []
        var appIndex: [String: Int32] = [:]
        var appNames: [String] = []
        while let row = try reader.next() {
            if seen.insert(row.user).inserted {
                guard keeping(row.user) else { continue }
                userOrder.append(row.user)
                rowsByUser[row.user] = []
            }
            guard rowsByUser[row.user] != nil else { continue }
            let app: Int32
            if let known = appIndex[row.app] {
                app = known
            } else {
                app = Int32(appNames.count)
                appIndex[row.app] = app
                appNames.append(row.app)
            }
            rowsByUser[row.user]!.append(Row(time: row.time, line: row.line, app: app, opened: row.opened))
        }
        var launches: [Int32: AppLaunch] = [:]
        return userOrder.map { user in
            let rows = rowsByUser.removeValue(forKey: user)!.enumerated().sorted {
                ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
            }.map(\.element)
            let origin = rows.first?.time ?? 0
            var entries: [Trace.Entry] = []
            var foreground: Int32? = nil
            for row in rows {
                let time = row.time - origin
                if row.opened {
                    guard foreground != row.app else { continue }
                    let launch =
                        launches[row.app]
                        ?? {
                            let made = Self.launch(for: appNames[Int(row.app)], workload: workload)
                            launches[row.app] = made
                            return made
                        }()
                    entries.append(Trace.Entry(time: time, action: .open(launch), line: row.line))
                    foreground = row.app
                } else if foreground == row.app {
                    entries.append(Trace.Entry(time: time, action: .home, line: row.line))
                    foreground = nil
                }
            }
            return UserTrace(user: user, trace: Trace(device: workload.device, entries: entries))
        }
    }

    /// The users of the log `lines` holds, in the order of their first row, every row checked:
    /// what a sharded sweep needs before it keeps any trace. Memory holds the users' names only.
    ///
    /// - Throws: `InputError` for the first bad row.
    /// - Complexity: O(length of the input); memory O(users).
    public static func users(_ lines: ByteLineReader) throws(InputError) -> [String] {
        var reader = UsageLogReader(lines)
        var seen: Set<String> = []
        var users: [String] = []
        while let row = try reader.next() {
            if seen.insert(row.user).inserted { users.append(row.user) }
        }
        return users
    }

    /// A stable launch for an app name: its footprint is drawn from the workload's distribution
    /// with a generator seeded by the name, so the same name always gets the same size.
    static func launch(for name: String, workload: Workload) -> AppLaunch {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        var random = SeededGenerator(seed: hash)
        let views = [ViewSpec(name: "main", bytes: Bytes(Int64(workload.viewBytes.sample(using: &random))))]
        let purgeable = Bytes(Int64(workload.purgeable.sample(using: &random)))
        let base = Bytes(Int64(workload.footprint.sample(using: &random)))
        return AppLaunch(
            id: AppID(name), footprint: base + views[0].bytes + purgeable, views: views, purgeable: purgeable)
    }

    /// Seconds from a number (at most ``maximumTimestamp`` either side of zero) or a valid ISO
    /// 8601 date-time (UTC or with an offset; years 1–9999, real days of the month, seconds
    /// 0–59); `nil` for anything else.
    static func seconds(_ text: String) -> Double? {
        if let value = Double(text) {
            return value.isFinite && abs(value) <= maximumTimestamp ? value : nil
        }
        // YYYY-MM-DD[T ]HH:MM:SS[.fff][Z|±HH:MM]
        let characters = Array(text)
        guard characters.count >= 19, characters.count <= 64,
            characters.allSatisfy({ $0.isASCII })
        else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            let digits = characters[start..<start + length]
            guard digits.allSatisfy({ $0.isNumber }) else { return nil }
            return Int(String(digits))
        }
        guard let year = number(0, 4), characters[4] == "-", let month = number(5, 2), characters[7] == "-",
            let day = number(8, 2), characters[10] == "T" || characters[10] == " ", let hour = number(11, 2),
            characters[13] == ":", let minute = number(14, 2), characters[16] == ":", let second = number(17, 2),
            year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24,
            minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < characters.count, characters[index] == "." {
            var digits = ""
            index += 1
            while index < characters.count, characters[index].isNumber {
                digits.append(characters[index])
                index += 1
            }
            guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
            fraction = value
        }
        var offset = 0
        if index < characters.count {
            let sign = characters[index]
            if sign == "Z" {
                index += 1
            } else if sign == "+" || sign == "-", characters.count >= index + 6, let h = number(index + 1, 2),
                characters[index + 3] == ":", let m = number(index + 4, 2), h < 24, m < 60
            {
                offset = (h * 3600 + m * 60) * (sign == "+" ? 1 : -1)
                index += 6
            } else {
                return nil
            }
        }
        guard index == characters.count else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), UTC.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// The number of days of `month` (1–12) in `year` (Gregorian).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
