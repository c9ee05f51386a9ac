/// The Linux kernel's OOM arithmetic, in one place: `oom_badness()` (mm/oom_kill.c) and the value
/// `/proc/<pid>/oom_score` shows (fs/proc/base.c, Linux 5.9 and later). The engine's `badness` and
/// `oomScore` band orders and the live `/proc` reader both use it.
public enum KernelOOMFormula {
    /// `oom_badness()` in pages: rss + swap entries + page-table bytes / PAGE_SIZE, plus
    /// `oom_score_adj × (totalpages / 1000)`, dividing first as the kernel does. The caller
    /// excludes unkillable tasks (oom_score_adj −1000).
    ///
    /// - Complexity: O(1)
    @inline(__always)
    public static func points(
        resident: Int64, swap: Int64, pageTables: Int64, oomScoreAdj: Int64, totalPages: Int64, pageSize: Int64
    ) -> Int64 {
        resident / pageSize &+ swap / pageSize &+ pageTables / pageSize &+ oomScoreAdj &* (totalPages / 1000)
    }

    /// `/proc/<pid>/oom_score` for `points`: `(1000 + points × 1000 / totalpages) × 2 / 3`.
    ///
    /// - Complexity: O(1)
    @inline(__always)
    public static func oomScore(points: Int64, totalPages: Int64) -> Int64 {
        (1000 &+ points &* 1000 / Swift.max(totalPages, 1)) &* 2 / 3
    }
}
