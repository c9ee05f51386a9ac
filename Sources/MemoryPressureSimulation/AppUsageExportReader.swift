import MemoryPressure
import MemoryPressureFormats

/// Reads an export of the Android "App Usage" app (``UsageLogFormat/appUsage(dateOrder:)``) one
/// record at a time: `"App name","Date","Time","Duration"` (quoted or not; the header's words in
/// any language, or no header). A row is either an app session — it becomes an open at its start
/// (the date and time, on the phone's clock) and a close at its start plus its duration — or a row
/// of another kind, counted by kind and skipped:
///
/// - the screen turning on or off, locked or unlocked (`Screen on (unlocked)`, `Screen off`;
///   French `Écran allumé (déverrouillé)`, `Écran éteint (verrouillé)`; Polish `Ekran włączony`, …);
/// - a notification (`Notification posted (Gmail)`; French `Notifications envoyées (Gmail)`);
/// - the device starting or stopping (`Device boot`, `Device shutdown`; French `Appareil allumé`,
///   `Appareil éteint`);
/// - a row of an unknown kind: a name `TEXT (TEXT)` with no duration, the form of every
///   notification row, in a language whose words are not known here;
/// - the export's own notes, rows with no date, time or duration (`Activity history, …`);
/// - a row whose date, time or duration cannot be read (what was expected is said).
///
/// Dates are `A/B/Y` (or with `.` or `-`), with a two- or four-digit year (`19` is 2019), or
/// `YYYY-MM-DD`. Whether `A` is the month or the day is decided per file from the values: a first
/// field above 12 makes it the day, a second field above 12 the month. Until a date decides, the
/// sessions read are held; a file no date decides is read by which field changes more often
/// between successive dates (the day), and if that does not decide either, month first, and
/// ``dateOrderNote`` says so. Times are `H:MM:SS`, optionally with `AM`/`PM`; durations `H:MM:SS`
/// or `M:SS`.
///
/// Exports list the newest row first (the App Usage app's order) or the oldest first: the order
/// is measured (``isNewestFirst``), and the import sorts by time either way.
struct AppUsageExportReader {
    let file: String
    let user: String
    private var records: DelimitedText.Reader
    private var counter = UsageLogRowCounter()
    private(set) var dateOrder: UsageLogFormat.DateOrder?
    /// How the date order was decided, once it is.
    private(set) var dateOrderNote: String? = nil
    private var pending: [Session] = []
    private var ready: [UsageLogReader.Row] = []
    private var readyIndex = 0
    private var finished = false
    private var sawFirstRecord = false
    /// Successive dates whose first (second) field changed, to decide an order no value decides.
    private var firstFieldChanges = 0
    private var secondFieldChanges = 0
    private var previousDate: RawDate? = nil
    private var previousStart: Double? = nil
    private var ascending = 0
    private var descending = 0

    /// A date as written: two fields in an order not yet known, or a year-first date.
    struct RawDate: Equatable {
        var first: Int
        var second: Int
        var year: Int
        var yearFirst: Bool
    }

    /// A session read, its date not yet placed.
    private struct Session {
        var app: String
        var date: RawDate
        var clock: Int
        var duration: Int
        var line: Int
    }

    init(lines: ByteLineReader, user: String, dateOrder: UsageLogFormat.DateOrder?) {
        file = lines.file
        self.user = user
        self.dateOrder = dateOrder
        if dateOrder != nil { dateOrderNote = "dates read \(Self.describe(dateOrder!)), as the format given says" }
        let first = (try? lines.peekRawLine()) ?? ""
        let separator: Unicode.Scalar = !first.contains(",") && first.contains(";") ? ";" : ","
        records = DelimitedText.Reader(lines: lines, separator: separator)
    }

    /// The rows counted so far, by what they are.
    var rowCounts: [UsageLogRowCount] { counter.counts }

    /// Whether the sessions were listed newest first (more steps back in time than forward).
    var isNewestFirst: Bool { descending > ascending }

    /// The next row (an open or a close), or `nil` at the end.
    mutating func next() throws(InputError) -> UsageLogReader.Row? {
        while true {
            if readyIndex < ready.count {
                let row = ready[readyIndex]
                readyIndex += 1
                if readyIndex == ready.count {
                    ready.removeAll(keepingCapacity: true)
                    readyIndex = 0
                }
                return row
            }
            if finished { return nil }
            guard let record = try nextRecord() else {
                finished = true
                if !pending.isEmpty {
                    decideWithoutValues()
                    flushPending()
                }
                continue
            }
            read(record)
        }
    }

    private mutating func nextRecord() throws(InputError) -> DelimitedText.Record? {
        do throws(DelimitedText.ReadError) {
            return try records.next()
        } catch {
            throw error.inputError(file: file)
        }
    }

    private mutating func read(_ record: DelimitedText.Record) {
        let fields = record.fields.map { $0.text.trimmingWhitespaceAndTabs() }
        let line = record.line
        let isFirst = !sawFirstRecord
        sawFirstRecord = true
        if fields.allSatisfy(\.isEmpty) { return }
        if fields.count >= 2, fields.dropFirst().allSatisfy(\.isEmpty) {
            counter.add(
                "the export's own notes (rows with no date, time or duration, such as \"Activity history, …\")",
                rule: "skipped", line: line)
            return
        }
        guard fields.count == 4 else {
            counter.add(
                "rows that are not NAME,DATE,TIME,DURATION (expected 4 fields)", rule: "skipped", line: line)
            return
        }
        guard let date = Self.date(fields[1]) else {
            if isFirst { return }  // the header, in whatever language
            counter.add(
                "rows whose date is not a date such as 12/5/19, 5.12.2019 or 2019-12-05", rule: "skipped",
                line: line)
            return
        }
        guard let clock = Self.clock(fields[2]) else {
            counter.add("rows whose time is not a time such as 17:30:15 or 5:30:15 PM", rule: "skipped", line: line)
            return
        }
        guard let duration = Self.duration(fields[3]) else {
            counter.add(
                "rows whose duration is not a duration such as 0:03:01", rule: "skipped", line: line)
            return
        }
        let name = fields[0]
        if let kind = Self.nonAppKind(name, duration: duration) {
            counter.add(kind, rule: "counted, not an app session", line: line)
            decide(by: date, line: line)
            return
        }
        if AppID.problem(with: name) != nil {
            counter.add("rows whose app name is empty or not printable", rule: "skipped", line: line)
            return
        }
        decide(by: date, line: line)
        let session = Session(app: name, date: date, clock: clock, duration: duration, line: line)
        if dateOrder == nil {
            pending.append(session)
        } else {
            emit(session)
        }
    }

    /// Learns the date order from `date` if it decides it; notes the changes between dates.
    private mutating func decide(by date: RawDate, line: Int) {
        if let previous = previousDate, !date.yearFirst, !previous.yearFirst {
            if previous.first != date.first { firstFieldChanges += 1 }
            if previous.second != date.second { secondFieldChanges += 1 }
        }
        previousDate = date
        guard dateOrder == nil, !date.yearFirst else { return }
        if date.first > 12 {
            dateOrder = .dayFirst
            dateOrderNote = "dates read day first (\(date.first) in the first field at line \(line))"
        } else if date.second > 12 {
            dateOrder = .monthFirst
            dateOrderNote = "dates read month first (\(date.second) in the second field at line \(line))"
        } else {
            return
        }
        flushPending()
    }

    /// Decides the date order at the end of a file no value decided.
    private mutating func decideWithoutValues() {
        guard dateOrder == nil else { return }
        if firstFieldChanges > secondFieldChanges {
            dateOrder = .dayFirst
            dateOrderNote =
                "dates read day first: no date has a field above 12, and the first field changes more often "
                + "(\(firstFieldChanges) times against \(secondFieldChanges))"
        } else if secondFieldChanges > firstFieldChanges {
            dateOrder = .monthFirst
            dateOrderNote =
                "dates read month first: no date has a field above 12, and the second field changes more often "
                + "(\(secondFieldChanges) times against \(firstFieldChanges))"
        } else {
            dateOrder = .monthFirst
            dateOrderNote =
                "dates read month first, undecided: no date has a field above 12 and neither field changes more "
                + "often; give --usage-log-format app-usage-day-first if the phone wrote the day first"
        }
    }

    private mutating func flushPending() {
        let held = pending
        pending = []
        for session in held { emit(session) }
    }

    /// Queues the open and the close of `session` (the date order is known).
    private mutating func emit(_ session: Session) {
        let raw = session.date
        let (month, day) =
            raw.yearFirst || dateOrder == .monthFirst ? (raw.first, raw.second) : (raw.second, raw.first)
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: raw.year) else {
            counter.add(
                "rows whose date is not a day of the calendar in the order the file's dates use", rule: "skipped",
                line: session.line)
            return
        }
        let start = Double(CivilDate.days(year: raw.year, month: month, day: day) * 86_400 + session.clock)
        if let previous = previousStart {
            if start > previous { ascending += 1 } else if start < previous { descending += 1 }
        }
        previousStart = start
        let end = start + Double(session.duration)
        ready.append(
            UsageLogReader.Row(
                user: user, time: start, localTime: start, app: session.app, event: .opened, line: session.line))
        ready.append(
            UsageLogReader.Row(
                user: user, time: end, localTime: end, app: session.app, event: .closed, line: session.line))
    }

    private static func describe(_ order: UsageLogFormat.DateOrder) -> String {
        order == .monthFirst ? "month first" : "day first"
    }

    /// The kind of a row that is not an app session, or `nil` for an app's name.
    static func nonAppKind(_ name: String, duration: Int) -> String? {
        let key = AppKindTable.key(name)
        for (prefixes, kind) in nonAppPrefixes where prefixes.contains(where: { key.hasPrefix($0) }) {
            if kind == "notification" { return "notification rows (\"Notification posted (…)\")" }
            return "\(kind) rows (\"\(name.excerpt(limit: 40))\")"
        }
        if duration == 0, key.hasSuffix(")"), !key.hasPrefix("("), let open = name.firstIndex(of: "(") {
            let prefix = String(name[..<open]).trimmingWhitespaceAndTabs()
            return "rows of an unknown kind (\"\(prefix.excerpt(limit: 40)) (…)\", with no duration)"
        }
        return nil
    }

    /// The starts of the names of rows that are not app sessions, by kind, in the languages known.
    static let nonAppPrefixes: [([String], String)] = [
        (
            [
                "notification posted", "notifications posted", "notification envoyée", "notifications envoyées",
                "notification reçue", "notifications reçues",
            ], "notification"
        ),
        (["screen on", "écran allumé", "ekran włączony"], "screen on"),
        (["screen off", "écran éteint", "ekran wyłączony"], "screen off"),
        (["phone unlocked", "téléphone déverrouillé"], "screen on"),
        (["phone locked", "téléphone verrouillé"], "screen off"),
        (["device boot", "appareil allumé"], "device boot"),
        (["device shutdown", "appareil éteint"], "device shutdown"),
    ]

    /// A date `A/B/Y` (`.` or `-` alike; a two-digit year is 20YY) or `YYYY-MM-DD` (any of the
    /// three separators; spaces and a separator at the end dropped, as in `2019. 12. 5.`), not
    /// yet placed.
    static func date(_ text: String) -> RawDate? {
        // Spaces and a separator at the end are dropped: `2019. 12. 5.` (Korean) is `2019.12.5`.
        var compact = text.filter { $0 != " " && $0 != "\u{A0}" }
        if let last = compact.last, last == "." || last == "/" || last == "-" { compact.removeLast() }
        let parts =
            compact.split(separator: "/", omittingEmptySubsequences: false).count == 3
            ? compact.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            : compact.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "-" }).map(
                String.init)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) }),
            let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2]), a >= 0, b >= 0, c >= 0
        else { return nil }
        if parts[0].count == 4 {
            guard (1...12).contains(b), (1...31).contains(c), a >= 1 else { return nil }
            return RawDate(first: b, second: c, year: a, yearFirst: true)
        }
        guard parts[2].count == 2 || parts[2].count == 4, (1...31).contains(a), (1...31).contains(b),
            a <= 12 || b <= 12
        else { return nil }
        let year = parts[2].count == 2 ? 2000 + c : c
        guard year >= 1 else { return nil }
        return RawDate(first: a, second: b, year: year, yearFirst: false)
    }

    /// Seconds after midnight of `H:MM:SS`, optionally with `AM`/`PM` (`a.m.`, any case).
    static func clock(_ text: String) -> Int? {
        var body = String(AppKindTable.key(text).filter { $0 != "." })
        var meridiem: String? = nil
        for suffix in ["am", "pm"] where body.hasSuffix(suffix) {
            meridiem = suffix
            body = String(body.dropLast(2)).trimmingWhitespaceAndTabs()
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) }),
            var hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60
        else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) : 0
        guard let second, second < 60 else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        guard hour < 24 else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    /// Seconds of `H:MM:SS` (hours of any length up to a year) or `M:SS`.
    static func duration(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let seconds = numbers.reduce(0) { $0 * 60 + $1 }
        return seconds <= 366 * 86_400 ? seconds : nil
    }
}
