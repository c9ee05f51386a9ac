import MemoryPressure

/// Reads Linux kernel OOM reports out of a kernel log, one line at a time, so a log of any length
/// is read in bounded memory: each report is handed back as soon as its `Killed process` line
/// (or the start of the next report, or the end of the input) closes it.
///
/// Accepted: `dmesg` (with or without `-T`), `journalctl -k`, kern.log and syslog lines (see
/// `KernelLogLine`); every task-table layout since Linux 2.6.32, read by its header's column
/// names (`nr_ptes` or `pgtables_bytes`; with or without `rss_anon rss_file rss_shmem`, `uid`,
/// `tgid`, `cpu`, `oom_adj`); global and memory-cgroup reports (cgroup v1 and v2 lines); the
/// victim lines of every generation (`Out of memory: Killed process`, `Memory cgroup out of
/// memory: Killed process`, the older `Kill process … score … or sacrifice child` followed by
/// `Killed process`). Lines of other messages interleaved with a report are skipped.
///
/// A task row that does not fit its header is an `InputError` naming the line, the column and
/// what was expected; so are more than ``maximumTasks`` rows in one report and a command name
/// longer than ``maximumNameBytes``.
public struct KernelOOMReportParser {
    /// The most task rows one report may hold: 1,000,000.
    public static let maximumTasks = 1_000_000
    /// The longest command name accepted, in UTF-8 bytes: 256 (the kernel's is at most 15 or 63).
    public static let maximumNameBytes = 256

    /// The input's name in errors.
    public let file: String
    /// Lines read that belong to no report or are not part of one (other kernel messages).
    public private(set) var skippedLines = 0
    private var current: KernelOOMReport?
    private var inTable = false
    private var inMemoryInfo = false
    /// A task row that ended before its last column, with its line and what was missing: the rest
    /// may be on the next line.
    private var pendingRow: (text: String, line: Int, problem: String)?
    /// Totals read while no report was open (a report whose opening line was cut), and the line of
    /// the last of them: a report that opens within ``preambleLines`` lines takes them.
    private var preamble: (report: KernelOOMReport, line: Int)?
    /// How far before a report's first line its totals may stand: 100 lines.
    static let preambleLines = 100
    /// A table header cut short (its first part, its line, how many lines it spans so far).
    private var heldHeader: (text: String, line: Int, parts: Int)?
    /// Whether the input is quoted-printable (a mail archive's `=3D`), and a line that ran on.
    private var quotedPrintable = false
    private var softBroken: String?
    /// The longest line soft breaks join, in UTF-8 bytes: 16 KiB. A kernel message is at most
    /// 1,024 bytes (`PRINTKRB_RECORD_MAX`, kernel/printk/internal.h), three times that
    /// quoted-printable; a line ending in `=` past this is read as it stands, so input of nothing
    /// but soft breaks holds one line's memory, not the whole input's.
    static let maximumJoinedLineBytes = 16 << 10
    /// The bytes of a line held for the next one to continue (a soft break, a wrapped kill line):
    /// for tests that check the memory a run of them holds.
    package var heldLineBytes: Int { softBroken?.utf8.count ?? 0 }

    /// What reading one task row gave.
    enum RowResult {
        /// The row was read into the report.
        case read
        /// The line ended before the row's last column.
        case short(String)
        /// The line is no task row of this table (another writer's line), with what was expected.
        case unreadable(String)
    }

    /// A parser for the input named `file`.
    ///
    /// - Complexity: O(1)
    public init(file: String) {
        self.file = file
    }

    /// Every report in `text`, in order.
    ///
    /// - Throws: `InputError` when one report holds more than ``maximumTasks`` tasks.
    /// - Complexity: O(length of `text`)
    public static func reports(in text: String, file: String) throws(InputError) -> [KernelOOMReport] {
        var parser = KernelOOMReportParser(file: file)
        var reports: [KernelOOMReport] = []
        for (offset, line) in InputText.lines(text).enumerated() {
            if let done = try parser.consume(line, lineNumber: offset + 1) { reports.append(done) }
        }
        if let done = parser.finish() { reports.append(done) }
        return reports
    }

    /// Reads line `lineNumber` (1-based) and returns the report it closed, if any. A line inside a
    /// task table that is no row of it (another writer's line, a row that fits no column) is
    /// skipped and counted in the report, never a reason to refuse the log.
    ///
    /// - Throws: `InputError` when one report holds more than ``maximumTasks`` tasks.
    /// - Complexity: O(length of the line)
    public mutating func consume(_ line: Substring, lineNumber: Int) throws(InputError) -> KernelOOMReport? {
        // A web page's copy may hold no-break spaces (U+00A0) for the blanks.
        var line = line
        if line.utf8.contains(0xC2), line.contains("\u{A0}") { line = line.replacing("\u{A0}", with: " ")[...] }
        // Outside a report, a line that can neither open one nor state totals for one is passed
        // over by its bytes alone: most lines of a long log.
        if current == nil, pendingRow == nil, heldHeader == nil, softBroken == nil, !quotedPrintable,
            !Self.openers.matches(line)
        {
            skippedLines += 1
            return nil
        }
        // A mail archive's quoted-printable text: `=3D` for `=`, and a line ending in `=` runs on.
        // The held text grows in place, so a run of soft breaks costs its length, not its square.
        if var held = softBroken {
            softBroken = nil
            held += line
            if !quotedPrintable && held.contains("=3D") { quotedPrintable = true }
            if quotedPrintable && Self.runsOn(held) {
                held.removeLast()
                softBroken = held
                return nil
            }
            line = held[...]
        } else if quotedPrintable || line.contains("=3D") {
            quotedPrintable = true
            if Self.runsOn(line) {
                softBroken = String(line.dropLast())
                return nil
            }
        }
        if quotedPrintable { line = line.replacing("=3D", with: "=")[...] }
        // A table header a mail client wrapped: its rest is on the next line(s).
        if let held = heldHeader {
            heldHeader = nil
            let rest = KernelLogLine.message(of: line)
            // Joined with a blank or without (a word cut in two): the join whose every column is
            // one the kernel prints.
            for joined in [held.text + " " + rest, held.text + rest] {
                if let columns = Self.tableHeader(joined[...]), columns.allSatisfy(Self.knownColumns.contains) {
                    return try startTable(columns, lineNumber: held.line)
                }
            }
            if held.parts < 3, !rest.isEmpty, !rest.contains(": ") {
                heldHeader = (held.text + " " + rest, held.line, held.parts + 1)
                return nil
            }
        }
        let message = KernelLogLine.message(of: line)
        // A kill line wrapped right after `Killed process`: its pid and name are on the next line.
        if let range = message.firstRange(of: "Killed process"),
            message[range.upperBound...].allSatisfy({ $0 == " " })
        {
            var held = line
            while held.last == " " { held = held.dropLast() }
            softBroken = String(held) + " "
            return nil
        }
        if let range = message.firstRange(of: " invoked oom-killer: ")
            ?? (message.hasSuffix(" invoked oom-killer:") ? message.firstRange(of: " invoked oom-killer:") : nil)
        {
            let closed = close()
            preamble = nil
            var report = KernelOOMReport(firstLine: lineNumber)
            report.invokingTask = Self.invokingTask(
                name: message[..<range.lowerBound], rest: message[range.upperBound...])
            current = report
            return closed
        }
        if inTable, let pending = pendingRow {
            pendingRow = nil
            // A row a mail client or a blog wrapped: its rest is on this line.
            if message.first != "[", !message.isEmpty, !message.contains(": "), !message.contains("Killed process") {
                let joined = pending.text + " " + message
                if case .read = try readTask(joined[...], line: joined[...], lineNumber: pending.line) {
                    current!.joinedRows += 1
                    current!.lastLine = lineNumber
                    return nil
                }
            }
            skipRow(pending.problem, line: pending.line)
        }
        if inTable, message.first == "[" {
            switch try readTask(message, line: line, lineNumber: lineNumber) {
            case .read: break
            case .short(let problem): pendingRow = (String(message), lineNumber, problem)
            case .unreadable(let problem): skipRow(problem, line: lineNumber)
            }
            return nil
        }
        if let columns = Self.tableHeader(message) {
            return try startTable(columns, lineNumber: lineNumber)
        }
        if Self.isWrappedTableHeader(message) {
            heldHeader = (String(message), lineNumber, 1)
            return nil
        }
        if message.contains("Killed process ") {
            var closed: KernelOOMReport?
            // A victim already killed closes that report; one only chosen (`Kill process …`)
            // is completed by this line.
            if let killed = current?.victim, killed.line != 0 { closed = close() }
            openIfNeeded(at: lineNumber)
            inTable = false
            current!.victim = Self.victim(message, chosen: current!.victim, lineNumber: lineNumber)
            current!.lastLine = lineNumber
            if let closed { return closed }
            return close()
        }
        if let chosen = Self.chosen(message) {
            openIfNeeded(at: lineNumber)
            inTable = false
            current!.victim = chosen
            current!.lastLine = lineNumber
            return nil
        }
        if message.hasPrefix("oom-kill:") {
            openIfNeeded(at: lineNumber)
            inTable = false
            Self.readConstraint(message.dropFirst("oom-kill:".count), into: &current!)
            current!.lastLine = lineNumber
            return nil
        }
        guard current != nil else {
            // A memory cgroup's usage and limit (or Mem-Info's totals) printed before a report
            // whose opening line a poster cut: kept for a report that starts at its table.
            current = preamble?.report ?? KernelOOMReport(firstLine: lineNumber)
            if readTotals(message) {
                current!.lastLine = lineNumber
                preamble = (current!, lineNumber)
            } else {
                skippedLines += 1
            }
            current = nil
            return nil
        }
        if readTotals(message) {
            current!.lastLine = lineNumber
        } else {
            skippedLines += 1
            // Inside the task table, a line that is no row is another writer's.
            if inTable { current!.interleavedLines += 1 }
        }
        return nil
    }

    /// Counts a line inside the task table that is no task row, and keeps what was wrong with the
    /// first few, for the report's notes.
    private mutating func skipRow(_ problem: String, line: Int) {
        current!.interleavedLines += 1
        if current!.skippedRows.count < 5 { current!.skippedRows.append("line \(line): \(problem)") }
    }

    /// The report still open at the end of the input (one cut short before its victim line), if any.
    ///
    /// - Complexity: O(1)
    public mutating func finish() -> KernelOOMReport? {
        close()
    }

    private mutating func close() -> KernelOOMReport? {
        if let pending = pendingRow, current != nil { skipRow(pending.problem, line: pending.line) }
        pendingRow = nil
        defer {
            current = nil
            inTable = false
            inMemoryInfo = false
        }
        return current
    }

    /// Opens the task table with `columns` (closing a report that already has a table or a victim).
    private mutating func startTable(_ columns: [String], lineNumber: Int) throws(InputError) -> KernelOOMReport? {
        var closed: KernelOOMReport?
        if current == nil || !(current!.tasks.isEmpty && current!.victim == nil) { closed = close() }
        openIfNeeded(at: lineNumber)
        current!.columns = columns
        current!.tasks = []
        current!.lastLine = lineNumber
        inTable = true
        inMemoryInfo = false
        return closed
    }

    /// What a line that opens a report, or states totals before one, holds: one of these (a
    /// superset: the line is then read in full).
    static let openers = ByteMarkers([
        "invoked oom-killer", "oom-kill", "Out of memory", "ill process", "pid ]", "pid  ]", "pid\t]",
        "memory: usage", "memory+swap: usage", "swap: usage", "pages RAM", "pages reserved", "Mem-Info",
        "Total swap", "Free swap", "CPU: ", "Pid: ", "=3D", "Task in ", "Tasks state",
    ])

    /// What a line must hold to matter while ``mayPassOver`` holds: ``openers``, or a no-break
    /// space (which ``consume(_:lineNumber:)`` makes a blank before looking for them).
    package static let passOverMarkers = ByteMarkers(union: [openers, ByteMarkers(["\u{A0}"])])

    /// Whether a line without any of ``passOverMarkers`` would only be counted in
    /// ``skippedLines`` (no report is open and nothing is held for the next line).
    package var mayPassOver: Bool {
        current == nil && pendingRow == nil && heldHeader == nil && softBroken == nil && !quotedPrintable
    }

    /// Counts `count` lines passed over while ``mayPassOver`` held, as reading them would.
    ///
    /// - Complexity: O(1)
    package mutating func passOver(lines count: Int) {
        skippedLines += count
    }

    /// The task-table columns of every kernel generation (mm/oom_kill.c, `dump_tasks()`).
    static let knownColumns: Set<String> = [
        "uid", "tgid", "total_vm", "rss", "rss_anon", "rss_file", "rss_shmem", "nr_ptes", "nr_pmds",
        "pgtables_bytes", "swapents", "oom_score_adj", "oom_adj", "cpu", "name",
    ]

    /// Whether `message` is the start of a task-table header whose end a mail client or a blog
    /// wrapped onto the next line (`[  pid  ]   uid  tgid total_vm      rss rss_anon`).
    static func isWrappedTableHeader(_ message: Substring) -> Bool {
        guard message.first == "[", let close = message.firstIndex(of: "]"),
            message[message.index(after: message.startIndex)..<close].trimmingBlanks == "pid"
        else { return false }
        return message[close...].contains("uid") || message[close...].contains("total_vm")
    }

    private mutating func openIfNeeded(at lineNumber: Int) {
        guard current == nil else { return }
        if let kept = preamble, lineNumber - kept.line <= Self.preambleLines {
            current = kept.report
        } else {
            current = KernelOOMReport(firstLine: lineNumber)
        }
        preamble = nil
    }

    // MARK: - Lines

    /// `NAME invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0`.
    private static func invokingTask(name: Substring, rest: Substring) -> KernelOOMReport.InvokingTask {
        var task = KernelOOMReport.InvokingTask(name: String(name))
        for field in rest.split(separator: ",") {
            let pair = field.drop { $0 == " " }.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "gfp_mask": task.gfpMask = String(pair[1])
            case "order": task.order = Int(pair[1])
            case "oom_score_adj": task.oomScoreAdj = Int(pair[1])
            default: break
            }
        }
        return task
    }

    /// The column names of a task-table header (`[  pid  ]   uid  tgid total_vm      rss … name`).
    static func tableHeader(_ message: Substring) -> [String]? {
        guard message.first == "[", let close = message.firstIndex(of: "]"),
            message[message.index(after: message.startIndex)..<close].trimmingBlanks == "pid"
        else { return nil }
        let columns = message[message.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\t" })
            .map(String.init)
        guard columns.last == "name", columns.contains("rss") else { return nil }
        return columns
    }

    /// A task row: `[   5928]     0  5928    35001    34261 … name`.
    private mutating func readTask(_ message: Substring, line: Substring, lineNumber: Int) throws(InputError)
        -> RowResult
    {
        let columns = current!.columns
        guard let close = message.firstIndex(of: "]"),
            let pid = Int(message[message.index(after: message.startIndex)..<close].trimmingBlanks), pid >= 0
        else {
            return .unreadable(
                "expected a task row starting with [pid], found \"\(String(message).excerpt(limit: 60))\"")
        }
        guard current!.tasks.count < Self.maximumTasks else {
            let column = line.unicodeScalars.distance(from: line.startIndex, to: message.startIndex) + 1
            throw InputError(
                file: file, line: lineNumber, column: max(column, 1), path: "task table",
                message: "more than \(Self.maximumTasks) tasks in one report")
        }
        var task = KernelOOMReport.Task(pid: pid, residentPages: 0, name: "", line: lineNumber)
        var rest = message[message.index(after: close)...]
        for column in columns.dropLast() {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let token = rest.prefix { $0 != " " && $0 != "\t" }
            guard let value = Int64(token) else {
                let at = line.unicodeScalars.distance(from: line.startIndex, to: token.startIndex) + 1
                let expected =
                    "expected a number in column \(column) at column \(at) (the header reads \(columns.joined(separator: " ")))"
                if token.isEmpty { return .short(expected + ", found the end of the line") }
                return .unreadable(expected + ", found \"\(String(token).excerpt(limit: 40))\"")
            }
            rest = rest[token.endIndex...]
            Self.store(value, column: column, in: &task)
        }
        let name = rest.drop { $0 == " " || $0 == "\t" }
        guard !name.isEmpty else { return .short("expected the command name, found the end of the line") }
        guard name.utf8.count <= Self.maximumNameBytes else {
            return .unreadable("expected a command name of at most \(Self.maximumNameBytes) bytes")
        }
        task.name = String(name)
        current!.tasks.append(task)
        current!.lastLine = lineNumber
        return .read
    }

    private static func store(_ value: Int64, column: String, in task: inout KernelOOMReport.Task) {
        let small = Int(clamping: value)
        switch column {
        case "uid": task.uid = small
        case "tgid": task.tgid = small
        case "total_vm": task.totalVMPages = value
        case "rss": task.residentPages = value
        case "rss_anon": task.anonymousPages = value
        case "rss_file": task.filePages = value
        case "rss_shmem": task.sharedMemoryPages = value
        case "pgtables_bytes": task.pageTableBytes = value
        case "nr_ptes", "nr_pmds": task.pageTablePages = (task.pageTablePages ?? 0) &+ value
        case "swapents": task.swapEntries = value
        case "oom_score_adj": task.oomScoreAdj = small
        case "oom_adj": task.oomAdj = small
        default: break  // cpu, and columns of kernels not known here
        }
    }

    /// `… Killed process 5928 (big) total-vm:140004kB, anon-rss:130176kB, … oom_score_adj:0`.
    private static func victim(_ message: Substring, chosen: KernelOOMReport.Victim?, lineNumber: Int)
        -> KernelOOMReport.Victim
    {
        let start = message.firstRange(of: "Killed process ")!
        let (pid, name, rest) = processAndName(message[start.upperBound...])
        var victim = KernelOOMReport.Victim(
            pid: pid ?? chosen?.pid ?? -1, name: name, chosenPID: chosen?.chosenPID, chosenScore: chosen?.chosenScore,
            byMemoryCgroup: message.contains("Memory cgroup out of memory") || chosen?.byMemoryCgroup == true,
            line: lineNumber)
        for field in rest.split(whereSeparator: { $0 == " " || $0 == "," }) {
            let pair = field.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let number = Int64(pair[1].hasSuffix("kB") ? pair[1].dropLast(2) : pair[1])
            switch pair[0] {
            case "total-vm", "vsz": victim.totalVMKiB = number
            case "anon-rss": victim.anonymousKiB = number
            case "file-rss": victim.fileKiB = number
            case "shmem-rss": victim.sharedMemoryKiB = number
            case "pgtables": victim.pageTablesKiB = number
            case "oom_score_adj": victim.oomScoreAdj = number.map { Int(clamping: $0) }
            default: break
            }
        }
        return victim
    }

    /// `Out of memory: Kill process 1234 (name) score 900 or sacrifice child` (and `kill process
    /// … or a child` on 2.6): the chosen process, as a victim to be completed by `Killed process`.
    private static func chosen(_ message: Substring) -> KernelOOMReport.Victim? {
        guard let start = message.firstRange(of: "Kill process ") ?? message.firstRange(of: "kill process ") else {
            return nil
        }
        let (pid, name, rest) = processAndName(message[start.upperBound...])
        guard let pid else { return nil }
        let words = rest.split(separator: " ")
        let score = words.firstIndex(of: "score").flatMap { $0 + 1 < words.count ? Int64(words[$0 + 1]) : nil }
        return KernelOOMReport.Victim(
            pid: pid, name: name, chosenPID: pid, chosenScore: score,
            byMemoryCgroup: message.contains("Memory cgroup out of memory"), line: 0)
    }

    /// Whether a quoted-printable line ends in a soft break (`=`, not `==`) and may still grow.
    private static func runsOn<Text: StringProtocol>(_ line: Text) -> Bool {
        line.hasSuffix("=") && !line.hasSuffix("==") && line.utf8.count <= maximumJoinedLineBytes
    }

    /// `1234 (name) rest…`: the pid, the name (which may hold blanks and parentheses) and the rest.
    private static func processAndName(_ text: Substring) -> (Int?, String, Substring) {
        let digits = text.prefix { $0.isNumber }
        let pid = Int(digits)
        var rest = text[digits.endIndex...].drop { $0 == " " }
        // RHEL 6 prints `Killed process 1234, UID 500, (java) …`: the name follows shortly.
        if rest.first == ",", let open = rest.prefix(24).firstIndex(of: "(") { rest = rest[open...] }
        guard rest.first == "(" else { return (pid, "", rest) }
        rest = rest.dropFirst()
        // The name ends at the first ")" that ends the line or is followed by a field
        // ("total-vm:", "vsz:", "score", or a comma).
        var end = rest.lastIndex(of: ")") ?? rest.endIndex
        var index = rest.startIndex
        while let close = rest[index...].firstIndex(of: ")") {
            let after = rest[rest.index(after: close)...]
            // The fields are short words after one blank: looking at the next 32 characters only
            // keeps a line of many `)` linear.
            let word = after.prefix(32).drop { $0 == " " }.prefix { $0 != " " }
            if after.isEmpty || after.first == "," || word == "score" || word.contains(":") {
                end = close
                break
            }
            index = rest.index(after: close)
        }
        let name = String(rest[..<end])
        let remainder = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
        return (pid, name, remainder)
    }

    /// `constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/a,task_memcg=/a,task=x,pid=1,uid=0`.
    private static func readConstraint(_ text: Substring, into report: inout KernelOOMReport) {
        for field in text.split(separator: ",") {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "constraint": report.constraint = KernelOOMReport.Constraint(rawValue: String(pair[1]))
            case "oom_memcg": report.oomMemoryCgroup = String(pair[1])
            case "task_memcg": report.taskMemoryCgroup = String(pair[1])
            default: break
            }
        }
    }

    /// The lines of `dump_header()` between the call trace and the task table that carry totals.
    /// Returns whether `message` was one of them.
    private mutating func readTotals(_ message: Substring) -> Bool {
        if message.hasPrefix("CPU: ") || message.hasPrefix("Pid: ") {
            Self.readProcessLine(message, into: &current!)
            return true
        }
        if message.hasPrefix("memory: usage ") {
            let (usage, limit) = Self.usageAndLimit(message)
            current!.cgroupUsage = usage
            current!.cgroupLimit = limit
            return true
        }
        if message.hasPrefix("memory+swap: usage ") {
            current!.cgroupMemorySwapLimit = Self.usageAndLimit(message).1
            return true
        }
        if message.hasPrefix("swap: usage ") {
            current!.cgroupSwapLimit = Self.usageAndLimit(message).1
            return true
        }
        if message.hasPrefix("Task in "), let range = message.firstRange(of: " killed as a result of limit of ") {
            current!.taskMemoryCgroup = String(
                message[message.index(message.startIndex, offsetBy: 8)..<range.lowerBound])
            current!.oomMemoryCgroup = String(message[range.upperBound...])
            current!.constraint = .memoryCgroup
            current!.hasLegacyMemoryCgroupLine = true
            return true
        }
        if message == "Mem-Info:" {
            inMemoryInfo = true
            return true
        }
        if message.hasSuffix(" pages RAM"), let pages = Int64(message.dropLast(" pages RAM".count)) {
            current!.pagesRAM = pages
            inMemoryInfo = false
            return true
        }
        if message.hasSuffix(" pages reserved"), let pages = Int64(message.dropLast(" pages reserved".count)) {
            current!.pagesReserved = pages
            return true
        }
        if message.hasPrefix("Total swap = ") || message.hasPrefix("Free swap  = ") || message.hasPrefix("Free swap = ")
        {
            let value = message.split(separator: "=").last?.trimmingBlanks ?? ""
            let kib = Int64(value.hasSuffix("kB") ? value.dropLast(2) : value[...])
            if message.hasPrefix("Total") {
                current!.totalSwap = kib.map { Bytes($0 * 1024) }
            } else {
                current!.freeSwap = kib.map { Bytes($0 * 1024) }
            }
            return true
        }
        if inMemoryInfo {
            for word in message.split(separator: " ") where word.hasPrefix("free:") {
                if let pages = Int64(word.dropFirst(5)) { current!.freePages = pages }
            }
            return true
        }
        return false
    }

    /// `CPU: 1 UID: 0 PID: 5931 Comm: grower Not tainted 6.18.44-fc-v657 #1 …` or
    /// `Pid: 1234, comm: foo Not tainted 2.6.32-431.el6.x86_64 #1`.
    private static func readProcessLine(_ message: Substring, into report: inout KernelOOMReport) {
        let words = message.split(separator: " ")
        if let index = words.firstIndex(where: { $0 == "PID:" || $0 == "Pid:" }), index + 1 < words.count {
            let pid = Int(words[index + 1].filter(\.isNumber))
            if report.invokingTask != nil, report.invokingTask!.pid == nil { report.invokingTask!.pid = pid }
        }
        guard let tainted = words.firstIndex(where: { $0 == "tainted" || $0 == "Tainted:" }) else { return }
        report.kernelRelease = words[(tainted + 1)...].first { word in
            word.first?.isNumber == true && word.contains(".")
        }.map(String.init)
    }

    /// The usage and limit of `memory: usage 262144kB, limit 262144kB, failcnt 72`.
    private static func usageAndLimit(_ message: Substring) -> (Bytes?, Bytes?) {
        var usage: Bytes?
        var limit: Bytes?
        let words = message.split(whereSeparator: { $0 == " " || $0 == "," })
        for (index, word) in words.enumerated() where index + 1 < words.count {
            let value = words[index + 1]
            guard value.hasSuffix("kB"), let kib = Int64(value.dropLast(2)) else { continue }
            // The kernel prints an unlimited cgroup as PAGE_COUNTER_MAX pages in KiB: keep it,
            // clamped to the largest size the engine holds.
            let bytes = Bytes(min(kib, Bytes.maximum.value / 1024) * 1024)
            if word == "usage" { usage = bytes } else if word == "limit" { limit = bytes }
        }
        return (usage, limit)
    }
}

extension Substring {
    /// The text without blanks (spaces and tabs) at either end.
    var trimmingBlanks: Substring {
        let start = drop { $0 == " " || $0 == "\t" }
        var end = start
        while let last = end.last, last == " " || last == "\t" { end = end.dropLast() }
        return end
    }
}
