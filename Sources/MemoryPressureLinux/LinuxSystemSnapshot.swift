/// Everything this module reads about a Linux machine at one moment: memory totals, pressure
/// stall information, the cgroup's memory, and the process table. Read-only: reading it never
/// changes the machine.
public struct LinuxSystemSnapshot: Hashable, Sendable {
    /// `/proc/meminfo`.
    public var memory: LinuxMemoryInfo
    /// `/proc/pressure/memory`, if the kernel has PSI.
    public var pressure: MemoryPressureStall?
    /// This process's cgroup memory, if it has memory files.
    public var cgroup: CgroupMemory?
    /// The user-space processes.
    public var processes: LinuxProcessTable
    /// The page size of the machine, in bytes.
    public var pageSize: Int
    /// A process left out of the ranking: this tool's own process when the live `/proc` is read
    /// (it would otherwise rank itself; earlyoom's `find_largest_process()` likewise refuses to
    /// pick its own pid). `nil` for fixture trees.
    public var excludedProcessID: ProcessID? = nil

    /// A snapshot from its parts; see each property.
    ///
    /// - Complexity: O(1)
    public init(
        memory: LinuxMemoryInfo, pressure: MemoryPressureStall?, cgroup: CgroupMemory?,
        processes: LinuxProcessTable, pageSize: Int
    ) {
        self.memory = memory
        self.pressure = pressure
        self.cgroup = cgroup
        self.processes = processes
        self.pageSize = pageSize
    }

    /// The OOM killer's `totalpages`: RAM plus swap, in pages.
    ///
    /// - Complexity: O(1)
    public var totalPages: Int { LinuxOOMBadness.totalPages(of: memory, pageSize: pageSize) }

    /// Reads the machine (or fixture tree) behind `fileSystem`.
    ///
    /// - Throws: ``LinuxReadError`` only for the machine-wide files (`meminfo`, `pressure/memory`,
    ///   cgroup files); per-process problems only skip that process.
    /// - Complexity: O(number of processes) file reads.
    /// On the live `/proc`, this process is left out of the ranking (``excludedProcessID``).
    /// `includingKernelScores` reads each process's `oom_score` too
    /// (``LinuxProcess/kernelOOMScore``; see ``LinuxProcessTable/read(from:includingKernelScores:)``).
    public static func read(from fileSystem: ProcFileSystem = .live, includingKernelScores: Bool = true)
        throws(LinuxReadError) -> LinuxSystemSnapshot
    {
        var snapshot = LinuxSystemSnapshot(
            memory: try LinuxMemoryInfo.read(from: fileSystem),
            pressure: try MemoryPressureStall.read(from: fileSystem),
            cgroup: try CgroupMemory.read(from: fileSystem),
            processes: LinuxProcessTable.read(from: fileSystem, includingKernelScores: includingKernelScores),
            pageSize: fileSystem.pageSize
        )
        if fileSystem == .live { snapshot.excludedProcessID = ProcessID(rawValue: SystemCalls.currentProcessID()) }
        return snapshot
    }

    /// The process left out of the ranking, if it was read (this tool's own, on the live `/proc`).
    public var excludedProcess: LinuxProcess? {
        guard let excludedProcessID else { return nil }
        return processes.processes.first { $0.pid == excludedProcessID }
    }
}
