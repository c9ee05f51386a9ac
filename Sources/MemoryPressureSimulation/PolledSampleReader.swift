import MemoryPressure

/// Reads polled foreground samples (``UsageLogFormat/polledSamples``) one line at a time: each row
/// `TIME,PACKAGE` is the app a collector found in front when it polled, so a change of package is
/// a switch, and a row repeating the package in front is no switch at all. Rows come out as opens
/// (``UsageEvent/opened``) of the file's one user; the import's trace ignores an open of the app
/// already in front.
///
/// The glitches of such collectors are counted, each with its rule, never dropped silently:
/// - NUL bytes in a line (a write cut short): removed, and the row read;
/// - a placeholder time, Android's zero (1969-12-31 or 1970-01-01 on the phone's clock: the
///   collector had no time): skipped, since the row cannot be placed;
/// - a repeat of a row already read (the same time and package): skipped;
/// - a row earlier than one above it: kept, and placed by its time;
/// - a line that is not `TIME,PACKAGE`: skipped, with what was expected.
///
/// At the end the poll interval is estimated (``pollInterval``): a poll writes at most one row,
/// so rows cannot come faster than polls for long, and the shortest time the log takes to record
/// ``pollWindow`` successive rows, divided by that number, is about one poll. A switch to an app
/// and away again within one poll may not be seen.
///
/// Memory: one line, plus per kept row its time and its package name (to find repeats) and its
/// time again (to estimate the poll).
struct PolledSampleReader {
    let lines: ByteLineReader
    let user: String
    private var counter = UsageLogRowCounter()
    private var seen: Set<Sample> = []
    private var latest = -Double.infinity
    private var times: [Double] = []
    private var finished = false
    /// The estimated poll interval, in seconds, once the log is read (nil with too few rows).
    private(set) var pollInterval: Double? = nil

    /// A row as the repeat check sees it.
    private struct Sample: Hashable {
        var microseconds: Int64
        var app: String
    }

    /// How many successive rows the poll estimate spans.
    static let pollWindow = 4

    init(lines: ByteLineReader, user: String) {
        self.lines = lines
        self.user = user
    }

    /// The rows counted so far, by what happened to them.
    var rowCounts: [UsageLogRowCount] { counter.counts }

    /// The next row kept, or `nil` at the end (when the poll interval is estimated).
    mutating func next() throws(InputError) -> UsageLogReader.Row? {
        while let raw = try lines.nextLine() {
            let line = lines.lineNumber
            var text = raw
            if text.unicodeScalars.contains("\0") {
                text = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\0" }))
                counter.add(
                    "rows with NUL bytes (a write cut short)", rule: "the NUL bytes removed, the rest read as a row",
                    line: line)
            }
            let trimmed = text.trimmingWhitespaceAndTabs()
            if trimmed.isEmpty { continue }
            let fields = UsageLogFormat.splitCSV(trimmed).map { $0.trimmingWhitespaceAndTabs() }
            if line == 1, fields.count == 2, UsageLogFormat.timeColumnNames.contains(AppKindTable.key(fields[0])) {
                continue  // a header of a time and an app column
            }
            guard fields.count == 2 else {
                counter.add(
                    "lines that are not TIME,PACKAGE (expected 2 fields, found \(fields.count))", rule: "skipped",
                    line: line)
                continue
            }
            guard let stamp = UsageLogImport.timestamp(fields[0], milliseconds: nil) else {
                counter.add(
                    "rows whose time is not a date and time such as 2023-12-14 13:46:39.876000",
                    rule: "skipped", line: line)
                continue
            }
            if AppID.problem(with: fields[1]) != nil {
                counter.add("rows whose package is empty or not printable", rule: "skipped", line: line)
                continue
            }
            if abs(stamp.localSeconds) < 2 * 86_400 {
                counter.add(
                    "rows with a placeholder time (Android's 0: 1970-01-01 on the phone's clock)",
                    rule: "skipped: the collector had no time for the row, which cannot be placed", line: line)
                continue
            }
            let sample = Sample(microseconds: Int64((stamp.seconds * 1e6).rounded()), app: fields[1])
            guard seen.insert(sample).inserted else {
                counter.add(
                    "repeats of a row above (the same time and package)", rule: "skipped: the same sample twice",
                    line: line)
                continue
            }
            if stamp.seconds < latest {
                counter.add("rows earlier than a row above them", rule: "kept, placed by their time", line: line)
            }
            latest = max(latest, stamp.seconds)
            times.append(stamp.seconds)
            return UsageLogReader.Row(
                user: user, time: stamp.seconds, localTime: stamp.localSeconds, app: fields[1], event: .opened,
                line: line)
        }
        if !finished {
            finished = true
            pollInterval = Self.estimatePoll(times)
            times = []
        }
        return nil
    }

    /// The shortest time `times` (in any order) take to hold ``pollWindow`` + 1 successive
    /// distinct times, divided by ``pollWindow``; `nil` with fewer.
    static func estimatePoll(_ times: [Double]) -> Double? {
        var sorted = times.sorted()
        var distinct = 0
        for time in sorted where distinct == 0 || time != sorted[distinct - 1] {
            sorted[distinct] = time
            distinct += 1
        }
        guard distinct > pollWindow else { return nil }
        var best = Double.infinity
        for start in 0..<(distinct - pollWindow) {
            best = min(best, (sorted[start + pollWindow] - sorted[start]) / Double(pollWindow))
        }
        return best
    }
}
