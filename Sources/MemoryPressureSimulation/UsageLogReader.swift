import MemoryPressure

/// Reads an app-usage log (the form ``UsageLogImport`` imports) one row at a time from a
/// ``ByteLineReader``: the header row names the columns, and every row after it is checked —
/// time, event, app name, user — with the errors of ``UsageLogImport/parse(_:file:workload:)``.
/// Memory holds one record (`DelimitedText.Reader`), never the file.
public struct UsageLogReader {
    /// One checked row.
    public struct Row: Sendable, Hashable {
        /// The user's id as the log writes it (spaces and tabs around it removed).
        public var user: String
        /// Seconds (the timestamp as read).
        public var time: Double
        /// The app name.
        public var app: String
        /// Whether the event is Opened (else Closed).
        public var opened: Bool
        /// The 1-based line the row starts on.
        public var line: Int
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

    /// The lines read.
    public var lines: ByteLineReader { records.lines }

    /// A reader of the log `lines` holds; the separator is a tab if the first line holds one,
    /// else a comma. It reads the header row; a bad header is thrown by the first ``next()``.
    ///
    /// - Complexity: O(length of the header)
    public init(_ lines: ByteLineReader) {
        file = lines.file
        // The separator comes from the first line, read before any record.
        let first = try? lines.peekRawLine()
        let separator: Unicode.Scalar = (first ?? "").contains("\t") ? "\t" : ","
        records = DelimitedText.Reader(lines: lines, separator: separator)
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
        userColumn = try column(["user", "user_id", "userid"])
        timeColumn = try column(["timestamp", "time", "t"])
        appColumn = try column(["app", "app_name", "package", "application"])
        eventColumn = try column(["event", "event_type", "action"])
    }

    private mutating func nextRecord() throws(InputError) -> DelimitedText.Record? {
        do throws(DelimitedText.ReadError) {
            return try records.next()
        } catch {
            switch error {
            case .syntax(let syntax):
                syntaxFailed = true
                throw InputError(
                    file: file, line: syntax.line, column: syntax.column, path: "", message: syntax.message)
            case .input(let input):
                throw input
            }
        }
    }

    /// The next row, checked, or `nil` at the end of the log.
    ///
    /// - Throws: `InputError` naming the line, column and field of a bad row — the first error
    ///   reading the whole file first reported: an invalid UTF-8 byte anywhere, then a syntax error
    ///   anywhere, then the first bad row (the rest of the input is read to find out).
    /// - Complexity: O(length of the row); on an error, O(length of the rest of the input).
    public mutating func next() throws(InputError) -> Row? {
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
        guard let record = try nextRecord() else { return nil }
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
        let timeText = fields[timeColumn].text.trimmed
        guard let time = UsageLogImport.seconds(timeText) else {
            throw error(
                timeColumn,
                "expected seconds from -1e11 to 1e11 or a valid ISO 8601 time such as 2016-05-03T08:15:00Z, "
                    + "found \(timeText.quotedExcerpt())")
        }
        let eventText = fields[eventColumn].text.trimmed
        let event = eventText.lowercased()
        guard event == "opened" || event == "closed" else {
            throw error(eventColumn, "expected Opened or Closed, found \(eventText.quotedExcerpt())")
        }
        let app = fields[appColumn].text.trimmed
        if let problem = AppID.problem(with: app) {
            throw error(appColumn, problem.replacingOccurrences(of: "app id", with: "app name"))
        }
        let user = fields[userColumn].text.trimmed
        if let bad = user.unicodeScalars.first(where: { !AppID.isPrintable($0) }) {
            throw error(
                userColumn,
                "expected a user of printable characters, found the control character \(AppID.codePoint(bad))")
        }
        return Row(user: user, time: time, app: app, opened: event == "opened", line: record.line)
    }
}

extension String {
    /// The text without surrounding spaces and tabs (quotes are the CSV reader's business).
    fileprivate var trimmed: String { trimmingWhitespaceAndTabs() }
}
