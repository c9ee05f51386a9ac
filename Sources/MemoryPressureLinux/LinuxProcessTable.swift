/// The user-space processes of a machine (or fixture tree) at one moment, with the entries that
/// were skipped and why.
public struct LinuxProcessTable: Hashable, Sendable {
    /// The processes read, by increasing pid.
    public var processes: [LinuxProcess]
    /// The entries left out (kernel threads, zombies, vanished, unreadable or garbled ones), by
    /// increasing pid.
    public var skipped: [SkippedProcess]

    /// A table from its parts.
    public init(processes: [LinuxProcess], skipped: [SkippedProcess] = []) {
        self.processes = processes
        self.skipped = skipped
    }

    /// Reads every `/proc/<pid>` entry of `fileSystem`. Entries that cannot be read whole are
    /// skipped, never failing the read: processes come and go while it runs.
    ///
    /// - Complexity: O(n) file reads for n entries, plus O(n log n) to list them.
    public static func read(from fileSystem: ProcFileSystem = .live) -> LinuxProcessTable {
        var table = LinuxProcessTable(processes: [], skipped: [])
        let ids = fileSystem.processIDs()
        table.processes.reserveCapacity(ids.count)
        for pid in ids {
            do { table.processes.append(try LinuxProcess.read(pid, from: fileSystem)) } catch {
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
