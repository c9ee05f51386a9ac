import MemoryPressure
import MemoryPressureFormats

/// Imports real app-usage logs — the common form `user, session, timestamp, app, event`, LSApp's
/// TSV and Android UsageStatsManager exports (CSV or TSV with a header row), polled foreground
/// samples and Android "App Usage" exports (docs/usage-logs.md; ``UsageLogFormat``) — mapping
/// each user's day (or each user's whole log) to a trace, each app name to a role of the
/// workload's ``Workload/appKinds``.
public enum UsageLogImport {
    /// One sample of a log: a user's day, or a user's whole log, ready to replay.
    public struct UserTrace: Sendable {
        /// The user's id as the log writes it.
        public var user: String
        /// The day (`2018-01-16`, on the user's clock) when the log is sampled by day, else `nil`.
        public var day: String?
        /// The trace: `open` for each move of an app to the foreground, `home` for the
        /// foreground app leaving it. A day's trace starts at that day's midnight; a whole log's
        /// at its first row.
        public var trace: Trace

        /// The sample's name: the user, then the day when there is one (`u1 2018-01-16`).
        public var label: String { day.map { "\(user) \($0)" } ?? user }

        /// A sample of `user` (on `day`, if given).
        ///
        /// - Complexity: O(1)
        public init(user: String, day: String? = nil, trace: Trace) {
            self.user = user
            self.day = day
            self.trace = trace
        }
    }

    /// What a sample of a log is.
    public enum Sampling: String, Sendable, CaseIterable {
        /// One sample per user and day, the day starting at the user's local midnight: every
        /// metric is per day, like the generated users'.
        case day
        /// One sample per user, the whole log.
        case user
    }

    /// A log read: its samples and the rows it skipped.
    public struct Log: Sendable {
        /// The samples kept, users in the order of their first row, each user's days in order.
        public var samples: [UserTrace]
        /// The event types skipped (not a move to or from the foreground), in the order of their
        /// first row.
        public var skippedEvents: [UsageLogReader.SkippedEvent]
        /// The rows read whose events were used (skipped rows not counted; an App Usage session
        /// counts twice, its open and its close).
        public var rows: Int
        /// The layout family read.
        public var format: UsageLogFormat = .events
        /// The rows of the real layouts counted by what happened to them
        /// (``UsageLogReader/rowCounts``).
        public var rowCounts: [UsageLogRowCount] = []
        /// What was measured or decided about the whole log (``UsageLogReader/notes``).
        public var notes: [String] = []
        /// The app names no entry of the workload's ``Workload/appKinds`` matches, with the rows
        /// that name them, most rows first (then by name). They are sized from the workload's
        /// footprint distribution (``Workload/footprint``).
        public var unmappedApps: [(name: String, rows: Int)] = []
        /// How many distinct app names the log has, mapped or not, home screen included.
        public var distinctApps = 0
        /// The distinct app names read as the home screen (``AppRole/home``), in name order.
        public var homeApps: [String] = []
    }

    /// The largest timestamp in seconds a log may give, either side of zero (about 3,170 years).
    public static let maximumTimestamp = 1e11

    /// How close (seconds) an Android activity pause and a resume of the same app must be to be
    /// one activity handing over to another inside the app (`ACTIVITY_PAUSED` of the old one is
    /// logged just before `ACTIVITY_RESUMED` of the new one), not the user leaving the app.
    public static let activitySwitchSeconds = 2.0

    /// Parses `text` (the separator is detected from the header: tab or comma), one sample per
    /// user. Fields may be quoted as RFC 4180 says (`"Foo, Inc."`, `""` for a quote); lines end
    /// with LF or CRLF. Timestamps are seconds (integers or decimals, at most
    /// ``maximumTimestamp`` either side of zero), milliseconds (see ``UsageLogReader``) or valid
    /// ISO 8601 dates (`2016-05-03T08:15:00Z` or with a space, years 1–9999). App names must be
    /// app ids (printable characters, see `AppID.problem(with:)`). Apps get footprints from a
    /// stable size drawn, by name, from `workload`'s footprint distribution, so imports are
    /// deterministic.
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

    /// ``read(_:workload:sampling:hours:format:keeping:)`` with one sample per user, its samples only.
    ///
    /// - Throws: `InputError` naming the file, line and column (field) of the first bad row.
    /// - Complexity: as ``read(_:workload:sampling:hours:format:keeping:)``.
    public static func parse(
        _ lines: ByteLineReader, workload: Workload = .phone, format: UsageLogFormat? = nil,
        keeping: (String) -> Bool = { _ in true }
    ) throws(InputError) -> [UserTrace] {
        try read(lines, workload: workload, sampling: .user, format: format, keeping: keeping).samples
    }

    /// Reads the log `lines` holds row by row (``UsageLogReader``) and returns the samples of the
    /// users `keeping` accepts, users in the order of their first row. Only those users' rows are
    /// kept (about 40 bytes a row: times, line, event and an index into the file's app names),
    /// never the text: a row of a user not kept is checked and dropped. Rows of one user need not
    /// be contiguous — a fleet log is often sorted by time, every user's rows interleaved —
    /// because a user's samples are only built once the whole file has been read (a later row
    /// may come earlier in time); each kept user's rows are then sorted by time and cut into
    /// samples by `sampling`. With `hours`, each sample keeps only its first `hours` hours (from
    /// its day's midnight, or from a user's first row): what `--hours` means for a log, so that
    /// day d of a user's history is `hours` 24d with a warm-up of 24(d − 1).
    ///
    /// The log is read in `format` (`nil`: detected, ``UsageLogFormat/detect(firstLine:)``). Each
    /// app name gets its role from the workload's ``Workload/appKinds``: an app of a kind is sized
    /// from that kind's footprint distribution; the home screen (a launcher, System UI, the
    /// collecting app) is not an app, and its coming to the front is the user going home; a name
    /// no entry matches is counted in ``Log/unmappedApps`` and sized from the workload's
    /// footprint distribution. Rows at the same time keep the file's order — except in an App
    /// Usage export, where the session that started first (the file's order reversed when it is
    /// newest first) comes first and, within a session, the open before the close.
    ///
    /// - Throws: `InputError` naming the file, line and column (field) of the first bad row.
    /// - Complexity: O(length of the input + kept rows × log(rows of a user)); memory O(kept
    ///   rows + users + distinct app names) beyond one line's buffer.
    public static func read(
        _ lines: ByteLineReader, workload: Workload = .phone, sampling: Sampling, hours: Double? = nil,
        format: UsageLogFormat? = nil, keeping: (String) -> Bool = { _ in true }
    ) throws(InputError) -> Log {
        var reader = UsageLogReader(lines, format: format)
        var rowsByUser: [String: [ImportedRow]] = [:]
        var userOrder: [String] = []
        var seen: Set<String> = []
        var appIndex: [String: Int32] = [:]
        var appNames: [String] = []
        var roles: [AppRole?] = []
        var rowsOfApp: [Int] = []
        var count = 0
        while let row = try reader.next() {
            count += 1
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
                roles.append(workload.appKinds.role(of: row.app))
                rowsOfApp.append(0)
            }
            rowsOfApp[Int(app)] += 1
            rowsByUser[row.user]!.append(
                ImportedRow(time: row.time, localTime: row.localTime, line: row.line, app: app, event: row.event))
        }
        var launches: [Int32: AppLaunch] = [:]
        func launch(_ app: Int32) -> AppLaunch {
            if let known = launches[app] { return known }
            let made = Self.launch(for: appNames[Int(app)], role: roles[Int(app)], workload: workload)
            launches[app] = made
            return made
        }
        let isHome = { (app: Int32) -> Bool in roles[Int(app)] == .home }
        let sessionOrder = reader.format != .events && reader.format != .polledSamples
        let newestFirst = reader.isNewestFirst
        var samples: [UserTrace] = []
        for user in userOrder {
            // In time order; by day, each day's rows together (a change of the user's offset can
            // put a row of an earlier day after one of a later day).
            let rows = rowsByUser.removeValue(forKey: user)!.enumerated().sorted {
                let day = sampling == .day ? (dayNumber($0.element.localTime), dayNumber($1.element.localTime)) : (0, 0)
                if sessionOrder {
                    // The session that started first, then its open before its close.
                    let session =
                        newestFirst ? (-$0.element.line, -$1.element.line) : ($0.element.line, $1.element.line)
                    let close = ($0.element.event == .closed ? 1 : 0, $1.element.event == .closed ? 1 : 0)
                    return (day.0, $0.element.time, session.0, close.0) < (day.1, $1.element.time, session.1, close.1)
                }
                return (day.0, $0.element.time, $0.offset) < (day.1, $1.element.time, $1.offset)
            }.map(\.element)
            switch sampling {
            case .user:
                let origin = rows.first?.time ?? 0
                samples.append(
                    UserTrace(
                        user: user,
                        trace: trace(rows[...], device: workload.device, launch: launch, isHome: isHome) {
                            $0.time - origin
                        }))
            case .day:
                var start = rows.startIndex
                while start < rows.endIndex {
                    let day = dayNumber(rows[start].localTime)
                    var end = start + 1
                    while end < rows.endIndex, dayNumber(rows[end].localTime) == day { end += 1 }
                    let midnight = Double(day) * 86_400
                    samples.append(
                        UserTrace(
                            user: user, day: date(day: day),
                            trace: trace(rows[start..<end], device: workload.device, launch: launch, isHome: isHome) {
                                $0.localTime - midnight
                            }))
                    start = end
                }
            }
        }
        if let hours {
            let end = hours * 3600
            for index in samples.indices { samples[index].trace.entries.removeAll { $0.time >= end } }
        }
        var unmapped: [(name: String, rows: Int)] = []
        var home: [String] = []
        for (index, name) in appNames.enumerated() {
            switch roles[index] {
            case nil: unmapped.append((name, rowsOfApp[index]))
            case .home: home.append(name)
            case .kind: break
            }
        }
        unmapped.sort { ($1.rows, $0.name) < ($0.rows, $1.name) }
        return Log(
            samples: samples, skippedEvents: reader.skippedEvents, rows: count, format: reader.format,
            rowCounts: reader.rowCounts, notes: reader.notes, unmappedApps: unmapped, distinctApps: appNames.count,
            homeApps: home.sorted())
    }

    /// One kept row of a user.
    struct ImportedRow {
        var time: Double
        var localTime: Double
        var line: Int
        var app: Int32
        var event: UsageEvent
    }

    /// The trace of a user's `rows` (in time order), each at `offset(row)` seconds (kept from
    /// going back in time, as a change of the user's offset can make it): an open for each move
    /// of an app that is not in the foreground to it, a home for the foreground app leaving it —
    /// except an Android pause followed within ``activitySwitchSeconds`` by a resume of the same
    /// app, which is an activity change inside the app. `ACTIVITY_STOPPED` closes nothing: it
    /// follows the pause that already did, or belongs to an old activity of an app whose new
    /// activity has resumed.
    static func trace(
        _ rows: ArraySlice<ImportedRow>, device: Device, launch: (Int32) -> AppLaunch,
        isHome: (Int32) -> Bool = { _ in false }, offset: (ImportedRow) -> Double
    ) -> Trace {
        var entries: [Trace.Entry] = []
        var foreground: Int32? = nil
        var last = -Double.infinity
        /// The home of an Android pause, held until the next row shows it was not an activity change.
        var pendingHome: (time: Double, seconds: Double, line: Int)? = nil
        func flushHome() {
            guard let home = pendingHome else { return }
            entries.append(Trace.Entry(time: home.time, action: .home, line: home.line))
            foreground = nil
            pendingHome = nil
        }
        for row in rows {
            // To the microsecond: a millisecond time less its midnight is then written as logged.
            let time = max(last, (offset(row) * 1e6).rounded() / 1e6)
            last = time
            // A stop follows the pause that already left the app, or is an old activity's after a
            // new one of the same app resumed: it closes nothing.
            if row.event == .activityStopped { continue }
            if let home = pendingHome {
                if row.event.isActivityEvent, foreground == row.app, row.time - home.seconds <= activitySwitchSeconds {
                    if row.event.bringsToForeground { pendingHome = nil }
                    continue
                }
                flushHome()
            }
            if isHome(row.app) {
                // The home screen coming to the front: the app in front leaves. Its leaving is nothing.
                if row.event.bringsToForeground, foreground != nil {
                    entries.append(Trace.Entry(time: time, action: .home, line: row.line))
                    foreground = nil
                }
                continue
            }
            if row.event.bringsToForeground {
                guard foreground != row.app else { continue }
                entries.append(Trace.Entry(time: time, action: .open(launch(row.app)), line: row.line))
                foreground = row.app
            } else if foreground == row.app {
                if row.event.isActivityEvent {
                    pendingHome = (time, row.time, row.line)
                } else {
                    entries.append(Trace.Entry(time: time, action: .home, line: row.line))
                    foreground = nil
                }
            }
        }
        flushHome()
        return Trace(device: device, entries: entries)
    }

    /// The day (days since 1970-01-01) of a time on the user's clock.
    static func dayNumber(_ localTime: Double) -> Int { Int((localTime / 86_400).rounded(.down)) }

    /// The date `YYYY-MM-DD` of a day number.
    static func date(day: Int) -> String { CivilDate(day: day).text }

    /// The samples of the log `lines` holds (in `format`, or detected), in the order
    /// ``read(_:workload:sampling:hours:format:keeping:)`` gives them, every row checked: what a sharded sweep needs before it keeps any trace.
    /// Memory holds the users' names and, by day, their days.
    ///
    /// - Throws: `InputError` for the first bad row.
    /// - Complexity: O(length of the input + user-days × log(days of a user)); memory O(user-days).
    public static func samples(
        _ lines: ByteLineReader, sampling: Sampling, format: UsageLogFormat? = nil
    ) throws(InputError) -> [(user: String, label: String)] {
        var reader = UsageLogReader(lines, format: format)
        var days: [String: Set<Int>] = [:]
        var users: [String] = []
        while let row = try reader.next() {
            if days[row.user] == nil {
                users.append(row.user)
                days[row.user] = []
            }
            if sampling == .day { days[row.user]!.insert(dayNumber(row.localTime)) }
        }
        return users.flatMap { user -> [(user: String, label: String)] in
            switch sampling {
            case .user: [(user, user)]
            case .day:
                days[user]!.sorted().map { (user, UserTrace(user: user, day: date(day: $0), trace: Trace()).label) }
            }
        }
    }

    /// The users of the log `lines` holds, in the order of their first row, every row checked.
    /// Memory holds the users' names only.
    ///
    /// - Throws: `InputError` for the first bad row.
    /// - Complexity: O(length of the input); memory O(users).
    public static func users(_ lines: ByteLineReader, format: UsageLogFormat? = nil) throws(InputError) -> [String] {
        try samples(lines, sampling: .user, format: format).map(\.user)
    }

    /// A stable launch for an app name: its footprint is drawn from the distribution of its kind
    /// (`role`, when the workload's user has a kind of that name) or else from the workload's,
    /// with a generator seeded by the name, so the same name always gets the same size. No
    /// background mode is declared: a log does not say whether the app kept playing or navigating.
    static func launch(for name: String, role: AppRole? = nil, workload: Workload) -> AppLaunch {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        var random = SeededGenerator(seed: hash)
        let views = [ViewSpec(name: "main", bytes: Bytes(Int64(workload.viewBytes.sample(using: &random))))]
        let purgeable = Bytes(Int64(workload.purgeable.sample(using: &random)))
        var footprint = workload.footprint
        if case .kind(let kindName)? = role, let kind = workload.user?.kinds.first(where: { $0.name == kindName }) {
            footprint = kind.footprint
        }
        let base = Bytes(Int64(footprint.sample(using: &random)))
        return AppLaunch(
            id: AppID(name), footprint: base + views[0].bytes + purgeable, views: views, purgeable: purgeable)
    }

    /// A timestamp read: UTC seconds, the user's clock, and whether it was a number.
    struct Stamp {
        /// Seconds since 1970-01-01 00:00 UTC.
        var seconds: Double
        /// Seconds since 1970-01-01 00:00 on the clock the log writes (an ISO 8601 offset not
        /// applied).
        var localSeconds: Double
        /// Whether the text was a number (not a date).
        var isNumber: Bool
        /// Whether the number was read as milliseconds.
        var isMilliseconds: Bool
    }

    /// Seconds from a number (at most ``maximumTimestamp`` either side of zero) or a valid ISO
    /// 8601 date-time (UTC or with an offset; years 1–9999, real days of the month, seconds
    /// 0–59); `nil` for anything else.
    static func seconds(_ text: String) -> Double? { timestamp(text, milliseconds: false)?.seconds }

    /// The timestamp `text` writes: a number of seconds (at most ``maximumTimestamp`` either side
    /// of zero) or, when `milliseconds` is true, of milliseconds (at most 1,000 ×
    /// ``maximumTimestamp``) — when it is `nil`, a number above ``maximumTimestamp`` is read as
    /// milliseconds (Android's epoch times: no realistic time in seconds is that large) — or a
    /// valid ISO 8601 date-time (`T` or a space; a zone `Z`, an offset, or none, read as UTC).
    ///
    /// - Complexity: O(length of `text`)
    static func timestamp(_ text: String, milliseconds: Bool?) -> Stamp? {
        if let value = Double(text) {
            guard value.isFinite else { return nil }
            let inMilliseconds = milliseconds ?? (abs(value) > maximumTimestamp)
            let seconds = inMilliseconds ? value / 1000 : value
            guard abs(seconds) <= maximumTimestamp else { return nil }
            return Stamp(seconds: seconds, localSeconds: seconds, isNumber: true, isMilliseconds: inMilliseconds)
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
            year >= 1, (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year), hour < 24,
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
        let days = CivilDate.days(year: year, month: month, day: day)
        let clock = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return Stamp(seconds: clock - Double(offset), localSeconds: clock, isNumber: false, isMilliseconds: false)
    }
}
