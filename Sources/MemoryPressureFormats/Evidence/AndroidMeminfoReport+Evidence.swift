import MemoryPressure

extension AndroidMeminfoReport {
    /// The report as evidence for `kill-order`: the process list lmkd would choose from now.
    /// Nothing was killed, so there is no verdict: the ranking says who would die next.
    ///
    /// - Every process is an app `name[pid]` of its RSS (or PSS) with the oom_score_adj of its
    ///   category; a `Foreground` process with activities is the active app (the first one),
    ///   a `Cached` one is suspended, every other is in the background.
    /// - The device is `Total RAM`, with `Free RAM` free and the ZRAM line's swap.
    /// - What the report does not give is said: the exact oom_score_adj inside a category
    ///   (`Cached` covers 900–999), and the order of a slot (lmkd takes the oldest; the report
    ///   lists by size).
    ///
    /// - Parameter source: the input's name as given.
    /// - Complexity: O(processes)
    public func evidence(source: String) -> ReportEvidence {
        var missing = [
            "the exact oom_score_adj inside a category (Cached covers 900–999): each process is given its category's lowest",
            "the order inside an adj slot (lmkd kills the oldest first; the report lists by size): ties go by name",
        ]
        var notes: [String] = []
        if measure == "PSS" { notes.append("sizes are PSS (the report has no RSS section); lmkd weighs RSS") }
        var apps: [ResidentApp] = []
        var pids: [AppID: Int] = [:]
        var foreground = false
        for process in processes {
            let id = AppID("\(process.name)[\(process.pid)]")
            guard pids[id] == nil else { continue }
            var state = AppState.background
            if process.category == "Foreground", process.hasActivities, !foreground {
                state = .active
                foreground = true
            } else if process.category == "Cached" {
                state = .suspended
            }
            apps.append(
                ResidentApp(
                    id: id, state: state, footprint: Bytes(min(process.kib, Bytes.maximum.value >> 10) << 10),
                    oomScoreAdj: process.oomScoreAdj))
            pids[id] = process.pid
        }
        let resident = apps.reduce(Int64(0)) { $0 &+ $1.footprint.value }
        var memory = Bytes(min(max(totalKiB ?? 0, 0), Bytes.maximum.value >> 10) << 10)
        if totalKiB == nil {
            missing.append("Total RAM: the device is taken as the processes' own total")
            memory = Bytes(max(resident, 1))
        }
        let free = (freeKiB ?? 0) << 10
        if freeKiB == nil { missing.append("Free RAM: no memory is taken as free") }
        let unattributed = Bytes(max(memory.value - free - resident, 0))
        let swap = Bytes(min(max(swapKiB ?? 0, 0), Bytes.maximum.value >> 10) << 10)
        var evidence = ReportEvidence(
            format: .androidMeminfo, source: source, location: "lines \(firstLine)–\(lastLine)",
            summary: "dumpsys meminfo; \(processes.count) processes by oom_adj category (\(measure))",
            snapshot: apps.isEmpty
                ? nil
                : Snapshot(
                    device: Device(memory: max(memory, Bytes(resident)), swap: swap), apps: apps,
                    unattributed: unattributed),
            pids: pids, killed: [])
        evidence.missing = missing
        evidence.notes = notes + ["a process list, not a kill: the order is who lmkd would kill next"]
        return evidence
    }
}
