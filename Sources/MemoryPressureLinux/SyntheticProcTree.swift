import MemoryPressure

/// Writes synthetic `/proc` fixture trees of any size (for example 10,000 processes for the
/// process-table benchmark), reproducibly from a seed.
///
/// The tree is laid out like a machine's root (read it with ``ProcFileSystem/fixture(root:pageSize:)``):
/// `proc/meminfo`, `proc/pressure/memory`, `proc/self/cgroup`, `sys/fs/cgroup/…` (cgroup v2,
/// `memory.current` = the processes' resident total, `memory.max` = `max`) and, per process,
/// `proc/<pid>/status`, `oom_score_adj` and `oom_score` (computed with ``LinuxOOMBadness``).
/// About `kernelThreadShare` of the entries are kernel threads (`Kthread: 1`, no `Vm*` lines),
/// which readers skip. Resident sizes are spread over powers of two from 256 KiB to 256 MiB (times
/// 1 to 2), a fifth of the processes have swap, and `oom_score_adj` mixes 0, Android-style bands (100 … 999) and a
/// few -1000. `MemTotal` is 1.25 × the resident total (at least 1 GiB), `SwapTotal` 2 GiB.
public enum SyntheticProcTree {
    /// Writes a tree of `count` process entries under `directory` (created if needed; existing
    /// files are overwritten). Same `count`, `seed` and share ⇒ byte-identical tree.
    ///
    /// Writing is I/O-bound (three files and a directory per entry, no `fsync`): a tmpfs such as
    /// `/dev/shm` is much faster than a disk for large trees.
    ///
    /// - Returns: a file system reading the tree (4 KiB pages).
    /// - Throws: ``SyntheticProcTreeError`` naming the path that could not be created or written.
    /// - Complexity: O(count) files written.
    @discardableResult
    public static func write(
        to directory: String, count: Int, seed: UInt64, kernelThreadShare: Double = 0.02
    ) throws(SyntheticProcTreeError) -> ProcFileSystem {
        precondition(count >= 0, "count \(count): expected zero or more processes")
        var generator = TreeGenerator(seed: seed)
        let pageSize = 4096
        let names = [
            "bash", "python3", "node", "java", "postgres", "nginx", "chrome", "code", "redis-server", "swift-frontend",
        ]
        var entries: [(pid: Int32, process: LinuxProcess?)] = []
        var pid: Int32 = 1
        for index in 0..<count {
            if index > 0 { pid += Int32(1 + generator.next() % 8) }
            if index > 0 && generator.unit() < kernelThreadShare {
                entries.append((pid, nil))
                continue
            }
            let residentKiB = Int64(Double(256 << (generator.next() % 11)) * (1 + generator.unit())) / 4 * 4
            let swapKiB = generator.unit() < 0.2 ? Int64(generator.unit() * Double(residentKiB) / 2) / 4 * 4 : 0
            let tableKiB = max(4, residentKiB / 512 / 4 * 4)
            let roll = generator.unit()
            let adjustment =
                index == 0
                ? 0
                : roll < 0.6
                    ? 0 : roll < 0.62 ? -1000 : 100 * Int(1 + generator.next() % 9) + Int(generator.next() % 100)
            let name = names[Int(generator.next() % UInt64(names.count))]
            entries.append(
                (
                    pid,
                    LinuxProcess(
                        pid: ProcessID(rawValue: pid), name: name, uid: UInt32(generator.next() % 2) * 1000,
                        resident: Bytes(residentKiB * 1024), swap: Bytes(swapKiB * 1024),
                        pageTables: Bytes(tableKiB * 1024), oomScoreAdj: adjustment)
                ))
        }
        let residentTotal = entries.compactMap(\.process).reduce(Int64(0)) { $0 + $1.resident.value }
        let memTotalKiB = max(1 << 20, residentTotal / 1024 * 5 / 4) / 4 * 4
        let swapTotalKiB: Int64 = 2 << 20
        let memory = LinuxMemoryInfo(
            total: Bytes(memTotalKiB * 1024), available: Bytes(memTotalKiB * 1024 - residentTotal),
            free: Bytes((memTotalKiB * 1024 - residentTotal) / 2), swapTotal: Bytes(swapTotalKiB * 1024),
            swapFree: Bytes(swapTotalKiB * 1024))
        let totalPages = LinuxOOMBadness.totalPages(of: memory, pageSize: pageSize)

        let proc = directory + "/proc"
        for subdirectory in [proc + "/pressure", proc + "/self", directory + "/sys/fs/cgroup/synthetic.slice"] {
            try makeDirectories(subdirectory)
        }
        try write(meminfo(memory), to: proc + "/meminfo")
        try write(
            "some avg10=1.25 avg60=0.50 avg300=0.10 total=123456\nfull avg10=0.25 avg60=0.10 avg300=0.02 total=23456\n",
            to: proc + "/pressure/memory")
        try write("0::/synthetic.slice\n", to: proc + "/self/cgroup")
        try write("cpu io memory pids\n", to: directory + "/sys/fs/cgroup/cgroup.controllers")
        try write("\(residentTotal)\n", to: directory + "/sys/fs/cgroup/synthetic.slice/memory.current")
        try write("max\n", to: directory + "/sys/fs/cgroup/synthetic.slice/memory.max")

        for (pid, process) in entries {
            let entry = proc + "/\(pid)"
            try makeDirectories(entry)
            guard let process else {
                try write(kernelThreadStatus(pid: pid), to: entry + "/status")
                try write("0\n", to: entry + "/oom_score_adj")
                try write("0\n", to: entry + "/oom_score")
                continue
            }
            let points = LinuxOOMBadness.points(of: process, totalPages: totalPages, pageSize: pageSize)
            try write(status(process), to: entry + "/status")
            try write("\(process.oomScoreAdj)\n", to: entry + "/oom_score_adj")
            try write("\(LinuxOOMBadness.oomScore(points: points, totalPages: totalPages))\n", to: entry + "/oom_score")
        }
        return .fixture(root: directory, pageSize: pageSize)
    }

    /// `text` written to `path` (not atomically: fixtures are written once, then read).
    private static func write(_ text: String, to path: String) throws(SyntheticProcTreeError) {
        if let code = SystemCalls.writeFile(path, text) { throw .cannotWrite(path: path, errno: code) }
    }

    /// Directory `path` and its missing parents created.
    private static func makeDirectories(_ path: String) throws(SyntheticProcTreeError) {
        if let code = SystemCalls.makeDirectories(path) { throw .cannotCreateDirectory(path: path, errno: code) }
    }

    /// A `/proc/meminfo` with the usual leading lines.
    private static func meminfo(_ memory: LinuxMemoryInfo) -> String {
        func line(_ key: String, _ bytes: Bytes) -> String {
            let padded = key + ":" + String(repeating: " ", count: max(1, 16 - key.count - 1))
            let number = String(bytes.value / 1024)
            return padded + String(repeating: " ", count: max(0, 8 - number.count)) + number + " kB\n"
        }
        return line("MemTotal", memory.total) + line("MemFree", memory.free) + line("MemAvailable", memory.available)
            + line("Buffers", .zero) + line("Cached", Bytes(memory.total.value / 10)) + line("SwapCached", .zero)
            + line("SwapTotal", memory.swapTotal) + line("SwapFree", memory.swapFree) + "HugePages_Total:       0\n"
    }

    /// A user process's `/proc/<pid>/status`, shaped like Linux 6.x's.
    private static func status(_ process: LinuxProcess) -> String {
        let rss = process.resident.value / 1024
        return """
            Name:\t\(process.name)
            Umask:\t0022
            State:\tS (sleeping)
            Tgid:\t\(process.pid)
            Pid:\t\(process.pid)
            PPid:\t1
            Uid:\t\(process.uid ?? 0)\t\(process.uid ?? 0)\t\(process.uid ?? 0)\t\(process.uid ?? 0)
            Kthread:\t0
            VmPeak:\t\(rss * 3) kB
            VmSize:\t\(rss * 2) kB
            VmHWM:\t\(rss) kB
            VmRSS:\t\(rss) kB
            RssAnon:\t\(rss * 3 / 4) kB
            RssFile:\t\(rss - rss * 3 / 4) kB
            RssShmem:\t0 kB
            VmPTE:\t\(process.pageTables.value / 1024) kB
            VmSwap:\t\(process.swap.value / 1024) kB
            Threads:\t1

            """
    }

    /// A kernel thread's `/proc/<pid>/status`: no `Vm*` lines.
    private static func kernelThreadStatus(pid: Int32) -> String {
        "Name:\tkworker/\(pid % 64):0\nUmask:\t0000\nState:\tI (idle)\nTgid:\t\(pid)\nPid:\t\(pid)\nPPid:\t2\n"
            + "Uid:\t0\t0\t0\t0\nKthread:\t1\nThreads:\t1\n"
    }
}

/// SplitMix64 (Steele, Lea and Flood), the same sequence as MemoryPressureSimulation's
/// `SeededGenerator`, kept here so the /proc module needs neither the simulation module nor its
/// dependencies: the same seed still writes the same tree.
private struct TreeGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
