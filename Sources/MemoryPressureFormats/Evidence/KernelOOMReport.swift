import MemoryPressure

/// One report of the Linux kernel's OOM killer, as it prints it to the kernel log (mm/oom_kill.c:
/// `dump_header()`, `dump_tasks()`, `dump_oom_victim()` and `__oom_kill_process()`): who invoked
/// it, the constraint, the memory totals, the task table and the process it killed.
///
/// Every field is what the report says; a field the report does not carry is `nil` and named in
/// ``ReportEvidence/missing`` of its ``evidence(source:)``. Read reports with ``KernelOOMReportParser``.
public struct KernelOOMReport: Sendable, Hashable {
    /// The task that invoked the OOM killer (`NAME invoked oom-killer: gfp_mask=…, order=…, oom_score_adj=…`).
    public struct InvokingTask: Sendable, Hashable {
        /// Its command name.
        public var name: String
        /// Its pid, from the `CPU: … PID: N Comm: …` line (or `Pid: N, comm: …` on 2.6), if present.
        public var pid: Int?
        /// The allocation's `gfp_mask` as printed, such as `0xcc0(GFP_KERNEL)`.
        public var gfpMask: String?
        /// The allocation's order (0: one page).
        public var order: Int?
        /// Its oom_score_adj.
        public var oomScoreAdj: Int?
    }

    /// Which memory ran out (`oom-kill:constraint=…`, Linux 4.19 and later, or the older
    /// `Task in … killed as a result of limit of …` line for a memory cgroup).
    public enum Constraint: String, Sendable, Hashable {
        /// The whole machine (`CONSTRAINT_NONE`): totalpages is RAM plus swap.
        case none = "CONSTRAINT_NONE"
        /// A memory cgroup's limit (`CONSTRAINT_MEMCG`): totalpages is the cgroup's limit.
        case memoryCgroup = "CONSTRAINT_MEMCG"
        /// A cpuset's memory nodes (`CONSTRAINT_CPUSET`).
        case cpuset = "CONSTRAINT_CPUSET"
        /// A memory policy's nodes (`CONSTRAINT_MEMORY_POLICY`).
        case memoryPolicy = "CONSTRAINT_MEMORY_POLICY"
    }

    /// One row of the task table (`Tasks state (memory values in pages)`); memory in pages.
    public struct Task: Sendable, Hashable {
        /// The process id.
        public var pid: Int
        /// The user id, where the layout has the column.
        public var uid: Int?
        /// The thread-group id, where the layout has the column.
        public var tgid: Int?
        /// `total_vm`: the size of its address space, in pages.
        public var totalVMPages: Int64?
        /// `rss`: resident pages (anonymous + file + shared memory).
        public var residentPages: Int64
        /// `rss_anon`, `rss_file`, `rss_shmem` (Linux 6.x layouts).
        public var anonymousPages: Int64?, filePages: Int64?, sharedMemoryPages: Int64?
        /// `pgtables_bytes` (Linux 4.15 and later).
        public var pageTableBytes: Int64?
        /// `nr_ptes`, plus `nr_pmds` where printed (before 4.15), in pages.
        public var pageTablePages: Int64?
        /// `swapents`: swapped-out pages.
        public var swapEntries: Int64?
        /// `oom_score_adj` (−1000…1000), where the layout has it.
        public var oomScoreAdj: Int?
        /// `oom_adj` (−17…15, Linux 2.6 layouts).
        public var oomAdj: Int?
        /// The command name (up to 15 bytes in the kernel; may hold blanks).
        public var name: String
        /// The 1-based line of the row in the input.
        public var line: Int
    }

    /// The process the report says was killed (`Killed process N (name) …`), with what that line
    /// states, and the process first chosen where an older kernel names it separately
    /// (`Kill process N (name) score S or sacrifice child`).
    public struct Victim: Sendable, Hashable {
        /// The killed process's pid.
        public var pid: Int
        /// Its command name.
        public var name: String
        /// `anon-rss`, `file-rss`, `shmem-rss` as printed, in KiB.
        public var anonymousKiB: Int64?, fileKiB: Int64?, sharedMemoryKiB: Int64?
        /// `total-vm` (or `vsz` on 2.6), in KiB.
        public var totalVMKiB: Int64?
        /// `pgtables`, in KiB (Linux 5.x and later).
        public var pageTablesKiB: Int64?
        /// `oom_score_adj` as printed on the kill line (Linux 5.x and later).
        public var oomScoreAdj: Int?
        /// The pid of the process chosen first, where the report names one (`Kill process …
        /// score S or sacrifice child`); a child of it may be the one killed.
        public var chosenPID: Int?
        /// The score printed with the chosen process (older kernels: `points × 1000 / totalpages`).
        public var chosenScore: Int64?
        /// Whether a memory cgroup's OOM killed it (`Memory cgroup out of memory: …`).
        public var byMemoryCgroup: Bool
        /// The 1-based line of `Killed process` in the input.
        public var line: Int
    }

    /// The 1-based line where the report starts and the last line that belongs to it.
    public var firstLine: Int, lastLine: Int
    /// The invoking task, when the report starts with its line.
    public var invokingTask: InvokingTask?
    /// The kernel release from the `CPU: … Not tainted 6.1.0-18-amd64 #1` line, such as `6.1.0-18-amd64`.
    public var kernelRelease: String?
    /// The constraint, when the report states it.
    public var constraint: Constraint?
    /// The memory cgroup that ran out (`oom_memcg=`, or `limit of …` before 4.19).
    public var oomMemoryCgroup: String?
    /// The victim's memory cgroup (`task_memcg=`, or `Task in …` before 4.19).
    public var taskMemoryCgroup: String?
    /// The memory cgroup's `memory: usage …, limit …` line, in bytes.
    public var cgroupUsage: Bytes?, cgroupLimit: Bytes?
    /// The `memory+swap: … limit …` (cgroup v1) or `swap: … limit …` (v2) limit, in bytes.
    public var cgroupMemorySwapLimit: Bytes?, cgroupSwapLimit: Bytes?
    /// `N pages RAM` and `N pages reserved` (`show_mem()`), in pages.
    public var pagesRAM: Int64?, pagesReserved: Int64?
    /// `free:N` of the `Mem-Info:` block, in pages.
    public var freePages: Int64?
    /// `Total swap = NkB` and `Free swap  = NkB`, in bytes.
    public var totalSwap: Bytes?, freeSwap: Bytes?
    /// The task table's column names, as its header prints them (without `pid`).
    public var columns: [String]
    /// The task table, in the order the kernel printed (and scanned) it.
    public var tasks: [Task]
    /// The killed process, when the report gets that far.
    public var victim: Victim?
    /// Whether the report has the `Task in … killed as a result of limit of …` line (before 4.19).
    public var hasLegacyMemoryCgroupLine = false
    /// Lines of other messages inside the report (another writer's console output, another CPU's
    /// printk), skipped.
    public var interleavedLines = 0
    /// Task rows a mail client or a blog wrapped over two lines, joined.
    public var joinedRows = 0
    /// What was wrong with the first few skipped lines inside the task table (`line 12: expected …`).
    public var skippedRows: [String] = []

    /// An empty report starting at `line`.
    ///
    /// - Complexity: O(1)
    public init(firstLine: Int) {
        self.firstLine = firstLine
        self.lastLine = firstLine
        self.columns = []
        self.tasks = []
    }
}

extension KernelOOMReport {
    /// The kernel's release as numbers (`6.1.0-18-amd64` → `[6, 1, 0]`), or `nil`.
    ///
    /// - Complexity: O(length of the release)
    public var kernelVersion: [Int]? {
        guard let release = kernelRelease else { return nil }
        let numbers = release.prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
        return numbers.count >= 2 ? numbers : nil
    }

    /// The bytes of one page: from the victim's kill line (its `anon-rss + file-rss + shmem-rss`
    /// in KiB against its `rss` pages in the table) when that gives 4, 16 or 64 KiB, else 4 KiB.
    ///
    /// - Complexity: O(tasks)
    public var pageSize: Int64 { derivedPageSize ?? 4096 }

    /// ``pageSize`` when the report shows it, else `nil` (4 KiB is then assumed).
    ///
    /// - Complexity: O(tasks)
    public var derivedPageSize: Int64? {
        guard let victim, let anonymous = victim.anonymousKiB, let file = victim.fileKiB,
            let row = tasks.last(where: { $0.pid == victim.pid }), row.residentPages > 0
        else { return nil }
        let kib = anonymous + file + (victim.sharedMemoryKiB ?? 0)
        for size: Int64 in [4, 16, 64] where kib == row.residentPages * size { return size * 1024 }
        return nil
    }

    /// The task-table row of the killed process (the last row with its pid), if both are present.
    ///
    /// - Complexity: O(tasks)
    public var victimTask: Task? {
        guard let victim else { return nil }
        return tasks.last { $0.pid == victim.pid }
    }
}
