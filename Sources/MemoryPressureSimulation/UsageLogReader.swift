import MemoryPressure

/// Reads an app-usage log one row at a time from a ``ByteLineReader``, in any of the layouts of
/// docs/usage-logs.md (``UsageLogFormat``, detected from the first line unless given):
///
/// - the event layouts (the common form, LSApp, Android UsageStatsManager exports): the header
///   row names the columns, and every row after it is checked — time, event, app name, user —
///   with the errors of ``UsageLogImport/parse(_:file:workload:)``. A row whose event type is not
///   a move to or from the foreground (``UsageEvent``) is counted in ``skippedEvents`` and
///   skipped. Memory holds one record (`DelimitedText.Reader`), never the file;
/// - polled foreground samples (`PolledSampleReader`) and App Usage exports
///   (`AppUsageExportReader`): what real collectors wrote, read forgivingly. A row that cannot be
///   placed, a glitch and a row that is not an app session are counted in ``rowCounts`` with the
///   rule applied to each, and ``notes`` says what was measured about the whole log.
public struct UsageLogReader {
    /// One checked row.
    public struct Row: Sendable, Hashable {
        /// The user's id as the log writes it (spaces and tabs around it removed); a log without a
        /// user column is one user, named after the file.
        public var user: String
        /// Seconds since 1970-01-01 00:00 UTC (a time without a zone is read as UTC).
        public var time: Double
        /// Seconds since 1970-01-01 00:00 on the user's own clock: the date and time as written
        /// (an ISO 8601 time's offset is not applied; a number is read as UTC). Days start at its
        /// midnights.
        public var localTime: Double
        /// The app name.
        public var app: String
        /// The event.
        public var event: UsageEvent
        /// The 1-based line the row starts on.
        public var line: Int

        /// Whether the event brings the app to the foreground.
        public var opened: Bool { event.bringsToForeground }
    }

    /// The rows of one event type that was not a move to or from the foreground.
    public struct SkippedEvent: Sendable, Hashable {
        /// The event type as the first such row writes it.
        public var type: String
        /// How many rows had it.
        public var count: Int
        /// The first row's line.
        public var firstLine: Int

        /// `count` rows of event type `type`, the first on line `firstLine`.
        ///
        /// - Complexity: O(1)
        public init(type: String, count: Int, firstLine: Int) {
            self.type = type
            self.count = count
            self.firstLine = firstLine
        }
    }

    private var records: DelimitedText.Reader
    private let file: String
    private var columns: [String] = []
    private var userColumn = 0
    private var timeColumn = 0
    private var appColumn = 0
    private var eventColumn = 0
    /// An error of the header, thrown by the first ``next()``.
    private var headerError: InputError?
    /// Whether the record reader stopped on a syntax error (its state is then unusable).
    private var syntaxFailed = false
    /// Whether the log has a user column (else every row is the user ``fileUser``).
    private var hasUserColumn = true
    /// Whether numeric timestamps are milliseconds: from the time column's name (`…_ms`) or, if
    /// it does not say, from the first numeric timestamp (above ``UsageLogImport/maximumTimestamp``).
    private var milliseconds: Bool?
    /// The skipped event types, by their lowercased text.
    private var skipped: [String: SkippedEvent] = [:]

    /// The event types skipped so far, in the order of their first row.
    public var skippedEvents: [SkippedEvent] { skipped.values.sorted { $0.firstLine < $1.firstLine } }

    /// The user of a log without a user column: its file's name, without the directories.
    public var fileUser: String { file.split(separator: "/").last.map(String.init) ?? file }

    /// The lines read.
    public var lines: ByteLineReader { records.lines }

    /// The layout family read: the one given, or the one ``UsageLogFormat/detect(firstLine:)``
    /// finds.
    public let format: UsageLogFormat
    /// The reader of polled foreground samples, when the log is one.
    private var polled: PolledSampleReader?
    /// The reader of an App Usage export, when the log is one.
    private var appUsage: AppUsageExportReader?

    /// The rows of the real layouts (polled samples, App Usage exports) counted so far by what
    /// happened to them: glitches with their rule, and the kinds of rows that are not app
    /// sessions. Empty for the event layouts, whose skipped rows are ``skippedEvents``.
    public var rowCounts: [UsageLogRowCount] { polled?.rowCounts ?? appUsage?.rowCounts ?? [] }

    /// What the reader measured or decided about the whole log, once it is read: the poll
    /// interval of polled samples and what it hides; an export's date order and row order.
    public var notes: [String] {
        if let polled {
            guard let poll = polled.pollInterval else {
                return ["poll interval not estimated: fewer than \(PolledSampleReader.pollWindow + 1) distinct times"]
            }
            let seconds = poll < 10 ? (poll * 10).rounded() / 10 : poll.rounded()
            let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return [
                "polled about every \(shown) s (the shortest stretch of \(PolledSampleReader.pollWindow) successive "
                    + "rows, divided by \(PolledSampleReader.pollWindow)): a visit to an app shorter than that may "
                    + "be invisible, and no row says when the screen went off, so an app stays in front until the "
                    + "next row"
            ]
        }
        if let appUsage {
            return [appUsage.dateOrderNote, appUsage.isNewestFirst ? "rows listed newest first" : nil].compactMap {
                $0
            }
        }
        return []
    }

    /// Whether the rows came newest first (an App Usage export, as the app writes it): the
    /// import then orders sessions that start at the same second by the file's order reversed.
    public var isNewestFirst: Bool { appUsage?.isNewestFirst ?? false }

    /// A reader of the log `lines` holds, in `format` (`nil`: detected from the first line,
    /// ``UsageLogFormat/detect(firstLine:)``). For the event layouts, the separator is a tab if
    /// the first line holds one, else a comma, and the header row is read now; a bad header is
    /// thrown by the first ``next()``.
    ///
    /// - Complexity: O(length of the header)
    public init(_ lines: ByteLineReader, format: UsageLogFormat? = nil) {
        file = lines.file
        // The separator comes from the first line, read before any record.
        let first = try? lines.peekRawLine()
        let format = format ?? UsageLogFormat.detect(firstLine: first ?? "")
        self.format = format
        let separator: Unicode.Scalar = (first ?? "").contains("\t") ? "\t" : ","
        records = DelimitedText.Reader(lines: lines, separator: separator)
        let user = file.split(separator: "/").last.map(String.init) ?? file
        switch format {
        case .events: break
        case .polledSamples:
            polled = PolledSampleReader(lines: lines, user: user)
            hasUserColumn = false
            return
        case .appUsage(let order):
            appUsage = AppUsageExportReader(lines: lines, user: user, dateOrder: order)
            hasUserColumn = false
            return
        }
        do throws(InputError) {
            try readHeader()
        } catch {
            headerError = error
        }
    }

    private mutating func readHeader() throws(InputError) {
        guard let header = try nextRecord() else {
            throw InputError(
                file: file, line: 1, column: 1, path: "",
                message: "expected a header row: user, session, timestamp, app, event")
        }
        let columns = header.fields.map { $0.text.trimmed.lowercased() }
        let file = self.file
        func column(_ names: [String]) throws(InputError) -> Int {
            guard let index = columns.firstIndex(where: { names.contains($0) }) else {
                let found = columns.prefix(8).map { $0.excerpt(limit: 24) }.joined(separator: ", ")
                throw InputError(
                    file: file, line: header.line, column: 1, path: "",
                    message: "expected a column named \(names[0]) in the header, found \(columns.count) "
                        + "column\(columns.count == 1 ? "" : "s"): \(found)\(columns.count > 8 ? ", …" : "")")
            }
            return index
        }
        self.columns = columns
        let userNames = ["user", "user_id", "userid", "uid", "participant", "participant_id", "device_id"]
        hasUserColumn = columns.contains(where: userNames.contains)
        userColumn = hasUserColumn ? try column(userNames) : 0
        let millisecondNames = ["timestamp_ms", "time_ms", "ms", "timestamp(ms)", "time_stamp_ms"]
        timeColumn = try column(["timestamp", "time", "t", "time_stamp", "event_time"] + millisecondNames)
        if millisecondNames.contains(columns[timeColumn]) { milliseconds = true }
        appColumn = try column(["app", "app_name", "package", "package_name", "packagename", "application"])
        eventColumn = try column(["event", "event_type", "eventtype", "action", "type"])
    }

    private mutating func nextRecord() throws(InputError) -> DelimitedText.Record? {
        do throws(DelimitedText.ReadError) {
            return try records.next()
        } catch {
            if case .syntax = error { syntaxFailed = true }
            throw error.inputError(file: file)
        }
    }

    /// The next row, checked, or `nil` at the end of the log.
    ///
    /// - Throws: `InputError` naming the line, column and field of a bad row — the first error
    ///   reading the whole file first reported: an invalid UTF-8 byte anywhere, then a syntax error
    ///   anywhere, then the first bad row (the rest of the input is read to find out).
    /// - Complexity: O(length of the row); on an error, O(length of the rest of the input).
    public mutating func next() throws(InputError) -> Row? {
        if polled != nil { return try polled!.next() }
        if appUsage != nil { return try appUsage!.next() }
        do throws(InputError) {
            if let headerError {
                self.headerError = nil
                throw headerError
            }
            return try row()
        } catch {
            throw wholeFileError(for: error)
        }
    }

    /// The error to report for `error`, after reading the rest of the input.
    private mutating func wholeFileError(for error: InputError) -> InputError {
        if lines.failed { return error }
        if !syntaxFailed {
            // A bad row: a syntax error (or an invalid byte) later in the file comes first.
            do throws(InputError) {
                while try nextRecord() != nil {}
            } catch {
                return wholeFileError(for: error)
            }
            return error
        }
        // A syntax error: an invalid byte later in the file comes first.
        do throws(InputError) {
            while try lines.nextRawLine() != nil {}
        } catch {
            return error
        }
        return error
    }

    private mutating func row() throws(InputError) -> Row? {
        while let record = try nextRecord() {
            if let row = try row(of: record) { return row }
        }
        return nil
    }

    /// The checked row of `record`, or `nil` when its event type is skipped.
    private mutating func row(of record: DelimitedText.Record) throws(InputError) -> Row? {
        let fields = record.fields
        guard fields.count >= columns.count else {
            throw InputError(
                file: file, line: record.line, column: 0, path: "",
                message: "expected \(columns.count) fields, found \(fields.count)")
        }
        let columns = self.columns
        let file = self.file
        func error(_ index: Int, _ message: String) -> InputError {
            InputError(
                file: file, line: fields[index].line, column: fields[index].column, path: columns[index],
                message: message)
        }
        let eventText = fields[eventColumn].text.trimmed
        guard let event = UsageEvent(eventText) else {
            let key = eventText.lowercased().excerpt(limit: 40)
            if skipped[key] != nil {
                skipped[key]!.count += 1
            } else if skipped.count < Self.maximumSkippedTypes {
                skipped[key] = SkippedEvent(type: eventText.excerpt(limit: 40), count: 1, firstLine: record.line)
            } else {
                throw error(
                    eventColumn,
                    "expected a usage event (Opened, Closed, User Interaction, Broken, ACTIVITY_RESUMED, "
                        + "ACTIVITY_PAUSED, ACTIVITY_STOPPED, MOVE_TO_FOREGROUND, MOVE_TO_BACKGROUND); "
                        + "\(Self.maximumSkippedTypes) other event types were skipped already, "
                        + "found another: \(eventText.quotedExcerpt())")
            }
            return nil
        }
        let timeText = fields[timeColumn].text.trimmed
        guard let stamp = UsageLogImport.timestamp(timeText, milliseconds: milliseconds) else {
            let range = milliseconds == true ? "milliseconds from -1e14 to 1e14" : "seconds from -1e11 to 1e11"
            throw error(
                timeColumn,
                "expected \(range) or a valid ISO 8601 time such as 2016-05-03T08:15:00Z, "
                    + "found \(timeText.quotedExcerpt())")
        }
        if stamp.isNumber && milliseconds == nil { milliseconds = stamp.isMilliseconds }
        let app = fields[appColumn].text.trimmed
        if let problem = AppID.problem(with: app) {
            throw error(appColumn, problem.replacingOccurrences(of: "app id", with: "app name"))
        }
        let user = hasUserColumn ? fields[userColumn].text.trimmed : fileUser
        if let bad = user.unicodeScalars.first(where: { !AppID.isPrintable($0) }) {
            throw error(
                userColumn,
                "expected a user of printable characters, found the control character \(AppID.codePoint(bad))")
        }
        return Row(
            user: user, time: stamp.seconds, localTime: stamp.localSeconds, app: app, event: event,
            line: record.line)
    }

    /// How many distinct unknown event types a log may hold before the next one is an error: a
    /// file whose event column is not one (or is not a usage log at all) fails instead of
    /// skipping every row.
    public static let maximumSkippedTypes = 64
}

extension String {
    /// The text without surrounding spaces and tabs (quotes are the CSV reader's business).
    fileprivate var trimmed: String { trimmingWhitespaceAndTabs() }
}
