import MemoryPressure

extension JetsamEventReport {
    /// The report as evidence for `kill-order`: the device rebuilt as jetsam saw it (XNU
    /// `kern_memorystatus.c`), and the processes it killed.
    ///
    /// - Every process is an app `name[pid]` of `rpages` × page size, with its jetsam
    ///   `priority`; a `frontmost` process is the active app (the first one, if several are), a
    ///   `suspended` one is suspended, every other is in the background.
    /// - Within a priority band, the report's order stands for the band's queue:
    ///   `memorystatus_init_jetsam_snapshot_locked()` walks the bands from 0 up, each in its list
    ///   order, and `memorystatus_kill_top_process()` takes the first of the lowest band. So the
    ///   first listed entered first (first in, first out).
    /// - The report states no RAM size and no memory limits: the device's memory is taken as
    ///   the pages `memoryStatus` counts (free, active, inactive, speculative, throttled, wired
    ///   and the compressor's), free memory as free + speculative pages, and limits are the
    ///   policy's own — each said in ``ReportEvidence/missing`` or ``ReportEvidence/notes``.
    /// - A kill for the process's own limit (``ownLimitReasons``) is not a choice among
    ///   processes; its verdict says so.
    ///
    /// - Parameter source: the input's name as given.
    /// - Complexity: O(processes)
    public func evidence(source: String) -> ReportEvidence {
        var missing: [String] = []
        var notes: [String] = []
        // The text form of iOS 5–8 ran on 32-bit devices too (4 KiB pages) and says its page size
        // only from iOS 8; every 64-bit iPhone has 16 KiB.
        let assumed: Int64 = form == .text ? 4096 : 16_384
        let pageSize = self.pageSize ?? assumed
        if self.pageSize == nil {
            missing.append(
                form == .text
                    ? "the page size (no 'Page Size' line): 4 KiB assumed, as on the 32-bit devices of that era"
                    : "the page size (no memoryStatus.pageSize): 16 KiB assumed, as on every 64-bit iPhone")
        }
        func bytes(_ pages: Int64) -> Bytes { Bytes(min(max(pages, 0) &* pageSize, Bytes.maximum.value)) }
        let counted = ["free", "active", "inactive", "speculative", "throttled", "wired"].reduce(Int64(0)) {
            $0 &+ (memoryPages[$1] ?? 0)
        }
        var memoryPagesTotal = counted &+ (compressorPages ?? 0)
        let resident = processes.reduce(Int64(0)) { $0 &+ $1.residentPages }
        if memoryPagesTotal == 0 {
            missing.append("memoryStatus.memoryPages: the device's memory is taken as the processes' own total")
            memoryPagesTotal = resident
        } else {
            notes.append(
                "a JetsamEvent report states no RAM size: the device is taken as the \(bytes(memoryPagesTotal).formatted) "
                    + "memoryStatus counts (free, active, inactive, speculative, throttled, wired, compressor)")
        }
        missing.append("memory limits (a JetsamEvent report holds none): the policy's own limits apply")
        let freePages = (memoryPages["free"] ?? 0) &+ (memoryPages["speculative"] ?? 0)
        var apps: [ResidentApp] = []
        var pids: [AppID: Int] = [:]
        var excluded: [(app: String, reason: String)] = []
        var foreground: String?
        var lackingPriority = 0
        apps.reserveCapacity(processes.count)
        for (position, process) in processes.enumerated() {
            let id = AppID(process.pid.map { "\(process.name)[\($0)]" } ?? process.name)
            guard pids[id] == nil, !apps.contains(where: { $0.id == id && process.pid == nil }) else {
                excluded.append((id.rawValue, "listed twice: the first entry stands"))
                continue
            }
            var state = AppState.background
            if process.states.contains("frontmost") {
                if let foreground {
                    notes.append(
                        "\(id.rawValue) is frontmost too: taken as in the background (\(foreground) is the active app)")
                } else {
                    state = .active
                    foreground = id.rawValue
                }
            } else if process.states.contains("suspended") {
                state = .suspended
            }
            if process.priority == nil { lackingPriority += 1 }
            apps.append(
                ResidentApp(
                    id: id, state: state, footprint: bytes(process.residentPages),
                    lastActive: Double(processes.count - position), priority: process.priority))
            if let pid = process.pid { pids[id] = pid }
        }
        if lackingPriority > 0 {
            missing.append(
                "the priority of \(lackingPriority) process\(lackingPriority == 1 ? "" : "es"): banded by state instead"
            )
        }
        let killed = processes.filter { $0.reason != nil }.map { process in
            let id = AppID(process.pid.map { "\(process.name)[\($0)]" } ?? process.name)
            return ReportEvidence.KilledProcess(
                pid: process.pid, name: process.name, app: apps.contains { $0.id == id } ? id : nil,
                reason: process.reason, isChoice: !Self.ownLimitReasons.contains(process.reason ?? ""))
        }
        let memory = bytes(max(memoryPagesTotal, resident))
        let unattributed = Bytes(max(memory.value - bytes(freePages).value - bytes(resident).value, 0))
        var parts = ["JetsamEvent"]
        if let osVersion { parts.append(osVersion) }
        if let product { parts.append(product) }
        if let date { parts.append(date) }
        let reasons = Set(killed.compactMap(\.reason)).sorted()
        parts.append(
            "\(killed.count) kill\(killed.count == 1 ? "" : "s")"
                + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))"))
        var evidence = ReportEvidence(
            format: .jetsamEvent, source: source, location: "the whole file (\(form.rawValue))",
            summary: parts.joined(separator: "; "),
            snapshot: apps.isEmpty
                ? nil
                : Snapshot(device: Device(memory: memory, reserved: .zero), apps: apps, unattributed: unattributed),
            pids: pids, killed: killed)
        if processes.isEmpty {
            missing.insert(
                "the process list: the report is cut before it, so there is no kill to show and nothing to rank", at: 0)
        } else if form == .processEntries {
            // Entries without the report around them: the kill stands, a ranking does not.
            evidence.snapshot = nil
            missing.insert(
                "the rest of the report (it holds \(processes.count) process entr\(processes.count == 1 ? "y" : "ies") "
                    + "and no memoryStatus): no ranking is possible", at: 0)
        } else if elidedLines > 0 || closedBrackets > 0 || partialEntries > 0 {
            var cuts: [String] = []
            if elidedLines > 0 { cuts.append("\(elidedLines) line(s) elided with '...'") }
            if closedBrackets > 0 { cuts.append("cut short (\(closedBrackets) bracket(s) closed by the reader)") }
            if partialEntries > 0 { cuts.append("\(partialEntries) row(s) or entries that could not be read") }
            missing.insert(
                "the whole process list: it is incomplete (\(cuts.joined(separator: "; "))), so the ranking covers "
                    + "only the processes present", at: 0)
        }
        if form == .text {
            notes.append(
                "the plain-text report of iOS 5–8: no pids or priorities, so processes are named without a pid and "
                    + "banded by their (state) marks")
        }
        evidence.excluded = excluded
        evidence.missing = missing
        evidence.notes = notes
        return evidence
    }
}
