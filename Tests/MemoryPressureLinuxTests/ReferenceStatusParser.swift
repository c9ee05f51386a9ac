import MemoryPressure

@testable import MemoryPressureLinux

/// The `String` parsers the `/proc/<pid>` reader used before it parsed bytes in place
/// (`LinuxProcess.Status.parse` and `Int(ProcText.trimmed(text))`, as of commit f9b377b), kept
/// verbatim as the reference the byte parsers (``ProcBytes``) are checked against.
enum ReferenceStatusParser {
    // Its line, key-value, kB and trimming helpers are ProcText's, which the meminfo and cgroup
    // readers still use unchanged.

    /// An integer file (`oom_score_adj`, `oom_score`) as the old reader read it.
    static func integer(_ text: String) -> Int? { Int(ProcText.trimmed(text)) }

    /// A status file as the old reader parsed it; fails with the name of the first garbled field.
    static func status(_ text: String) throws(LinuxProcess.Status.GarbledField) -> LinuxProcess.Status {
        var status = LinuxProcess.Status()
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
                else { throw .init(field: "Uid") }
                status.uid = uid
            case "VmRSS", "VmSwap", "VmPTE":
                guard let bytes = ProcText.kilobytes(value) else { throw .init(field: String(key)) }
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
