import MemoryPressure

/// One user-space process of the live process table, with what the Linux OOM killer weighs.
public struct LinuxProcess: Hashable, Sendable {
    /// Its id.
    public var pid: ProcessID
    /// Its name (`Name:` in `/proc/<pid>/status`, the kernel's `comm`, at most 15 characters).
    public var name: String
    /// Its real user id (`Uid:`), if the status file gives one.
    public var uid: UInt32?
    /// Resident memory (`VmRSS`: anonymous, file-backed and shared-memory pages).
    public var resident: Bytes
    /// Swapped-out memory (`VmSwap`; zero if the kernel does not report it).
    public var swap: Bytes
    /// Memory in its page tables (`VmPTE`; zero if the kernel does not report it).
    public var pageTables: Bytes
    /// Its OOM-killer adjustment (`/proc/<pid>/oom_score_adj`), -1000 (never kill) ... 1000.
    public var oomScoreAdj: Int
    /// The kernel's own score (`/proc/<pid>/oom_score`, 0 ... 2000 since Linux 5.9), for
    /// comparison; `nil` if it could not be read.
    public var kernelOOMScore: Int?

    /// A process record from its parts; see each property.
    ///
    /// - Complexity: O(1)
    public init(
        pid: ProcessID, name: String, uid: UInt32? = nil, resident: Bytes, swap: Bytes = .zero,
        pageTables: Bytes = .zero, oomScoreAdj: Int = 0, kernelOOMScore: Int? = nil
    ) {
        self.pid = pid
        self.name = name
        self.uid = uid
        self.resident = resident
        self.swap = swap
        self.pageTables = pageTables
        self.oomScoreAdj = oomScoreAdj
        self.kernelOOMScore = kernelOOMScore
    }
}
