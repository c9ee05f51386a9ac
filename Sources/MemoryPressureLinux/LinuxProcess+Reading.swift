import MemoryPressure

extension LinuxProcess {
    /// Reads process `pid` from `/proc/<pid>/status`, `oom_score_adj` and `oom_score`.
    ///
    /// - Throws: why the process has to be skipped (kernel thread, zombie, vanished, unreadable,
    ///   malformed): a process can vanish at any moment, so callers reading many skip it and go on.
    /// - Complexity: O(size of its status file).
    public static func read(_ pid: ProcessID, from fileSystem: ProcFileSystem = .live) throws(SkippedProcess)
        -> LinuxProcess
    {
        try ProcScanner(procRoot: fileSystem.procRoot).process(pid, includingKernelScore: true)
    }

    /// The fields of `/proc/<pid>/status` this module uses.
    struct Status: Equatable {
        var name: String?
        var uid: UInt32?
        var resident: Bytes?
        var swap: Bytes?
        var pageTables: Bytes?
        var isKernelThread = false
        var isZombie = false

        /// A garbled field of a status file.
        struct GarbledField: Error, Equatable {
            var field: String
        }
    }
}

extension ProcScanner {
    /// Reads process `pid`: `status` (parsed in place by ``ProcBytes/status(_:)``), then
    /// `oom_score_adj`, then — only if `includingKernelScore` — `oom_score`, each into the
    /// scanner's reused buffer.
    ///
    /// - Throws: why the process is skipped, as ``LinuxProcess/read(_:from:)`` says.
    /// - Complexity: O(size of its status file).
    func process(_ pid: ProcessID, includingKernelScore: Bool) throws(SkippedProcess) -> LinuxProcess {
        func skip(_ reason: SkippedProcess.Reason) -> SkippedProcess {
            SkippedProcess(pid: pid, reason: reason)
        }
        let status: LinuxProcess.Status
        switch read(pid: pid.rawValue, file: "status") {
        case .read(let count):
            do { status = try ProcBytes.status(contents(count)) } catch {
                throw skip(.malformed(file: "status", field: error.field))
            }
        case .missing: throw skip(.vanished)
        case .unreadable(let code): throw skip(.unreadable(file: "status", errno: code))
        }
        if status.isKernelThread { throw skip(.kernelThread) }
        guard let resident = status.resident else {
            throw skip(status.isZombie ? .zombie : .kernelThread)
        }

        let adjustment: Int
        switch read(pid: pid.rawValue, file: "oom_score_adj") {
        case .read(let count):
            guard let value = ProcBytes.trimmedInteger(contents(count)), (-1000...1000).contains(value) else {
                throw skip(.malformed(file: "oom_score_adj", field: "an integer from -1000 to 1000"))
            }
            adjustment = value
        case .missing: throw skip(.vanished)
        case .unreadable(let code): throw skip(.unreadable(file: "oom_score_adj", errno: code))
        }
        var kernelScore: Int?
        if includingKernelScore, case .read(let count) = read(pid: pid.rawValue, file: "oom_score") {
            kernelScore = ProcBytes.trimmedInteger(contents(count))
        }

        return LinuxProcess(
            pid: pid, name: status.name ?? "", uid: status.uid, resident: resident,
            swap: status.swap ?? .zero, pageTables: status.pageTables ?? .zero,
            oomScoreAdj: adjustment, kernelOOMScore: kernelScore
        )
    }
}
