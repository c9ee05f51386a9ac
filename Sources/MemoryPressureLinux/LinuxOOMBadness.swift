import MemoryPressure

/// The Linux OOM killer's victim score: `oom_badness()` in `mm/oom_kill.c` and the
/// `/proc/<pid>/oom_score` derived from it, as in Linux 5.9 and later (checked against the
/// running kernel by this module's tests).
///
/// ```
/// points = rss pages + swap entries + page-table bytes / PAGE_SIZE
/// points += oom_score_adj * (totalpages / 1000)          // integer division first
/// oom_score = (1000 + points * 1000 / totalpages) * 2 / 3 // 0 ... 2000, C division
/// ```
/// with `totalpages = totalram_pages + total_swap_pages` (`MemTotal + SwapTotal`). Processes with
/// `oom_score_adj == -1000`, kernel threads and the global init (pid 1) are unkillable: no
/// points, and an `oom_score` of 0. The killer picks the task with the most points.
public enum LinuxOOMBadness {
    /// `OOM_SCORE_ADJ_MIN`: an `oom_score_adj` that makes a process unkillable.
    public static let unkillableAdjustment = -1000

    /// `totalpages` for `/proc/<pid>/oom_score` and a global OOM: RAM plus swap, in pages.
    ///
    /// - Complexity: O(1)
    public static func totalPages(of memory: LinuxMemoryInfo, pageSize: Int) -> Int {
        Int((memory.total.value + memory.swapTotal.value) / Int64(pageSize))
    }

    /// `oom_badness()`: the process's points in pages, or `nil` if it is unkillable
    /// (`oomScoreAdj == -1000`).
    ///
    /// - Complexity: O(1)
    public static func points(
        resident: Bytes, swap: Bytes, pageTables: Bytes, oomScoreAdj: Int, totalPages: Int, pageSize: Int
    ) -> Int? {
        guard oomScoreAdj != unkillableAdjustment else { return nil }
        return Int(
            KernelOOMFormula.points(
                resident: resident.value, swap: swap.value, pageTables: pageTables.value,
                oomScoreAdj: Int64(oomScoreAdj), totalPages: Int64(totalPages), pageSize: Int64(pageSize)))
    }

    /// `oom_badness()` of a process read from `/proc`: `nil` for unkillable ones (adjustment -1000,
    /// or pid 1, the global init).
    ///
    /// - Complexity: O(1)
    public static func points(of process: LinuxProcess, totalPages: Int, pageSize: Int) -> Int? {
        guard process.pid.rawValue != 1 else { return nil }
        return points(
            resident: process.resident, swap: process.swap, pageTables: process.pageTables,
            oomScoreAdj: process.oomScoreAdj, totalPages: totalPages, pageSize: pageSize)
    }

    /// The value `/proc/<pid>/oom_score` shows for `points` (`nil`: unkillable, shown as 0).
    ///
    /// - Complexity: O(1)
    public static func oomScore(points: Int?, totalPages: Int) -> Int {
        guard let points, totalPages > 0 else { return 0 }
        return Int(KernelOOMFormula.oomScore(points: Int64(points), totalPages: Int64(totalPages)))
    }
}
