import MemoryPressure

/// What `adb shell dumpsys meminfo` prints (alone, or inside a bugreport): every process with its
/// memory, grouped by the oom_adj category ActivityManager puts it in, and the device's totals —
/// enough to rebuild the process list lmkd chooses from. Read by ``AndroidMeminfoReport/parse(_:file:)``.
///
///     Total RSS by OOM adjustment:
///         512,345K: Native
///             45,678K: surfaceflinger (pid 567)
///         …
///         456,789K: Cached
///             89,012K: com.google.android.gm (pid 4567 / activities)
///     …
///     Total RAM: 3,787,544K (status normal)
///      Free RAM: 1,234,567K (  456,789K cached pss +   678,901K cached kernel +    98,877K free)
///
/// The categories and their oom_score_adj are ActivityManager's `DUMP_MEM_OOM_LABEL` and
/// `DUMP_MEM_OOM_ADJ` (frameworks/base ActivityManagerService.java, with ProcessList.java's
/// constants): each category covers the adj values from its own up to the next one's.
public struct AndroidMeminfoReport: Sendable, Hashable {
    /// One process of the report.
    public struct Process: Sendable, Hashable {
        /// Its name.
        public var name: String
        /// Its pid.
        public var pid: Int
        /// Its memory in KiB (RSS, or PSS when the report has no RSS section).
        public var kib: Int64
        /// Its category (`Cached`, `Foreground`, …).
        public var category: String
        /// The lowest oom_score_adj of the category.
        public var oomScoreAdj: Int
        /// Whether the line says it hosts activities (`/ activities`).
        public var hasActivities: Bool
        /// The 1-based line.
        public var line: Int
    }

    /// Whether the sizes are RSS (`Total RSS by OOM adjustment`) or PSS.
    public var measure: String
    /// Every process of the section, in the report's order.
    public var processes: [Process]
    /// `Total RAM`, in KiB, where given.
    public var totalKiB: Int64?
    /// `Free RAM`, in KiB, where given.
    public var freeKiB: Int64?
    /// Total swap (the ZRAM line's `total swap`), in KiB, where given.
    public var swapKiB: Int64?
    /// Lines of the section read.
    public var firstLine: Int, lastLine: Int

    /// ActivityManager's categories and the lowest oom_score_adj each covers.
    public static let categories: [String: Int] = [
        "Native": -1000, "System": -900, "Persistent": -800, "Persistent Service": -700, "Foreground": 0,
        "Visible": 100, "Perceptible": 200, "Perceptible Medium": 225, "Perceptible Low": 250, "Backup": 300,
        "Heavy Weight": 400, "A Services": 500, "Home": 600, "Previous": 700, "B Services": 800, "Cached": 900,
    ]

    /// Whether `line` starts the section this reader reads.
    ///
    /// - Complexity: O(length of `line`)
    public static func startsReport<S: StringProtocol>(_ line: S) -> Bool {
        startsReport(Array(line.utf8))
    }

    /// ``startsReport(_:)`` on the UTF-8 bytes of a line.
    static func startsReport(_ line: [UInt8]) -> Bool {
        UTF8Search.contains(line, "Total PSS by OOM adjustment:")
            || UTF8Search.contains(line, "Total RSS by OOM adjustment:")
    }

    /// The report in `text`: its `Total RSS by OOM adjustment` section (or the PSS one when there
    /// is no RSS section) and the totals.
    ///
    /// - Throws: `InputError` naming the line of a process line that cannot be read, or a text
    ///   with no such section.
    /// - Complexity: O(length of `text`)
    public static func parse(_ text: String, file: String) throws(InputError) -> AndroidMeminfoReport {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let hasRSS = lines.contains { $0.contains("Total RSS by OOM adjustment:") }
        let header = hasRSS ? "Total RSS by OOM adjustment:" : "Total PSS by OOM adjustment:"
        guard let start = lines.firstIndex(where: { $0.contains(header) }) else {
            throw InputError(
                file: file, line: 0, column: 0, path: "",
                message: "expected a 'Total RSS by OOM adjustment:' or 'Total PSS by OOM adjustment:' section")
        }
        var report = AndroidMeminfoReport(
            measure: hasRSS ? "RSS" : "PSS", processes: [], totalKiB: nil, freeKiB: nil, swapKiB: nil,
            firstLine: start + 1, lastLine: start + 1)
        var category: (name: String, adj: Int)?
        var index = start + 1
        while index < lines.count {
            let line = lines[index].hasSuffix("\r") ? lines[index].dropLast() : lines[index]
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            guard !body.isEmpty, let colon = body.firstIndex(of: ":"), let kib = Self.kib(body[..<colon]) else { break }
            let rest = body[body.index(after: colon)...].drop { $0 == " " }
            // Sizes are right-aligned, so indentation does not tell a category from a process: a
            // category's line is its name alone, a process's ends in "(pid N…)".
            if let known = Self.categories[String(rest)] {
                category = (String(rest), known)
            } else if let current = category {
                guard rest.hasSuffix(")"), let open = rest.lastIndex(of: "("), rest[open...].hasPrefix("(pid "),
                    let pid = Int(rest[open...].dropFirst(5).prefix { $0.isNumber })
                else {
                    // A sub-line that is not a process (a total) is skipped.
                    index += 1
                    continue
                }
                let name = String(rest[..<open]).trimmingWhitespaceAndTabs()
                if let problem = AppID.problem(with: name) {
                    throw InputError(
                        file: file, line: index + 1, column: indent + 1, path: current.name, message: problem)
                }
                report.processes.append(
                    Process(
                        name: name, pid: pid, kib: kib, category: current.name, oomScoreAdj: current.adj,
                        hasActivities: rest[open...].contains("activities"), line: index + 1))
            }
            report.lastLine = index + 1
            index += 1
        }
        for line in lines {
            let body = line.drop { $0 == " " }
            if body.hasPrefix("Total RAM:") { report.totalKiB = Self.kib(Self.firstNumber(body.dropFirst(10))) }
            if body.hasPrefix("Free RAM:") { report.freeKiB = Self.kib(Self.firstNumber(body.dropFirst(9))) }
            if body.hasPrefix("ZRAM:"), let range = body.firstRange(of: "K total swap") {
                let before = body[..<range.lowerBound]
                let digits = before.reversed().prefix { $0.isNumber || $0 == "," }
                report.swapKiB = Self.kib(Substring(String(digits.reversed())))
            }
        }
        return report
    }

    /// `1,234K` or `1234` as KiB.
    static func kib(_ text: Substring) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        for character in text.drop(while: { $0 == " " }) {
            if character == "," { continue }
            if character == "K" { break }
            guard let digit = character.wholeNumberValue, digits < 15 else { return nil }
            value = value * 10 + Int64(digit)
            digits += 1
        }
        return digits == 0 ? nil : value
    }

    /// The first run of digits and commas in `text`.
    static func firstNumber(_ text: Substring) -> Substring {
        let start = text.drop { !$0.isNumber }
        return start.prefix { $0.isNumber || $0 == "," }
    }
}
