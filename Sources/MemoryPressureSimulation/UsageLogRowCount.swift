/// Rows of a usage log that share what happened to them: a glitch of the collector (a placeholder
/// time, a repeated row, a row out of order) or a kind of row that is not an app session (a
/// screen turning on, a notification), with the rule applied to each. The readers of the real
/// layouts never drop a row silently: each is counted in one of these.
public struct UsageLogRowCount: Sendable, Hashable {
    /// What the rows are (`rows with a placeholder time (1970-01-01)`).
    public var what: String
    /// What was done with each (`skipped: …`, `kept, placed by its time`).
    public var rule: String
    /// How many rows.
    public var count: Int
    /// The first such row's line.
    public var firstLine: Int

    /// `count` rows that are `what`, the first on line `firstLine`, each handled by `rule`.
    ///
    /// - Complexity: O(1)
    public init(what: String, rule: String, count: Int, firstLine: Int) {
        self.what = what
        self.rule = rule
        self.count = count
        self.firstLine = firstLine
    }
}

/// Counts of rows by what they are, in the order of their first row, at most
/// ``UsageLogRowCounter/maximumKinds`` distinct ones (more are added to the last, "other").
struct UsageLogRowCounter {
    /// The most distinct counts kept: a file of unknown rows cannot grow the report without end.
    static let maximumKinds = 64

    private var index: [String: Int] = [:]
    private(set) var counts: [UsageLogRowCount] = []

    /// Counts a row on `line` that is `what`, handled by `rule`.
    mutating func add(_ what: String, rule: String, line: Int) {
        if let position = index[what] {
            counts[position].count += 1
            return
        }
        if counts.count >= Self.maximumKinds - 1 {
            let other = "rows of other kinds"
            if let position = index[other] {
                counts[position].count += 1
            } else {
                index[other] = counts.count
                counts.append(UsageLogRowCount(what: other, rule: "skipped", count: 1, firstLine: line))
            }
            return
        }
        index[what] = counts.count
        counts.append(UsageLogRowCount(what: what, rule: rule, count: 1, firstLine: line))
    }
}
