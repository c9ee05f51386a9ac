import MemoryPressure

extension KernelOOMReport {
    /// The report as evidence for `kill-order`: the machine rebuilt as the kernel saw it when it
    /// chose (mm/oom_kill.c), and the process it killed.
    ///
    /// - The device is what the kernel's `totalpages` was (`oom_constraint()`): for a memory
    ///   cgroup, its limit (`mem_cgroup_get_max()`, plus the swap its `memory+swap` limit allows
    ///   where the report says how much swap there is); for the whole machine, RAM less the
    ///   reserved pages (`totalram_pages()`) plus swap.
    /// - Every task-table row is an executing app `name[pid]` with its rss as footprint, its swap
    ///   entries, page tables and oom_score_adj; memory outside the tasks is unattributed, so the
    ///   engine's free memory is the report's.
    /// - The global init process (pid 1) is left out, as `oom_unkillable_task()` leaves it out.
    /// - What the report lacks is listed in ``ReportEvidence/missing`` and never guessed: it
    ///   names no foreground app and no app states, and older kernels ranked differently
    ///   (``KernelOOMReport/generationNotes(scores:)``).
    ///
    /// - Parameter source: the input's name as given.
    /// - Complexity: O(tasks)
    public func evidence(source: String) -> ReportEvidence {
        let pageSize = self.pageSize
        var missing: [String] = []
        var notes: [String] = []
        if derivedPageSize == nil {
            notes.append("page size assumed 4 KiB (the victim's kill line does not match its table row)")
        }
        let global = constraint != .memoryCgroup && cgroupLimit == nil
        var memory = Bytes.zero
        var swap = Bytes.zero
        if !global, let limit = cgroupLimit {
            memory = limit
            if let memorySwap = cgroupMemorySwapLimit, memorySwap > limit {
                if let totalSwap {
                    swap = min(memorySwap - limit, totalSwap)
                } else if tasks.contains(where: { ($0.swapEntries ?? 0) > 0 }) {
                    missing.append("the machine's total swap (the cgroup's totalpages is taken without swap)")
                }
            } else if let swapLimit = cgroupSwapLimit, let totalSwap {
                swap = min(swapLimit, totalSwap)
            }
        } else if let ram = pagesRAM {
            memory = Bytes(clampedBytes(ram - (pagesReserved ?? 0), pageSize))
            swap = totalSwap ?? .zero
            if pagesReserved == nil { notes.append("no 'pages reserved' line: totalpages taken as all of RAM") }
            if totalSwap == nil { missing.append("total swap (no 'Total swap' line): taken as none") }
        }
        let resident = tasks.reduce(Int64(0)) { $0 &+ $1.residentPages &* pageSize }
        if memory == .zero {
            missing.append(
                "the memory totals (no 'pages RAM' or cgroup limit line): oom_score_adj is scaled by the tasks' own total"
            )
            memory = Bytes(min(max(resident, pageSize), Bytes.maximum.value))
        }
        if tasks.isEmpty { missing.append("the task table (no 'Tasks state' rows): nothing to rank") }
        if victim == nil { missing.append("the victim line ('Killed process …'): the report is cut short") }
        if !columns.isEmpty, !columns.contains("oom_score_adj") {
            missing.append("oom_score_adj (this layout predates it): every task ranked as 0")
        }
        missing.append("the foreground app and app states: a kernel report knows processes only")

        var apps: [ResidentApp] = []
        var pids: [AppID: Int] = [:]
        var excluded: [(app: String, reason: String)] = []
        var scores: [AppID: Int64] = [:]
        let totalPages = (memory + swap).value / pageSize
        apps.reserveCapacity(tasks.count)
        for task in tasks {
            let id = AppID("\(task.name)[\(task.pid)]")
            if global && task.pid == 1 {
                excluded.append((id.rawValue, "the init process: the kernel never kills it (oom_unkillable_task)"))
                continue
            }
            guard pids[id] == nil else { continue }  // a pid listed twice: the first row stands
            let pageTables = task.pageTableBytes ?? (task.pageTablePages ?? 0) &* pageSize
            let app = ResidentApp(
                id: id, state: .background, footprint: Bytes(clampedBytes(task.residentPages, pageSize)),
                oomScoreAdj: task.oomScoreAdj ?? 0, swap: Bytes(clampedBytes(task.swapEntries ?? 0, pageSize)),
                pageTables: Bytes(min(max(pageTables, 0), Bytes.maximum.value)))
            apps.append(app)
            pids[id] = task.pid
            if task.oomScoreAdj != -1000 {
                scores[id] = KernelOOMFormula.points(
                    resident: app.footprint.value, swap: app.swap.value, pageTables: app.pageTables.value,
                    oomScoreAdj: Int64(task.oomScoreAdj ?? 0), totalPages: totalPages, pageSize: pageSize)
            }
        }
        var unattributed = Bytes.zero
        if !global, let usage = cgroupUsage {
            unattributed = Bytes(max(usage.value - resident, 0))
            if resident > usage.value {
                notes.append(
                    "the tasks' rss (\(Bytes(resident).formatted)) exceeds the cgroup's usage (\(usage.formatted)): "
                        + "rss also counts pages charged elsewhere (shared libraries, memory from before a task "
                        + "joined), so the free memory shown is below zero")
            }
        } else if let freePages {
            unattributed = Bytes(max(memory.value - freePages &* pageSize - resident, 0))
        }
        let snapshot =
            tasks.isEmpty
            ? nil
            : Snapshot(device: Device(memory: memory, swap: swap), apps: apps, unattributed: unattributed)
        var killed: [ReportEvidence.KilledProcess] = []
        if let victim {
            let id = AppID("\(victim.name)[\(victim.pid)]")
            let app = pids[id] != nil ? id : apps.first { pids[$0.id] == victim.pid }?.id
            // A kill line cut after its pid (a wrapped mail) gives no name: the table's row does.
            let name = victim.name.isEmpty ? (victimTask?.name ?? "pid \(victim.pid)") : victim.name
            killed.append(ReportEvidence.KilledProcess(pid: victim.pid, name: name, app: app))
            if let chosen = victim.chosenPID, chosen != victim.pid {
                notes.append(
                    "the kernel chose pid \(chosen) and killed its child \(victim.pid) instead "
                        + "(oom_kill_process() sacrificed a child before Linux 5.0)")
            }
        }
        notes.append(contentsOf: generationNotes(scores: scores))
        if interleavedLines > 0 {
            notes.append(
                "\(interleavedLines) line(s) of other messages inside the report (another writer's console output, "
                    + "another CPU's printk) were skipped"
                    + (skippedRows.isEmpty ? "" : ": " + skippedRows.joined(separator: "; ")))
        }
        if joinedRows > 0 {
            notes.append("\(joinedRows) task row(s) wrapped over two lines (a mail client or a blog) were joined")
        }
        var evidence = ReportEvidence(
            format: .linuxOOMReport, source: source, location: "lines \(firstLine)–\(lastLine)", summary: summary,
            snapshot: snapshot, pids: pids, killed: killed)
        evidence.excluded = excluded
        evidence.missing = missing
        evidence.notes = notes
        evidence.killerScores = scores
        evidence.killerScoreName = "oom_badness points"
        let clamps = isBefore59 == true
        evidence.figureNames = ["rss", "swapEntries", "pageTableBytes", "oomScoreAdj", "badnessPoints", "oomScore"]
        for task in tasks {
            let id = AppID("\(task.name)[\(task.pid)]")
            guard pids[id] == task.pid, evidence.figures[id] == nil else { continue }
            let pageTables = task.pageTableBytes ?? task.pageTablePages.map { $0 &* pageSize }
            let points = scores[id].map { clamps ? max($0, 1) : $0 }
            evidence.figures[id] = [
                task.residentPages, task.swapEntries, pageTables, task.oomScoreAdj.map(Int64.init), points,
                // fs/proc/base.c: before 5.9 oom_score was points × 1000 / totalpages.
                points.map {
                    clamps
                        ? $0 &* 1000 / max(totalPages, 1)
                        : KernelOOMFormula.oomScore(points: $0, totalPages: totalPages)
                },
            ]
        }
        if clamps {
            // oom_evaluate_task() before 5.9: oom_badness() returned `points > 0 ? points : 1`, and a
            // task tied with the one chosen is skipped, so the first scanned among ties dies.
            let order = tasks.enumerated().compactMap { index, task -> (AppID, Int64, Int)? in
                let id = AppID("\(task.name)[\(task.pid)]")
                guard pids[id] == task.pid, let points = scores[id] else { return nil }
                return (id, max(points, 1), index)
            }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.2 < $1.2 }.map(\.0)
            evidence.generationOrder = (
                "linux-oom", order,
                "clamped to 1 before Linux 5.9; the first scanned of a tie dies"
            )
        }
        evidence.why = why(killed: killed.first?.app, scores: scores, clamps: clamps, totalPages: totalPages)
        return evidence
    }

    /// Whether this report's kernel is older than 5.9, from its release or, where the report
    /// states none, from its layout: the `nr_ptes` column (before 4.15), the `Kill process … or
    /// sacrifice child` line (before 5.0), the `Task in … killed as a result of limit of` line
    /// (before 4.19), or a `Killed process` line with `shmem-rss` but without the `pgtables` and
    /// `oom_score_adj` that Linux 5.4 added to it ("mm/oom: add oom_score_adj and pgtables to
    /// Killed process message"). `nil` when neither tells.
    ///
    /// - Complexity: O(columns)
    public var isBefore59: Bool? {
        if let version = kernelVersion { return version.lexicographicallyPrecedes([5, 9]) }
        if columns.contains("nr_ptes") || victim?.chosenPID != nil || hasLegacyMemoryCgroupLine { return true }
        if let victim, victim.sharedMemoryKiB != nil, victim.pageTablesKiB == nil, victim.oomScoreAdj == nil {
            return true
        }
        return nil
    }

    /// The margin of the kill: the victim's points against the runner-up's, and the highest
    /// oom_score_adj at which the runner-up would have died instead (`adj × (totalpages / 1000)`
    /// is the adj's weight in oom_badness()).
    func why(killed victim: AppID?, scores: [AppID: Int64], clamps: Bool, totalPages: Int64) -> ReportEvidence.Why? {
        guard let victim, let raw = scores[victim] else { return nil }
        let score = { (points: Int64) in clamps ? max(points, 1) : points }
        let victimPoints = score(raw)
        // The runner-up: the highest score among the others, the first scanned among ties.
        var scanned: [AppID: Int] = [:]
        for (index, task) in tasks.enumerated() where scanned[AppID("\(task.name)[\(task.pid)]")] == nil {
            scanned[AppID("\(task.name)[\(task.pid)]")] = index
        }
        guard
            let runnerUp = scores.filter({ $0.key != victim }).max(by: {
                score($0.value) != score($1.value)
                    ? score($0.value) < score($1.value) : (scanned[$0.key] ?? 0) > (scanned[$1.key] ?? 0)
            })
        else { return nil }
        let runnerUpPoints = score(runnerUp.value)
        if clamps, victimPoints == 1, runnerUpPoints == 1 {
            let tied = scores.values.filter { $0 <= 1 }.count
            return .init(
                victim: victim, victimScore: 1, runnerUp: runnerUp.key, runnerUpScore: 1,
                unit: "oom_badness points (pages)",
                reversingOomScoreAdj: nil,
                text:
                    "\(victim.rawValue) tied with \(tied - 1) other task(s) at 1 point (oom_badness \(raw) clamped to 1 "
                    + "before Linux 5.9) and was scanned first, ahead of \(runnerUp.key.rawValue); no oom_score_adj above "
                    + "-1000 would have spared it (only -1000, which exempts it), while a 5.9+ kernel ranks by the "
                    + "unclamped points")
        }
        let adj = Int64(tasks.last { AppID("\($0.name)[\($0.pid)]") == victim }?.oomScoreAdj ?? 0)
        let step = totalPages / 1000
        let unit = "oom_badness points (pages)"
        var text =
            "\(victim.rawValue) had \(victimPoints) points, the runner-up \(runnerUp.key.rawValue) \(runnerUpPoints)"
        guard victimPoints >= runnerUpPoints else {
            text +=
                ": by the report's own figures the runner-up scores higher, so the kernel's choice is not "
                + "reproduced from this table"
            return .init(
                victim: victim, victimScore: victimPoints, runnerUp: runnerUp.key, runnerUpScore: runnerUpPoints,
                unit: unit, reversingOomScoreAdj: nil, text: text)
        }
        let margin = victimPoints - runnerUpPoints
        text += " (margin \(margin) pages)"
        var reversing: Int?
        if step > 0 {
            // The largest adj with base + adj × step below the runner-up's points.
            let base = raw - adj * step
            let target = runnerUpPoints - 1 - base
            let candidate = target >= 0 ? target / step : -((-target + step - 1) / step)
            if candidate > -1000, candidate < adj { reversing = Int(candidate) }
        }
        if let reversing {
            text +=
                "; with its oom_score_adj at \(reversing) or lower (it was \(adj)), \(runnerUp.key.rawValue) "
                + "would have died instead; -1000 exempts it entirely"
        } else {
            text += "; no oom_score_adj above -1000 would have spared it (only -1000, which exempts it)"
        }
        return .init(
            victim: victim, victimScore: victimPoints, runnerUp: runnerUp.key, runnerUpScore: runnerUpPoints,
            unit: unit, reversingOomScoreAdj: reversing, text: text)
    }

    /// One line: the kernel, the constraint and the cgroup.
    ///
    /// - Complexity: O(1)
    public var summary: String {
        var parts: [String] = []
        parts.append(kernelRelease.map { "Linux \($0)" } ?? "kernel release not stated")
        // A report that states no constraint is a memory cgroup's when it gives a cgroup limit.
        let isMemoryCgroup = constraint == .memoryCgroup || (constraint == nil && cgroupLimit != nil)
        if isMemoryCgroup {
            var text = "memory cgroup OOM"
            if let cgroup = oomMemoryCgroup { text += " in \(cgroup)" }
            if let limit = cgroupLimit { text += " (limit \(limit.formatted))" }
            parts.append(text)
        } else {
            switch constraint {
            case .none?, .memoryCgroup?, nil:
                parts.append("global OOM" + (constraint == nil ? " (constraint not stated)" : ""))
            case .cpuset?: parts.append("cpuset-constrained OOM")
            case .memoryPolicy?: parts.append("memory-policy-constrained OOM")
            }
        }
        if let task = invokingTask { parts.append("invoked by \(task.name)" + (task.pid.map { "[\($0)]" } ?? "")) }
        return parts.joined(separator: ", ")
    }

    /// Where this report's kernel generation ranked differently from the kernel `linux-oom`
    /// reproduces (Linux 5.9 and later), with the tasks it concerns.
    ///
    /// - Before 5.9, `oom_badness()` returned `points > 0 ? points : 1`: every task with a
    ///   badness of 0 or less tied at 1, and the first scanned among them was chosen
    ///   (`oom_evaluate_task()` skips a task tied with the one chosen).
    /// - Before 2.6.36 (a table with `oom_adj` and no `oom_score_adj`), `badness()` weighed CPU
    ///   time, run time and children, which the report does not carry.
    ///
    /// - Complexity: O(tasks)
    public func generationNotes(scores: [AppID: Int64]) -> [String] {
        var notes: [String] = []
        if kernelVersion == nil, isBefore59 == true {
            let clamped = scores.values.filter { $0 <= 0 }.count
            if clamped > 0 {
                notes.append(
                    "the report's layout is of a kernel before 5.9, which clamped a badness of 0 or less to 1: "
                        + "\(clamped) task(s) tied there, and the first scanned among them dies; "
                        + "linux-oom ranks this report by that rule")
            }
        }
        if let version = kernelVersion, version.lexicographicallyPrecedes([5, 9]) {
            let clamped = scores.values.filter { $0 <= 0 }.count
            if clamped > 0 {
                notes.append(
                    "Linux \(version.map(String.init).joined(separator: ".")) clamped a badness of 0 or less to 1 "
                        + "(before 5.9): \(clamped) task(s) tied there, and the first scanned among them dies; "
                        + "linux-oom ranks this report by that rule")
            }
        }
        let before2636 = kernelVersion.map { $0.lexicographicallyPrecedes([2, 6, 36]) }
        if before2636 ?? (columns.contains("oom_adj") && !columns.contains("oom_score_adj")) {
            notes.append(
                "this kernel (before 2.6.36) chose with badness(): CPU time, run time and children, "
                    + "which the report does not carry; linux-oom's ranking is not that kernel's")
        }
        return notes
    }

    private func clampedBytes(_ pages: Int64, _ pageSize: Int64) -> Int64 {
        let (product, overflow) = max(pages, 0).multipliedReportingOverflow(by: pageSize)
        return overflow ? Bytes.maximum.value : min(product, Bytes.maximum.value)
    }
}
