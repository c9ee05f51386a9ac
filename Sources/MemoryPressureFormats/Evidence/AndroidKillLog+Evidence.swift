import MemoryPressure

extension AndroidKillLog {
    /// The log as evidence: every kill with what the log says of it (pid, uid, oom_score_adj,
    /// memory freed, reason, who killed), lmkd's and the driver's kills checked burst by burst
    /// against their rule, ActivityManager's own kills kept apart, and — where the log holds an
    /// LRU list — who lmkd would kill next by that list's adj.
    ///
    /// - Complexity: O(kills + listed processes log listed processes)
    public func evidence(source: String) -> ReportEvidence {
        let killed = kills.map { kill in
            var process = ReportEvidence.KilledProcess(
                pid: kill.pid, name: kill.name.isEmpty ? "pid \(kill.pid)" : kill.name, app: nil, reason: kill.reason,
                isChoice: kill.killer.isLowMemoryKiller)
            process.uid = kill.uid
            process.oomScoreAdj = kill.adj
            process.freed = kill.freedKiB.map { Bytes(min(max($0, 0), Bytes.maximum.value >> 10) << 10) }
            process.killer = kill.killer.rawValue
            process.time = kill.time
            process.line = kill.line
            return process
        }
        var evidence = ReportEvidence(
            format: .androidLog, source: source, location: location, summary: summary, snapshot: nil, pids: [:],
            killed: killed)
        evidence.notes = ruleChecks() + activityManagerNote() + lowMemoryNote() + listNotes()
        if otherLines > 0 {
            evidence.notes.append("\(otherLines) other lines say nothing of kills: skipped")
        }
        let unconfirmed = kills.filter { !confirmedDeaths.contains($0.pid) }.count
        if !confirmedDeaths.isEmpty, unconfirmed < kills.count {
            evidence.notes.append(
                "\(kills.count - unconfirmed) of \(kills.count) kills confirmed by a death line (Zygote's "
                    + "'exited due to signal 9' or am_proc_died)")
        }
        var missing: [String] = []
        if listed.isEmpty {
            missing.append(
                "each process's oom_score_adj and size at the kill (lmkd and the driver log only their victims): "
                    + "nothing to rank")
        } else {
            missing.append("each listed process's memory (an LRU list gives its adj, not its size)")
        }
        if kills.contains(where: { kill in kill.time.flatMap { LogTime.parse($0)?.kind } == .monthDay }) {
            missing.append("the year (logcat's default time has none)")
        }
        evidence.missing = missing
        return evidence
    }

    /// `lines 8–35`, or `line 3`.
    var location: String {
        guard let first = firstLine, let last = lastLine else { return "no line" }
        return first == last ? "line \(first)" : "lines \(first)–\(last)"
    }

    /// One line: how many kills, by whom.
    var summary: String {
        guard !kills.isEmpty else {
            if !listed.isEmpty { return "an LRU list of \(listed.count) processes, no kill" }
            return "\(lowMemoryEvents.count) am_low_memory events, no kill"
        }
        var parts: [String] = []
        for killer in [Killer.lmkd, .kernelDriver, .activityManager] {
            let count = kills.filter { $0.killer == killer }.count
            guard count > 0 else { continue }
            parts.append("\(count) by \(killer.rawValue)")
        }
        return "\(kills.count) kill" + (kills.count == 1 ? "" : "s") + ": " + parts.joined(separator: ", ")
    }

    /// The low-memory kills cut into bursts (``AndroidKillLog/Kill/continuesBurst(after:)``).
    var bursts: [[Kill]] {
        var bursts: [[Kill]] = []
        for kill in kills where kill.killer.isLowMemoryKiller {
            if let last = bursts.last?.last, kill.continuesBurst(after: last) {
                bursts[bursts.count - 1].append(kill)
            } else {
                bursts.append([kill])
            }
        }
        return bursts
    }

    /// Each burst of two or more low-memory kills against its killer's rule: highest
    /// oom_score_adj first (the driver's `lowmem_scan()` takes the task with the highest adj at or
    /// above the level's minimum; lmkd's `find_and_kill_process()` walks the adj slots from
    /// OOM_SCORE_ADJ_MAX down), and within one adj the largest first (the driver always; lmkd only
    /// with `ro.lmk.kill_heaviest_task`, else the least recently used of the slot).
    func ruleChecks() -> [String] {
        var notes: [String] = []
        for burst in bursts where burst.count >= 2 {
            let killer = burst[0].killer
            var text =
                "burst of \(burst.count) kills by \(killer.rawValue) (lines \(burst[0].line)–\(burst.last!.line))"
            var breaks: [String] = []
            for (previous, kill) in zip(burst, burst.dropFirst()) {
                guard let before = previous.adj, let adj = kill.adj, adj > before else { continue }
                breaks.append(
                    "\(kill.name) (line \(kill.line), adj \(adj)) was killed after \(previous.name) (adj \(before))")
            }
            if breaks.isEmpty {
                let adjs = burst.compactMap(\.adj)
                text +=
                    adjs.count == burst.count
                    ? ": highest oom_score_adj first holds (\(Self.runs(adjs)))"
                    : ": some kills state no adj, so the rule cannot be checked on them"
            } else {
                text +=
                    ": highest oom_score_adj first breaks: " + breaks.joined(separator: "; ")
                    + " (unless its adj rose in between, which the log does not show)"
            }
            // Within one adj: largest first?
            var sizeNotes: [String] = []
            for adj in Set(burst.compactMap(\.adj)).sorted(by: >) {
                let sizes = burst.filter { $0.adj == adj }.compactMap(\.freedKiB)
                guard sizes.count >= 2 else { continue }
                let list = sizes.map { "\($0)" }.joined(separator: ", ") + " kB"
                if zip(sizes, sizes.dropFirst()).allSatisfy({ $0 >= $1 }) {
                    sizeNotes.append(
                        "within adj \(adj) each kill frees no more than the one before (\(list)): largest first, "
                            + (killer == .kernelDriver
                                ? "as the driver's rule says"
                                : "as lmkd's kill-heaviest mode (ro.lmk.kill_heaviest_task) does"))
                } else {
                    sizeNotes.append(
                        "within adj \(adj) the sizes do not fall (\(list)): "
                            + (killer == .kernelDriver
                                ? "the driver's largest-first rule breaks (unless sizes changed between kills)"
                                : "not largest first, as lmkd's default does (least recently used of the adj slot)"))
                }
            }
            notes.append(([text] + sizeNotes).joined(separator: "; "))
        }
        return notes
    }

    /// `1000 ×6, then 764`.
    static func runs(_ values: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < values.count {
            var end = index
            while end + 1 < values.count, values[end + 1] == values[index] { end += 1 }
            let count = end - index + 1
            parts.append(count > 1 ? "\(values[index]) ×\(count)" : "\(values[index])")
            index = end + 1
        }
        return parts.joined(separator: ", then ")
    }

    /// ActivityManager's kills, kept apart from the low-memory killers'.
    func activityManagerNote() -> [String] {
        let own = kills.filter { $0.killer == .activityManager }
        guard !own.isEmpty else { return [] }
        var reasons: [String] = []
        for kill in own {
            let reason = kill.reason ?? "no reason"
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        return [
            "\(own.count) kill" + (own.count == 1 ? "" : "s")
                + " by ActivityManager (am_kill; reasons: \(reasons.prefix(6).joined(separator: ", "))"
                + (reasons.count > 6 ? ", …" : "")
                + "): its own process limits, a removed task or an OEM cleaner, not a low-memory decision; "
                + "not held to lmkd's rule"
        ]
    }

    /// `am_low_memory` events.
    func lowMemoryNote() -> [String] {
        guard !lowMemoryEvents.isEmpty else { return [] }
        let counts = lowMemoryEvents.map { "\($0.count)" }.joined(separator: ", ")
        return [
            "ActivityManager logged am_low_memory \(lowMemoryEvents.count) times (processes left in its LRU list: "
                + "\(counts)): it had no cached process left to kill"
        ]
    }

    /// The oom_score_adj of an LRU list's adj class (frameworks/base ProcessList.java's constants
    /// and `makeOomAdjString()`: `cch+6` is CACHED_APP_MIN_ADJ 900 + 6), or `nil` if unknown.
    static func adj(ofClass label: String) -> Int? {
        let base: [String: Int] = [
            "ntv": -1000, "sys": -900, "pers": -800, "PERS": -800, "psvc": -700, "fore": 0, "vis": 100,
            "prcp": 200, "prcm": 225, "prcl": 250, "bkup": 300, "hvy": 400, "svc": 500, "home": 600,
            "prev": 700, "svcb": 800, "cch": 900,
        ]
        if let value = base[label] { return value }
        guard let plus = label.firstIndex(of: "+"), let root = base[String(label[..<plus])],
            let offset = Int(label[label.index(after: plus)...])
        else { return nil }
        return root + offset
    }

    /// Who lmkd would kill next by an LRU list: the highest adj first, the list's order (least
    /// recently used last) within an adj.
    func listNotes() -> [String] {
        guard !listed.isEmpty else { return [] }
        let ranked = listed.enumerated().compactMap { offset, process -> (Int, Int, ListedProcess)? in
            guard let adj = Self.adj(ofClass: process.adjClass), adj >= 0 else { return nil }
            return (adj, offset, process)
        }.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
        guard !ranked.isEmpty else {
            return ["the LRU list holds \(listed.count) processes, none of them killable (adj below 0)"]
        }
        let top = ranked.prefix(10).enumerated().map { index, entry in
            "\(index + 1). \(entry.2.name)[\(entry.2.pid)] (\(entry.2.adjClass) = adj \(entry.0))"
        }
        return [
            "who lmkd would kill next by the LRU list (lines \(listed[0].line)–\(listed.last!.line); highest adj first, "
                + "the list's order within an adj; sizes not listed): " + top.joined(separator: ", ")
                + (ranked.count > 10 ? ", … (\(ranked.count) killable)" : "")
        ]
    }
}
