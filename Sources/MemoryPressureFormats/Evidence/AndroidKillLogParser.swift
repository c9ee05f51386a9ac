import MemoryPressure

/// Reads an Android log a line at a time, as people paste it, and keeps what it says of kills
/// (``AndroidKillLog``). It is forgiving, as `logcat` and `less` are: it looks for each message
/// wherever it stands in a line (after any logcat, dmesg, syslog or journal prefix), and every
/// line it cannot place is counted, never a reason to refuse the log.
///
/// The messages, by their sources:
/// - lmkd (system/memory/lmkd `lmkd.cpp`, `kill_one_process()`): `Kill '%s' (%d), uid %d,
///   oom_score_adj %d to free %ldkB rss, %ldkB swap; reason: %s` (Android 11+), `Kill '%s' (%d),
///   uid %d, oom_adj %d to free %ldkB` (9–10), `Killing '%s' (%d), uid %d, adj %d\n   to free
///   %ldkB because cache %ldkB is below limit %ldkB for oom_adj %d\n   Free memory is %ldkB %s
///   reserved` (8.1); its `killinfo` event (`event.logtags` 10195: `[pid,uid,oom_score_adj,
///   min_oom_score,rss_kb,kill_reason,…]`).
/// - The kernel's staging driver (drivers/staging/android/lowmemorykiller.c, `lowmem_scan()`):
///   `Killing '%s' (%d), adj %hd,\n   to free %ldkB on behalf of '%s' (%d) because\n   cache
///   %ldkB is below limit %ldkB for oom_score_adj %hd\n   Free memory is %ldkB above reserved`
///   (3.10+; in `dmesg` each line gets its own `<6>` prefix, and some loggers write the line
///   breaks as a literal `\x0a`), and the 3.0-era `send sigkill to %d (%s), adj %d, size %d`
///   (size in pages).
/// - ActivityManager (frameworks/base `EventLogTags.logtags`): `am_kill (User|1|5),(PID|1|5),
///   (Process Name|3),(OomAdj|1|5),(Reason|3)` (Android 12+ adds `(Rss|2|2)`), `am_low_memory
///   (Num Processes|1|1)`, `am_proc_died`; Zygote's `Process %d exited due to signal 9`.
/// - `dumpsys activity processes` and `dumpsys activity lru`: `Proc #25: cch+6 B/ /CE trm: 0
///   4951:com.example/u0a12 (cch-empty)`, `#45: cch+75 CEM ---- 16015:com.example/u0a94`.
public struct AndroidKillLogParser {
    /// Kills of one low-memory killer at most this many seconds apart are one burst, checked
    /// together against its rule. lmkd re-checks pressure after every kill and waits for the
    /// victim to die (`kill_timeout_ms`, 100 ms by default on Android 11+), so its bursts are
    /// well under a second apart; 2 s keeps separate pressure events apart.
    public static let burstSeconds = 2.0

    /// The most kills or listed processes one log may hold: 1,000,000.
    public static let maximumRecords = 1_000_000

    /// The log read so far.
    public private(set) var log = AndroidKillLog()
    /// The kill whose continuation lines (`to free …`, `cache … is below limit …`) may follow.
    private var pending: Int?
    /// The tag of a `logcat -v long` header (`[ 10-24 14:24:06.590   710:  710 I/lowmemorykiller ]`),
    /// for the message on the line after it, with that header's time.
    private var longHeader: (tag: Substring, time: String?, seconds: Double?)?

    /// A parser with nothing read.
    ///
    /// - Complexity: O(1)
    public init() {}

    /// Whether `line` says something this parser reads (for recognising a file).
    ///
    /// - Complexity: O(length of `line`)
    public static func recognises(_ bytes: [UInt8]) -> Bool {
        // lmkd's and the driver's tag (a `logcat -v long` header holds it alone), and the
        // 3.0-era driver's `send sigkill to PID (NAME), adj A, size N`.
        if UTF8Search.contains(bytes, "lowmemorykiller") { return true }
        if UTF8Search.contains(bytes, "send sigkill to ") && UTF8Search.contains(bytes, ", adj ") { return true }
        if UTF8Search.contains(bytes, "ActivityManager") && UTF8Search.contains(bytes, "Killing ")
            && UTF8Search.contains(bytes, " (adj ")
        {
            return true
        }
        if UTF8Search.contains(bytes, "am_kill") || UTF8Search.contains(bytes, "killinfo") {
            return UTF8Search.contains(bytes, "[")
        }
        return UTF8Search.contains(bytes, "am_low_memory") || UTF8Search.contains(bytes, "Process LRU list (sorted by")
            || UTF8Search.contains(bytes, "lmkd")
                && (UTF8Search.contains(bytes, "Kill '") || UTF8Search.contains(bytes, "Reclaim '"))
    }

    /// Reads line `lineNumber` (1-based).
    ///
    /// - Throws: `InputError` when the log holds more than ``maximumRecords`` kills or listed
    ///   processes (a bound on memory); a line it cannot read is counted, not thrown.
    /// - Complexity: O(length of the line)
    public mutating func consume(_ line: Substring, lineNumber: Int, file: String) throws(InputError) {
        guard log.kills.count + log.listed.count < Self.maximumRecords else {
            throw InputError(
                file: file, line: lineNumber, column: 1, path: "",
                message: "more than \(Self.maximumRecords) kills and listed processes in one log")
        }
        // A web page's copy may hold no-break spaces (U+00A0) for the blanks.
        var line = line
        if line.utf8.contains(0xC2), line.contains("\u{A0}") { line = line.replacing("\u{A0}", with: " ")[...] }
        // A line that can say nothing of a kill is passed over by its bytes alone (it ends a
        // multi-line kill or a `-v long` header's message).
        guard Self.markers.matches(line) || longHeader != nil else {
            pending = nil
            log.otherLines += 1
            return
        }
        // Some loggers write a message's line breaks as a literal `\x0a`.
        if Self.escapedLineBreak.matches(line) {
            for part in line.split(separator: "\\x0a", omittingEmptySubsequences: false) {
                read(part, lineNumber: lineNumber)
            }
        } else {
            read(line, lineNumber: lineNumber)
        }
    }

    /// What a line must hold to matter while ``mayPassOver`` holds: ``markers``, or a no-break space
    /// (made a blank before looking for them).
    package static let passOverMarkers = ByteMarkers(union: [markers, ByteMarkers(["\u{A0}"])])

    /// Whether a line without any of ``passOverMarkers`` would only be counted among the other
    /// lines (no `-v long` header waits for its message, and the log is within its limit).
    package var mayPassOver: Bool {
        longHeader == nil && log.kills.count + log.listed.count < Self.maximumRecords
    }

    /// Counts `count` lines passed over while ``mayPassOver`` held, as reading them would: each
    /// ends a multi-line kill and is another line.
    ///
    /// - Complexity: O(1)
    package mutating func passOver(lines count: Int) {
        guard count > 0 else { return }
        pending = nil
        log.otherLines += count
    }

    /// The log, with what is still pending closed.
    ///
    /// - Complexity: O(1)
    public mutating func finish() -> AndroidKillLog {
        pending = nil
        return log
    }

    // MARK: - One line

    /// What a line this parser reads holds: one of these (a superset: the line is then read in full).
    static let markers = ByteMarkers([
        "Kill '", "Killing ", "killinfo", "am_kill", "sigkill", "Reclaim '", "am_low_memory", "am_proc_died", "#",
        "has died", "signal 9", "lowmemorykiller", "lmkd", "to free", "below limit", "Free memory",
    ])

    /// A literal `\x0a` in a line.
    static let escapedLineBreak = ByteMarkers(["\\x0a"])

    private mutating func read(_ raw: Substring, lineNumber: Int) {
        let (text, dmesgSeconds) = Self.stripped(raw)
        let (time, seconds) = Self.logcatTime(text) ?? (nil, dmesgSeconds)
        if let header = Self.longHeader(text) {
            longHeader = header
            pending = nil
            return
        }
        let header = longHeader
        longHeader = nil
        let time0 = time ?? header?.time, seconds0 = seconds ?? header?.seconds
        if let index = pending, continues(index, with: text) {
            keep(lineNumber)
            return
        }
        pending = nil
        if let kill = Self.lmkdOrDriverKill(text, headerTag: header?.tag) {
            add(kill, time: time0, seconds: seconds0, line: lineNumber)
            if kill.freedKiB == nil || kill.reason == nil { pending = log.kills.count - 1 }
        } else if let kill = Self.activityManagerKilling(text) {
            add(kill, time: time0, seconds: seconds0, line: lineNumber)
        } else if let kill = Self.sendSigkill(text) {
            add(kill, time: time0, seconds: seconds0, line: lineNumber)
        } else if let fields = Self.eventFields(text, tag: "am_kill"), let kill = Self.activityManagerKill(fields) {
            add(kill, time: time0, seconds: seconds0, line: lineNumber)
        } else if let fields = Self.eventFields(text, tag: "killinfo"), let kill = Self.killinfo(fields) {
            add(kill, time: time0, seconds: seconds0, line: lineNumber)
        } else if let range = text.firstRange(of: "am_low_memory"),
            let count = Int(text[range.upperBound...].drop { $0 == " " || $0 == ":" }.prefix { $0.isNumber })
        {
            log.lowMemoryEvents.append((count, lineNumber))
            keep(lineNumber)
        } else if let fields = Self.eventFields(text, tag: "am_proc_died"), fields.count >= 3,
            let pid = Int(fields[1].trimmingSpaces)
        {
            log.confirmedDeaths.insert(pid)
            keep(lineNumber)
        } else if let range = text.firstRange(of: "Process "), text.contains("exited due to signal 9"),
            let pid = Int(text[range.upperBound...].prefix { $0.isNumber })
        {
            log.confirmedDeaths.insert(pid)
            keep(lineNumber)
        } else if let range = text.firstRange(of: " (pid "), text[range.upperBound...].contains(") has died"),
            let pid = Int(text[range.upperBound...].prefix { $0.isNumber })
        {
            // ActivityManager: `Process NAME (pid N) has died: cch+6 CEM`.
            log.confirmedDeaths.insert(pid)
            keep(lineNumber)
        } else if let listed = Self.listedProcess(text, line: lineNumber) {
            log.listed.append(listed)
            keep(lineNumber)
        } else {
            log.otherLines += 1
        }
    }

    private mutating func keep(_ line: Int) {
        if log.firstLine == nil { log.firstLine = line }
        log.lastLine = line
    }

    /// Adds `kill`, or merges it into the same kill lmkd stated on another line just before (lmkd
    /// writes both a `Kill '…'` line and a `killinfo` event for one kill).
    private mutating func add(_ kill: AndroidKillLog.Kill, time: String?, seconds: Double?, line: Int) {
        var kill = kill
        kill.time = time
        kill.seconds = seconds
        kill.line = line
        keep(line)
        if kill.killer == .lmkd,
            let index = log.kills.indices.suffix(4).last(where: {
                log.kills[$0].killer == .lmkd && log.kills[$0].pid == kill.pid
            })
        {
            var merged = log.kills[index]
            if merged.name.isEmpty { merged.name = kill.name }
            merged.uid = merged.uid ?? kill.uid
            merged.adj = merged.adj ?? kill.adj
            merged.freedKiB = merged.freedKiB ?? kill.freedKiB
            // lmkd's own words win over killinfo's reason code.
            if merged.reason == nil || merged.reason!.hasPrefix("kill_reason "), let reason = kill.reason,
                !reason.hasPrefix("kill_reason ")
            {
                merged.reason = reason
            }
            log.kills[index] = merged
            return
        }
        log.kills.append(kill)
    }

    /// Whether `text` continues kill `index` (the multi-line forms), filling in what it states.
    private mutating func continues(_ index: Int, with text: Substring) -> Bool {
        guard !text.contains("Kill '"), !text.contains("Killing '") else { return false }
        var kill = log.kills[index]
        var matched = false
        if let range = text.firstRange(of: "to free "), kill.freedKiB == nil {
            kill.freedKiB = Self.kib(text[range.upperBound...])
            matched = true
            if let because = text.firstRange(of: "because "), kill.reason == nil, !text[because.upperBound...].isEmpty {
                kill.reason = String(text[because.upperBound...].trimmingSpaces)
            }
        } else if let range = text.firstRange(of: "cache "), text.contains("below limit") {
            kill.reason = String(text[range.lowerBound...].trimmingSpaces)
            matched = true
        } else if text.contains("Free memory is") {
            matched = true
        }
        if matched { log.kills[index] = kill }
        return matched
    }

    // MARK: - Messages

    /// lmkd's `Kill '…'` and `Killing '…'` lines and the driver's `Killing '…'`.
    static func lmkdOrDriverKill(_ text: Substring, headerTag: Substring?) -> AndroidKillLog.Kill? {
        // Samsung's lmkd says `Reclaim '…'` for a kill (its own verb; the line is lmkd's otherwise).
        guard
            let start = text.firstRange(of: "Kill '") ?? text.firstRange(of: "Killing '")
                ?? text.firstRange(of: "Reclaim '").flatMap({ range in
                    text[..<range.lowerBound].contains("lmkd") || text[..<range.lowerBound].contains("lowmemorykiller")
                        ? range : nil
                })
        else { return nil }
        let before = text[..<start.lowerBound]
        let tagged =
            before.contains("lowmemorykiller") || before.contains("lmkd")
            || headerTag.map { $0.contains("lowmemorykiller") || $0.contains("lmkd") } ?? false
        let message = text[start.lowerBound...]
        // An untagged line (`-v raw`, a quote of the message alone) must still read as a kill line.
        guard tagged || before.allSatisfy({ $0 == " " }) || message.contains("adj ") else { return nil }
        guard let open = message.firstIndex(of: "'") else { return nil }
        let afterOpen = message[message.index(after: open)...]
        guard let close = afterOpen.firstRange(of: "' (")?.lowerBound else { return nil }
        let name = String(afterOpen[..<close])
        let rest = afterOpen[close...].dropFirst(3)
        guard let pid = Int(rest.prefix { $0.isNumber }) else { return nil }
        let isLMKD = rest.contains("uid ") || headerTag?.contains("lmkd") == true || before.contains("lmkd")
        var kill = AndroidKillLog.Kill(
            killer: isLMKD ? .lmkd : .kernelDriver, name: name, pid: pid, line: 0)
        kill.uid = number(after: "uid ", in: rest).map { Int(clamping: $0) }
        kill.adj =
            (number(after: "oom_score_adj ", in: rest) ?? number(after: "oom_adj ", in: rest)
            ?? number(after: "adj ", in: rest)).map { Int(clamping: $0) }
        if let range = rest.firstRange(of: "to free ") {
            kill.freedKiB = kib(rest[range.upperBound...])
            if let swap = rest.firstRange(of: "kB rss, ") { kill.swapKiB = kib(rest[swap.upperBound...]) }
        }
        if let range = rest.firstRange(of: "reason: ") {
            kill.reason = String(rest[range.upperBound...].trimmingSpaces)
        } else if let range = rest.firstRange(of: "because "), !rest[range.upperBound...].trimmingSpaces.isEmpty {
            kill.reason = String(rest[range.upperBound...].trimmingSpaces)
        }
        return kill
    }

    /// ActivityManager's main-log line (`ProcessRecord.killLocked()`): `ActivityManager: Killing
    /// 7138:com.example/u0a269 (adj 905): remove task`.
    static func activityManagerKilling(_ text: Substring) -> AndroidKillLog.Kill? {
        guard let tag = text.firstRange(of: "ActivityManager"),
            let range = text[tag.upperBound...].firstRange(of: "Killing ")
        else { return nil }
        let rest = text[range.upperBound...]
        guard let colon = rest.firstIndex(of: ":"), let pid = Int(rest[..<colon]),
            let adjRange = rest.firstRange(of: " (adj ")
        else { return nil }
        let process = rest[rest.index(after: colon)..<adjRange.lowerBound]
        let name = process.lastIndex(of: "/").map { process[..<$0] } ?? process
        guard !name.isEmpty else { return nil }
        var kill = AndroidKillLog.Kill(killer: .activityManager, name: String(name), pid: pid, line: 0)
        kill.adj = number(after: "(adj ", in: rest).map { Int(clamping: $0) }
        if let reason = rest[adjRange.upperBound...].firstRange(of: "): ") {
            kill.reason = String(rest[reason.upperBound...].trimmingSpaces)
        }
        return kill
    }

    /// The 3.0-era driver's `send sigkill to PID (NAME), adj A, size PAGES`.
    static func sendSigkill(_ text: Substring) -> AndroidKillLog.Kill? {
        guard let range = text.firstRange(of: "send sigkill to ") else { return nil }
        let rest = text[range.upperBound...]
        guard let pid = Int(rest.prefix { $0.isNumber }), let open = rest.firstIndex(of: "("),
            let close = rest.lastIndex(of: ")"), open < close
        else { return nil }
        var kill = AndroidKillLog.Kill(
            killer: .kernelDriver, name: String(rest[rest.index(after: open)..<close]), pid: pid, line: 0)
        kill.adj = number(after: "adj ", in: rest[close...]).map { Int(clamping: $0) }
        // lowmemorykiller.c of that era: size is get_mm_rss(), in pages (4 KiB on ARM).
        kill.freedKiB = number(after: "size ", in: rest[close...]).map {
            $0.multipliedReportingOverflow(by: 4).partialValue
        }
        kill.reason = "size in pages, taken as 4 KiB"
        return kill
    }

    /// `am_kill`'s fields: `[user,pid,name,adj,reason]` and, from Android 12, `,rss`.
    static func activityManagerKill(_ fields: [Substring]) -> AndroidKillLog.Kill? {
        guard fields.count >= 4, let pid = Int(fields[1].trimmingSpaces) else { return nil }
        var kill = AndroidKillLog.Kill(
            killer: .activityManager, name: String(fields[2].trimmingSpaces), pid: pid, line: 0)
        kill.adj = Int(fields[3].trimmingSpaces)
        if fields.count >= 5 {
            var reason = fields[4...].joined(separator: ",")[...]
            // A trailing number after the reason is the rss (KiB) of Android 12+.
            if fields.count >= 6, let comma = reason.lastIndex(of: ","),
                let rss = Int64(reason[reason.index(after: comma)...].trimmingSpaces)
            {
                kill.freedKiB = rss
                reason = reason[..<comma]
            }
            kill.reason = String(reason.trimmingSpaces)
        }
        return kill
    }

    /// `killinfo`'s fields: `[pid,uid,oom_score_adj,min_oom_score,rss_kb,kill_reason,…]`, the task
    /// name last in newer lmkd.
    static func killinfo(_ fields: [Substring]) -> AndroidKillLog.Kill? {
        guard fields.count >= 5, let pid = Int(fields[0].trimmingSpaces) else { return nil }
        let last = String(fields[fields.count - 1].trimmingSpaces)
        let name = fields.count > 6 && Int(last) == nil && !last.isEmpty ? last : ""
        var kill = AndroidKillLog.Kill(killer: .lmkd, name: name, pid: pid, line: 0)
        kill.uid = Int(fields[1].trimmingSpaces)
        kill.adj = Int(fields[2].trimmingSpaces)
        kill.freedKiB = Int64(fields[4].trimmingSpaces)
        if fields.count > 5, let code = Int(fields[5].trimmingSpaces) { kill.reason = "kill_reason \(code)" }
        return kill
    }

    /// A process of an LRU list: `Proc #25: cch+6 B/ /CE trm: 0 4951:com.example/u0a12 (…)` or
    /// `#45: cch+75 CEM ---- 16015:com.example/u0a94`.
    static func listedProcess(_ text: Substring, line: Int) -> AndroidKillLog.ListedProcess? {
        guard let hash = text.firstIndex(of: "#") else { return nil }
        let head = text[..<hash].trimmingSpaces
        guard head.isEmpty || head == "Proc" || head == "PERS" else { return nil }
        let afterHash = text[text.index(after: hash)...].drop { $0 == " " }
        let number = afterHash.prefix { $0.isNumber }
        guard !number.isEmpty, afterHash.dropFirst(number.count).first == ":" else { return nil }
        let words = afterHash.dropFirst(number.count + 1).split(separator: " ")
        guard let adjClass = words.first else { return nil }
        for word in words.dropFirst() {
            guard let colon = word.firstIndex(of: ":"), let pid = Int(word[..<colon]),
                let slash = word.lastIndex(of: "/"), slash > colon
            else { continue }
            let name = word[word.index(after: colon)..<slash]
            guard !name.isEmpty else { return nil }
            return .init(adjClass: String(adjClass), name: String(name), pid: pid, line: line)
        }
        return nil
    }

    // MARK: - Pieces

    /// The line without a carriage return, `> ` quote marks, indentation, a `<6>` priority and a
    /// `[ 123.456]` dmesg time (returned in seconds).
    static func stripped(_ raw: Substring) -> (Substring, Double?) {
        var text = raw.hasSuffix("\r") ? raw.dropLast() : raw
        text = text.drop { $0 == " " || $0 == "\t" || $0 == ">" }
        var seconds: Double?
        for _ in 0..<2 {
            if text.first == "<", let close = text.prefix(6).firstIndex(of: ">"),
                text[text.index(after: text.startIndex)..<close].allSatisfy(\.isNumber)
            {
                text = text[text.index(after: close)...]
            }
            if text.first == "[", let close = text.prefix(24).firstIndex(of: "]") {
                let inside = text[text.index(after: text.startIndex)..<close].trimmingSpaces
                if !inside.isEmpty, inside.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(inside) {
                    seconds = value
                    text = text[text.index(after: close)...].drop { $0 == " " }
                }
            }
        }
        return (text, seconds)
    }

    /// A logcat time at the start of `text` as written, and in seconds on the device's clock.
    static func logcatTime(_ text: Substring) -> (String, Double)? {
        guard let (time, rest) = AndroidLogParser.timestamp(text) else { return nil }
        return (String(text[..<rest.startIndex]), time.clock)
    }

    /// A `logcat -v long` header: `[ 10-24 14:24:06.590   710:  710 I/lowmemorykiller ]`.
    static func longHeader(_ text: Substring) -> (tag: Substring, time: String?, seconds: Double?)? {
        guard text.first == "[", text.hasSuffix("]") else { return nil }
        let inside = text.dropFirst().dropLast().trimmingSpaces
        guard let slash = inside.lastIndex(of: "/"), let space = inside[..<slash].lastIndex(of: " ") else {
            return nil
        }
        let level = inside[inside.index(after: space)..<slash]
        guard level.count == 1 else { return nil }
        let time = logcatTime(inside)
        return (inside[inside.index(after: slash)...], time?.0, time?.1)
    }

    /// The comma-separated fields of an event `tag: [a,b,c]` anywhere in `text` (brief form
    /// `I/am_kill ( 1885): [...]` included), or `nil`.
    static func eventFields(_ text: Substring, tag: String) -> [Substring]? {
        guard let range = text.firstRange(of: tag) else { return nil }
        let rest = text[range.upperBound...]
        guard let open = rest.firstIndex(of: "["), rest[..<open].allSatisfy({ " :()0123456789".contains($0) }),
            let close = rest.lastIndex(of: "]"), open < close
        else { return nil }
        return rest[rest.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false)
    }

    /// The whole number after `key` in `text`.
    static func number(after key: String, in text: Substring) -> Int64? {
        guard let range = text.firstRange(of: key) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " }
        let digits = rest.prefix { $0.isNumber || $0 == "-" }
        return Int64(digits)
    }

    /// The KiB of `NkB` at the start of `text`.
    static func kib(_ text: Substring) -> Int64? {
        let digits = text.drop { $0 == " " }.prefix { $0.isNumber }
        return Int64(digits)
    }
}

extension Substring {
    /// The text without spaces at either end.
    fileprivate var trimmingSpaces: Substring {
        var text = self.drop { $0 == " " }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
