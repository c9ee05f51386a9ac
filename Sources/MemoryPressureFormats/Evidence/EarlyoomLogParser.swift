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
    /// The victim's badness and VmRSS (MiB) as the kill line gives them.
    public var badness: Int, residentMiB: Int64
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

    /// Reads line `lineNumber` (1-based) and returns the kill it states, if any.
    ///
    /// - Throws: `InputError` for a malformed process-list line or a limit passed.
    /// - Complexity: O(length of the line)
    public mutating func consume(_ line: Substring, lineNumber: Int) throws(InputError) -> EarlyoomKill? {
        var message = line
        if let range = message.prefix(200).firstRange(of: "]: "), message.prefix(200).contains("earlyoom[") {
            message = message[range.upperBound...]
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
            let numbers = Self.numbers(message)
            memoryTotal = numbers.first
            swapTotal = numbers.count > 1 ? numbers[1] : nil
        } else if message.hasPrefix("mem avail:") {
            available = Self.numbers(message).first
        } else if message.hasPrefix("sending SIG"), let kill = kill(message, lineNumber: lineNumber) {
            listClosed = true
            return kill
        }
        return nil
    }

    /// `sending SIGTERM to process 7372 uid 0 "hog-1g-adj500": badness 1028, VmRSS 1013 MiB`.
    private func kill(_ message: Substring, lineNumber: Int) -> EarlyoomKill? {
        let words = message.split(separator: " ")
        guard words.count >= 7, words[2] == "to", words[3] == "process", let pid = Int(words[4]),
            let open = message.firstIndex(of: "\""), let close = message.lastIndex(of: "\""), open < close
        else { return nil }
        let name = String(message[message.index(after: open)..<close])
        let numbers = Self.numbers(message[close...])
        return EarlyoomKill(
            signal: String(words[1]), pid: pid, uid: words.count > 6 ? Int(words[6]) ?? -1 : -1, name: name,
            badness: numbers.first.map { Int(clamping: $0) } ?? 0, residentMiB: numbers.count > 1 ? numbers[1] : 0,
            candidates: listClosed || !candidates.isEmpty ? candidates : [], memoryTotalMiB: memoryTotal,
            swapTotalMiB: swapTotal, availableMiB: available, line: lineNumber, preferPattern: preferPattern,
            avoidPattern: avoidPattern)
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
        var evidence = ReportEvidence(
            format: .earlyoom, source: source, location: "line \(line)",
            summary: "\(signal) to \(name)[\(pid)], badness \(badness), VmRSS \(residentMiB) MiB",
            snapshot: snapshot, pids: pids,
            killed: [.init(pid: pid, name: name, app: pids[id] != nil ? id : nil)])
        evidence.excluded = excluded
        var missing: [String] = []
        if candidates.isEmpty { missing.append("the process list (earlyoom prints it with -d only): nothing to rank") }
        if memoryTotalMiB == nil { missing.append("mem total (the log's start is cut off)") }
        missing.append("each process's swap and page tables (earlyoom's badness, the kernel's oom_score, counts them)")
        if memoryTotalMiB == nil {
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
        evidence.killerScoreName = "earlyoom's badness"
        return evidence
    }
}
