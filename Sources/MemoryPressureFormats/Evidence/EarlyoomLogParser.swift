import MemoryPressure

/// One kill in earlyoom's log, with the process list earlyoom printed while choosing it (`-d`).
public struct EarlyoomKill: Sendable, Hashable {
    /// One line of the `-d` process list: `pid  7370: badness 750 vm_rss 3085872 uid 0 oom_score_adj 0 "name"`.
    public struct Candidate: Sendable, Hashable {
        /// The process id.
        public var pid: Int
        /// earlyoom's badness: the kernel's `oom_score` plus its `--prefer`/`--avoid` adjustment.
        public var badness: Int
        /// `VmRSS`, in KiB.
        public var residentKiB: Int64
        /// The user id.
        public var uid: Int
        /// oom_score_adj.
        public var oomScoreAdj: Int
        /// The process name.
        public var name: String
    }

    /// The signal sent (`SIGTERM` or `SIGKILL`).
    public var signal: String
    /// The victim's pid, uid and name as the kill line gives them.
    public var pid: Int, uid: Int, name: String
    /// The victim's badness (or, from earlyoom 1.8, its `oom_score`) and VmRSS (MiB) as the kill
    /// line gives them; VmRSS is 0 where the line omits it.
    public var badness: Int, residentMiB: Int64
    /// What the kill line calls ``badness``: `badness` (1.3–1.7) or `oom_score` (1.8+).
    public var scoreName: String = "badness"
    /// The victim's oom_score_adj, where the kill line states it (1.8+).
    public var oomScoreAdj: Int? = nil
    /// The limits line before the kill (`low memory! at or below SIGTERM limits: mem 8.00%, swap 30.42%`).
    public var trigger: String? = nil
    /// Whether the log holds earlyoom's start-up lines (`mem total: …`), which state its
    /// `--prefer` and `--avoid` patterns when it has them.
    public var hasStartup: Bool = false
    /// The processes weighed before this kill (empty without `-d`).
    public var candidates: [Candidate]
    /// `mem total` and `swap total` of the log's start, in MiB.
    public var memoryTotalMiB: Int64?, swapTotalMiB: Int64?
    /// The last `mem avail: N of T MiB` before the kill, in MiB.
    public var availableMiB: Int64?
    /// The 1-based line of the kill line.
    public var line: Int
    /// The regular expressions earlyoom was started with (`--prefer`, `--avoid`), as its start-up
    /// lines state them; `nil` without such a line (none given, or the log's start cut off).
    public var preferPattern: String? = nil, avoidPattern: String? = nil
}

/// Reads earlyoom's log (its standard error, or the journal of `earlyoom.service`) a line at a
/// time: each `sending SIGTERM|SIGKILL to process …` line is a kill, with the `-d` process list
/// printed just before it. The start-up self-test (`sending 0 (no-op signal)`) is not a kill.
/// A journal prefix (`… earlyoom[123]: `) is dropped. Source: earlyoom 1.7, kill.c
/// (`find_largest_process()`, `kill_process()`) and main.c (`print_mem_stats()`).
public struct EarlyoomLogParser {
    /// The most processes one list may hold: 1,000,000.
    public static let maximumCandidates = 1_000_000

    /// The input's name in errors.
    public let file: String
    private var candidates: [EarlyoomKill.Candidate] = []
    private var listClosed = false
    private var memoryTotal: Int64?, swapTotal: Int64?, available: Int64?
    private var preferPattern: String?, avoidPattern: String?
    private var trigger: String?
    private var hasStartup = false
    /// The `low memory!` lines read, and how many of them were followed by a kill.
    public private(set) var lowMemoryLines = 0, killLines = 0
    /// The first and last lines that are earlyoom's.
    public private(set) var firstLine: Int?, lastLine: Int?

    /// Whether `bytes` (one line) is earlyoom's, for recognising a file: its journal or syslog
    /// prefix (`earlyoom[904]: `, `earlyoom: `) or one of its own messages.
    ///
    /// - Complexity: O(length of the line)
    public static func recognises(_ bytes: [UInt8]) -> Bool {
        if UTF8Search.contains(bytes, "earlyoom v") { return true }
        let prefixed = UTF8Search.contains(bytes, "earlyoom[") || UTF8Search.contains(bytes, "earlyoom: ")
        if prefixed
            && (UTF8Search.contains(bytes, "mem avail:") || UTF8Search.contains(bytes, "sending SIG")
                || UTF8Search.contains(bytes, "low memory!") || UTF8Search.contains(bytes, "mem total:"))
        {
            return true
        }
        // earlyoom's own standard output: its kill line and its memory line.
        return UTF8Search.contains(bytes, "sending SIGTERM to process ")
            || UTF8Search.contains(bytes, "sending SIGKILL to process ")
            // The 2019 and 1.1 kill lines: `killing process N "x" with signal 15`, `Killing process 'x' with signal 15`.
            || (UTF8Search.contains(bytes, "illing process ") && UTF8Search.contains(bytes, " with signal "))
            || UTF8Search.contains(bytes, "mem avail:") && UTF8Search.contains(bytes, "swap free:")
            || UTF8Search.contains(bytes, "low memory! at or below SIG")
    }

    /// A parser for the input named `file`.
    ///
    /// - Complexity: O(1)
    public init(file: String) {
        self.file = file
    }

    /// Every kill in `text`, in order.
    ///
    /// - Throws: `InputError` for a malformed process-list line or a limit passed.
    /// - Complexity: O(length of `text`)
    public static func kills(in text: String, file: String) throws(InputError) -> [EarlyoomKill] {
        var parser = EarlyoomLogParser(file: file)
        var kills: [EarlyoomKill] = []
        for (offset, line) in InputText.lines(text).enumerated() {
            if let kill = try parser.consume(line, lineNumber: offset + 1) { kills.append(kill) }
        }
        return kills
    }

    /// What a line of earlyoom's holds: one of these (a superset: the line is then read in full).
    static let markers = ByteMarkers([
        "earlyoom", "mem avail", "mem total", "sending SIG", "illing process", "ow memory", "ow Memory", "Preferring",
        "Will avoid", "selecting victim", "kill failed", "escalating", "badness", "vm_rss",
    ])

    /// What a line must hold for ``consume(_:lineNumber:)`` to read it: ``markers``, or a no-break
    /// space (made a blank before looking for them). A line without any changes nothing.
    package static let passOverMarkers = ByteMarkers(union: [markers, ByteMarkers(["\u{A0}"])])

    /// Reads line `lineNumber` (1-based) and returns the kill it states, if any.
    ///
    /// - Throws: `InputError` for a malformed process-list line or a limit passed.
    /// - Complexity: O(length of the line)
    public mutating func consume(_ line: Substring, lineNumber: Int) throws(InputError) -> EarlyoomKill? {
        var message = line.hasSuffix("\r") ? line.dropLast() : line
        // A web page's copy may hold no-break spaces (U+00A0) for the blanks.
        if message.utf8.contains(0xC2), message.contains("\u{A0}") {
            message = message.replacing("\u{A0}", with: " ")[...]
        }
        guard Self.markers.matches(message) else { return nil }
        // The journal's or syslog's prefix (`… earlyoom[904]: `, `… earlyoom: `), a quote's `> `
        // and indentation.
        let head = message.prefix(200)
        if let name = head.firstRange(of: "earlyoom["), let range = head[name.upperBound...].firstRange(of: "]: ") {
            message = message[range.upperBound...]
        } else if let range = head.firstRange(of: "earlyoom: ") {
            message = message[range.upperBound...]
        }
        message = message.drop { $0 == " " || $0 == "\t" || $0 == ">" }
        // Another prefix before the message (`Jun 12 06:39:16: `, a time of the user's own).
        if !Self.messageStarts.contains(where: { message.hasPrefix($0) }) {
            let head = message.prefix(48)
            if let start = Self.messageStarts.compactMap({ head.firstRange(of: ": " + $0)?.lowerBound }).min() {
                message = message[message.index(start, offsetBy: 2)...]
            }
        }
        if message.hasPrefix("Low Memory!") { message = "low memory!" + message.dropFirst(11) }
        let isEarlyoom =
            message.hasPrefix("pid ") || message.hasPrefix("mem ") || message.hasPrefix("sending SIG")
            || message.hasPrefix("low memory!") || message.hasPrefix("Preferring") || message.hasPrefix("Will avoid")
            || message.hasPrefix("earlyoom v") || message.hasPrefix("selecting victim")
            || message.hasPrefix("killing process ") || message.hasPrefix("Killing process ")
        if isEarlyoom {
            if firstLine == nil { firstLine = lineNumber }
            lastLine = lineNumber
        }
        if message.hasPrefix("pid ") {
            if listClosed {
                candidates.removeAll(keepingCapacity: true)
                listClosed = false
            }
            guard candidates.count < Self.maximumCandidates else {
                throw InputError(
                    file: file, line: lineNumber, column: 1, path: "process list",
                    message: "more than \(Self.maximumCandidates) processes in one list")
            }
            candidates.append(try candidate(message, lineNumber: lineNumber))
            return nil
        }
        if message.hasPrefix("selecting victim took") { listClosed = true }
        // main.c: "Preferring to kill process names that match regex '%s'" and "Will avoid
        // killing process names that match regex '%s'".
        if message.hasPrefix("Preferring to kill process names that match regex '") {
            preferPattern = Self.quoted(message)
        } else if message.hasPrefix("Will avoid killing process names that match regex '") {
            avoidPattern = Self.quoted(message)
        } else if message.hasPrefix("mem total:") {
            hasStartup = true
            let numbers = Self.numbers(message)
            memoryTotal = numbers.first
            swapTotal = numbers.count > 1 ? numbers[1] : nil
        } else if message.hasPrefix("mem avail:") {
            // `mem avail: 1200 of 17518 MiB ( 6.85%), swap free: 13345 of 47119 MiB (28.32%)` (1.3+);
            // the totals stand in for a cut-off `mem total:` line.
            available = Self.number(after: "mem avail:", in: message)
            if let swap = message.firstRange(of: "swap free:") {
                let memoryPart = message[..<swap.lowerBound]
                if memoryTotal == nil { memoryTotal = Self.number(after: " of ", in: memoryPart) }
                if swapTotal == nil { swapTotal = Self.number(after: " of ", in: message[swap.upperBound...]) }
            }
        } else if message.hasPrefix("low memory!") {
            lowMemoryLines += 1
            trigger = String(message)
        } else if message.hasPrefix("sending SIG") || message.hasPrefix("killing process ")
            || message.hasPrefix("Killing process "), let kill = kill(message, lineNumber: lineNumber)
        {
            listClosed = true
            killLines += 1
            trigger = nil
            return kill
        }
        return nil
    }

    /// The kill line of every earlyoom generation (kill.c, `kill_process()`):
    /// The log as evidence when it holds earlyoom's lines but no kill (an episode earlyoom got
    /// through without one, or its start-up alone): no victim, and what it did say.
    ///
    /// - Complexity: O(1)
    public func evidenceWithoutKill(source: String) -> ReportEvidence? {
        guard killLines == 0, let first = firstLine, let last = lastLine else { return nil }
        var evidence = ReportEvidence(
            format: .earlyoom, source: source, location: first == last ? "line \(first)" : "lines \(first)–\(last)",
            summary: lowMemoryLines > 0
                ? "earlyoom found memory low \(lowMemoryLines) time" + (lowMemoryLines == 1 ? "" : "s")
                    + " and sent no signal: no victim"
                : "earlyoom's log, no kill: no victim",
            snapshot: nil, pids: [:], killed: [])
        if let trigger { evidence.notes.append("last limits line: '\(trigger)'") }
        evidence.missing = ["a kill: earlyoom sent no signal in this log"]
        return evidence
    }

    /// `sending SIGTERM to process 7372 uid 0 "hog-1g-adj500": badness 1028, VmRSS 1013 MiB` (1.3–1.7),
    /// `… "bun": oom_score 712, oom_score_adj 0, VmRSS 4514 MiB, cmdline "bun test …"` (1.8+), and
    /// the older form without `uid`. The name is the first quoted text (a cmdline may follow).
    /// Older generations: `killing process 27541 "bash" with signal 15: badness 550, VmRSS 7609 MiB`
    /// (2019) and `Killing process 'bash' with signal 15, pid: 5874, badness: 538, VmRSS: 3160 MiB` (1.1).
    private func kill(_ message: Substring, lineNumber: Int) -> EarlyoomKill? {
        if message.hasPrefix("Killing process '") { return oldestKill(message, lineNumber: lineNumber) }
        var message = message
        let words = message.split(separator: " ")
        var signal = words.count > 1 ? String(words[1]) : ""
        if words.count >= 4, words[0] == "killing", words[1] == "process", let pid = Int(words[2]) {
            // Rewritten as the later form, which the rest reads.
            signal = Self.signalName(Self.number(after: "with signal ", in: message))
            message = "sending \(signal) to process \(pid) " + message.dropFirst("killing process \(pid) ".count)
        }
        let parts = message.split(separator: " ")
        guard parts.count >= 5, parts[2] == "to", parts[3] == "process", let pid = Int(parts[4]),
            let open = message.firstIndex(of: "\"")
        else { return nil }
        let afterOpen = message[message.index(after: open)...]
        guard let close = afterOpen.firstRange(of: "\": ")?.lowerBound ?? afterOpen.lastIndex(of: "\"") else {
            return nil
        }
        let name = String(afterOpen[..<close])
        let tail = afterOpen[close...]
        let uid = Self.number(after: " uid ", in: message[..<open]).map { Int(clamping: $0) } ?? -1
        let oomScore = Self.number(after: "oom_score ", in: tail)
        var kill = EarlyoomKill(
            signal: signal, pid: pid, uid: uid, name: name,
            badness: (Self.number(after: "badness ", in: tail) ?? oomScore).map { Int(clamping: $0) } ?? 0,
            residentMiB: Self.number(after: "VmRSS ", in: tail) ?? 0,
            candidates: listClosed || !candidates.isEmpty ? candidates : [], memoryTotalMiB: memoryTotal,
            swapTotalMiB: swapTotal, availableMiB: available, line: lineNumber, preferPattern: preferPattern,
            avoidPattern: avoidPattern)
        if oomScore != nil && !tail.contains("badness ") { kill.scoreName = "oom_score" }
        kill.oomScoreAdj = Self.number(after: "oom_score_adj ", in: tail).map { Int(clamping: $0) }
        kill.trigger = trigger
        kill.hasStartup = hasStartup
        return kill
    }

    /// The messages earlyoom starts its lines with, to find one behind a prefix.
    static let messageStarts = [
        "mem avail:", "mem total:", "sending SIG", "low memory!", "Low Memory!", "killing process ",
        "Killing process ", "process ", "kill failed", "escalating", "pid ", "Preferring to kill",
        "Will avoid killing", "selecting victim", "earlyoom v",
    ]

    /// `SIGTERM` for 15, `SIGKILL` for 9, else `signal N`.
    static func signalName(_ number: Int64?) -> String {
        switch number {
        case 15: "SIGTERM"
        case 9: "SIGKILL"
        case let other?: "signal \(other)"
        case nil: "a signal"
        }
    }

    /// earlyoom 1.1's `Killing process 'bash' with signal 15, pid: 5874, badness: 538, VmRSS: 3160 MiB`.
    private func oldestKill(_ message: Substring, lineNumber: Int) -> EarlyoomKill? {
        let afterOpen = message.dropFirst("Killing process '".count)
        guard let close = afterOpen.firstRange(of: "' with")?.lowerBound ?? afterOpen.lastIndex(of: "'"),
            let pid = Self.number(after: "pid: ", in: afterOpen[close...])
        else { return nil }
        let tail = afterOpen[close...]
        var kill = EarlyoomKill(
            signal: Self.signalName(Self.number(after: "with signal ", in: tail)), pid: Int(clamping: pid), uid: -1,
            name: String(afterOpen[..<close]),
            badness: Self.number(after: "badness: ", in: tail).map { Int(clamping: $0) } ?? 0,
            residentMiB: Self.number(after: "VmRSS: ", in: tail) ?? 0,
            candidates: listClosed || !candidates.isEmpty ? candidates : [], memoryTotalMiB: memoryTotal,
            swapTotalMiB: swapTotal, availableMiB: available, line: lineNumber, preferPattern: preferPattern,
            avoidPattern: avoidPattern)
        kill.trigger = trigger
        kill.hasStartup = hasStartup
        return kill
    }

    /// The whole number after `key` in `text` (spaces skipped; a `-` makes it negative).
    private static func number(after key: String, in text: Substring) -> Int64? {
        guard let range = text.firstRange(of: key) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " }
        let digits = rest.prefix { $0.isNumber || $0 == "-" }
        return Int64(digits)
    }

    /// The text between the first and the last `'` of `message`.
    private static func quoted(_ message: Substring) -> String? {
        guard let open = message.firstIndex(of: "'"), let close = message.lastIndex(of: "'"), open < close else {
            return nil
        }
        return String(message[message.index(after: open)..<close])
    }

    /// `pid  7370: badness 750 vm_rss 3085872 uid    0 oom_score_adj    0 "hog-3g-adj0" <--- new victim`.
    private func candidate(_ message: Substring, lineNumber: Int) throws(InputError) -> EarlyoomKill.Candidate {
        guard let open = message.firstIndex(of: "\""), let close = message.lastIndex(of: "\""), open < close else {
            throw InputError(
                file: file, line: lineNumber, column: 1, path: "process list",
                message: "expected pid N: badness B vm_rss R uid U oom_score_adj A \"name\", found no quoted name")
        }
        let words = message[..<open].split(whereSeparator: { $0 == " " || $0 == ":" })
        var fields: [Substring: Int64] = [:]
        var index = 0
        while index + 1 < words.count {
            if let value = Int64(words[index + 1]) { fields[words[index]] = value }
            index += 2
        }
        guard let pid = fields["pid"], let badness = fields["badness"], let rss = fields["vm_rss"] else {
            throw InputError(
                file: file, line: lineNumber, column: 1, path: "process list",
                message: "expected pid N: badness B vm_rss R uid U oom_score_adj A \"name\"")
        }
        return EarlyoomKill.Candidate(
            pid: Int(clamping: pid), badness: Int(clamping: badness), residentKiB: rss,
            uid: Int(clamping: fields["uid"] ?? -1), oomScoreAdj: Int(clamping: fields["oom_score_adj"] ?? 0),
            name: String(message[message.index(after: open)..<close]))
    }

    /// The integers of `text`, in order (a `-` before digits makes one negative).
    private static func numbers(_ text: Substring) -> [Int64] {
        text.split(whereSeparator: { !$0.isNumber && $0 != "-" }).compactMap { Int64($0) }
    }
}

extension EarlyoomKill {
    /// The kill as evidence: the processes of the list before it (those earlyoom could weigh:
    /// VmRSS above 0, pid above 1) with their VmRSS and oom_score_adj, on a device of the log's
    /// `mem total`, with memory outside them unattributed so that free memory is the log's
    /// `mem avail`.
    ///
    /// - Complexity: O(candidates)
    public func evidence(source: String) -> ReportEvidence {
        var apps: [ResidentApp] = []
        var pids: [AppID: Int] = [:]
        var scores: [AppID: Int64] = [:]
        var excluded: [(app: String, reason: String)] = []
        for candidate in candidates {
            let id = AppID("\(candidate.name)[\(candidate.pid)]")
            guard candidate.pid > 1, candidate.residentKiB > 0 else {
                if candidate.pid == 1 { excluded.append((id.rawValue, "pid 1: earlyoom never kills it")) }
                continue
            }
            guard pids[id] == nil else { continue }
            apps.append(
                ResidentApp(
                    id: id, state: .background,
                    footprint: Bytes(min(candidate.residentKiB, Bytes.maximum.value >> 10) << 10),
                    oomScoreAdj: candidate.oomScoreAdj))
            pids[id] = candidate.pid
            scores[id] = Int64(candidate.badness)
        }
        let memory = Bytes(min(max(memoryTotalMiB ?? 0, 0), Bytes.maximum.value >> 20) << 20)
        let resident = apps.reduce(Int64(0)) { $0 &+ $1.footprint.value }
        let free = Bytes(min(max(availableMiB ?? 0, 0), Bytes.maximum.value >> 20) << 20)
        let unattributed = Bytes(max(memory.value - free.value - resident, 0))
        let swap = Bytes(min(max(swapTotalMiB ?? 0, 0), Bytes.maximum.value >> 20) << 20)
        let snapshot =
            apps.isEmpty
            ? nil : Snapshot(device: Device(memory: memory, swap: swap), apps: apps, unattributed: unattributed)
        let id = AppID("\(name)[\(pid)]")
        var victim = ReportEvidence.KilledProcess(pid: pid, name: name, app: pids[id] != nil ? id : nil)
        victim.uid = uid >= 0 ? uid : nil
        victim.score = Int64(badness)
        victim.oomScoreAdj = oomScoreAdj
        victim.freed = residentMiB > 0 ? Bytes(min(residentMiB, Bytes.maximum.value >> 20) << 20) : nil
        victim.reason = trigger
        victim.line = line
        var evidence = ReportEvidence(
            format: .earlyoom, source: source, location: "line \(line)",
            summary: "\(signal) to \(name)[\(pid)], \(scoreName) \(badness)"
                + (residentMiB > 0 ? ", VmRSS \(residentMiB) MiB" : ""),
            snapshot: snapshot, pids: pids, killed: [victim])
        // kill.c, find_largest_process(): the highest badness (the kernel's oom_score, plus
        // --prefer's 300 or minus --avoid's 300), ties to the larger VmRSS.
        evidence.notes.append(
            "earlyoom's rule (kill.c, find_largest_process): the process with the highest \(scoreName) "
                + "(the kernel's oom_score, ±300 for --prefer/--avoid), ties to the larger VmRSS; it chose "
                + "\(name)[\(pid)] at \(scoreName) \(badness)" + (trigger.map { " after '\($0)'" } ?? ""))
        evidence.excluded = excluded
        evidence.machineMemory = memoryTotalMiB.map { _ in memory }
        evidence.machineSwap = swapTotalMiB.map { _ in swap }
        var missing: [String] = []
        if candidates.isEmpty { missing.append("the process list (earlyoom prints it with -d only): nothing to rank") }
        if memoryTotalMiB == nil { missing.append("mem total (the log's start is cut off)") }
        missing.append("each process's swap and page tables (earlyoom's badness, the kernel's oom_score, counts them)")
        if !hasStartup {
            missing.append(
                "earlyoom's --prefer and --avoid patterns (its start-up lines, which state them, are cut off)")
        }
        // kill.c: OOM_SCORE_PREFER and OOM_SCORE_AVOID.
        for (pattern, score, option) in [(preferPattern, 300, "--prefer"), (avoidPattern, -300, "--avoid")] {
            guard let pattern else { continue }
            do throws(NamePattern.SyntaxError) {
                _ = try NamePattern(pattern)
                evidence.preferences.append(NamePreference(pattern: pattern, score: score))
                let signed = score > 0 ? "+\(score)" : "\(score)"
                evidence.notes.append(
                    "earlyoom ran with \(option) '\(pattern)' (\(signed) to the badness of the processes it matches): "
                        + "added to each policy's name preferences")
            } catch {
                missing.append("the processes earlyoom's \(option) '\(pattern)' matches: \(error)")
            }
        }
        evidence.missing = missing
        evidence.killerScores = scores
        evidence.killerScoreName = scoreName == "badness" ? "earlyoom's badness" : "the kernel's oom_score"
        return evidence
    }
}
