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
        func skip(_ reason: SkippedProcess.Reason) -> SkippedProcess {
            SkippedProcess(pid: pid, reason: reason)
        }
        let directory = "\(pid)/"
        let statusText: String
        switch fileSystem.contents(of: directory + "status") {
        case .contents(let text): statusText = text
        case .missing: throw skip(.vanished)
        case .unreadable(let code): throw skip(.unreadable(file: "status", errno: code))
        }
        let status: Status
        do { status = try Status.parse(statusText) } catch {
            throw skip(.malformed(file: "status", field: error.field))
        }
        if status.isKernelThread { throw skip(.kernelThread) }
        guard let resident = status.resident else {
            throw skip(status.isZombie ? .zombie : .kernelThread)
        }

        let adjustment: Int
        switch fileSystem.contents(of: directory + "oom_score_adj") {
        case .contents(let text):
            guard let value = Int(ProcText.trimmed(text)), (-1000...1000).contains(value) else {
                throw skip(.malformed(file: "oom_score_adj", field: "an integer from -1000 to 1000"))
            }
            adjustment = value
        case .missing: throw skip(.vanished)
        case .unreadable(let code): throw skip(.unreadable(file: "oom_score_adj", errno: code))
        }
        let kernelScore = fileSystem.read(directory + "oom_score").flatMap { Int(ProcText.trimmed($0)) }

        return LinuxProcess(
            pid: pid, name: status.name ?? "", uid: status.uid, resident: resident,
            swap: status.swap ?? .zero, pageTables: status.pageTables ?? .zero,
            oomScoreAdj: adjustment, kernelOOMScore: kernelScore
        )
    }

    /// The fields of `/proc/<pid>/status` this module uses.
    struct Status {
        var name: String?
        var uid: UInt32?
        var resident: Bytes?
        var swap: Bytes?
        var pageTables: Bytes?
        var isKernelThread = false
        var isZombie = false

        /// A garbled field of a status file.
        struct GarbledField: Error {
            var field: String
        }

        /// Parses a status file; fails with the name of the first garbled field.
        static func parse(_ text: String) throws(GarbledField) -> Status {
            var status = Status()
            for (_, line) in ProcText.numberedLines(text) {
                guard let (key, value) = ProcText.keyValue(line) else { continue }
                switch key {
                case "Name":
                    status.name = String(value)
                case "State":
                    status.isZombie = value.hasPrefix("Z")
                case "Kthread":
                    status.isKernelThread = value == "1"
                case "Uid":
                    guard let first = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
                        let uid = UInt32(first)
                    else { throw GarbledField(field: "Uid") }
                    status.uid = uid
                case "VmRSS", "VmSwap", "VmPTE":
                    guard let bytes = ProcText.kilobytes(value) else { throw GarbledField(field: String(key)) }
                    switch key {
                    case "VmRSS": status.resident = bytes
                    case "VmSwap": status.swap = bytes
                    default: status.pageTables = bytes
                    }
                default:
                    continue
                }
            }
            return status
        }
    }
}
