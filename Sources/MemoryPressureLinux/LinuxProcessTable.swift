/// The user-space processes of a machine (or fixture tree) at one moment, with the entries that
/// were skipped and why.
public struct LinuxProcessTable: Hashable, Sendable {
    /// The processes read, by increasing pid.
    public var processes: [LinuxProcess]
    /// The entries left out (kernel threads, zombies, vanished, unreadable or garbled ones), by
    /// increasing pid.
    public var skipped: [SkippedProcess]

    /// A table from its parts.
    ///
    /// - Complexity: O(1)
    public init(processes: [LinuxProcess], skipped: [SkippedProcess] = []) {
        self.processes = processes
        self.skipped = skipped
    }

    /// Reads every `/proc/<pid>` entry of `fileSystem`. Entries that cannot be read whole are
    /// skipped, never failing the read: processes come and go while it runs.
    ///
    /// Per entry it reads `status` and `oom_score_adj`, and `oom_score` when
    /// `includingKernelScores` (the kernel's score, ``LinuxProcess/kernelOOMScore``, kept for
    /// comparison: no policy ranks by it, so the live kill order leaves it out), with one reused
    /// buffer and no `String` per file (see `ProcScanner`). A child of `kthreadd` without an
    /// executable (one `readlink` of `/proc/<pid>/exe`) is skipped as a kernel thread without
    /// reading its files: the same verdict its `status` would give (`Kthread: 1`, or no `VmRSS`
    /// line), except that a process vanishing between the listing and that `readlink` is
    /// reported as a kernel thread rather than as vanished.
    ///
    /// - Complexity: O(n) file reads for n entries, plus O(n log n) to list them.
    public static func read(from fileSystem: ProcFileSystem = .live, includingKernelScores: Bool = true)
        -> LinuxProcessTable
    {
        var table = LinuxProcessTable(processes: [], skipped: [])
        let scanner = ProcScanner(procRoot: fileSystem.procRoot)
        let ids = scanner.processIDs()
        let kernelThreads = scanner.kernelThreadCandidates()
        var nextKernelThread = 0
        table.processes.reserveCapacity(ids.count)
        for pid in ids {
            while nextKernelThread < kernelThreads.count && kernelThreads[nextKernelThread] < pid.rawValue {
                nextKernelThread += 1
            }
            if nextKernelThread < kernelThreads.count && kernelThreads[nextKernelThread] == pid.rawValue
                && scanner.hasNoExecutable(pid: pid.rawValue)
            {
                table.skipped.append(SkippedProcess(pid: pid, reason: .kernelThread))
                continue
            }
            do { table.processes.append(try scanner.process(pid, includingKernelScore: includingKernelScores)) } catch {
                table.skipped.append(error)
            }
        }
        return table
    }

    /// The process with id `pid`, if it was read.
    ///
    /// - Complexity: O(log n)
    public func process(_ pid: ProcessID) -> LinuxProcess? {
        var low = 0
        var high = processes.count
        while low < high {
            let middle = (low + high) / 2
            if processes[middle].pid < pid { low = middle + 1 } else { high = middle }
        }
        return low < processes.count && processes[low].pid == pid ? processes[low] : nil
    }
}
