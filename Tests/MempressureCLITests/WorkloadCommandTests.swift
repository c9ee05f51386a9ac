import MemoryPressureSimulation
import Testing
import TestSupport

/// `mempressure workload list` and `workload show`: the built-in workloads, and the shipped
/// workload file with the source of every value.
@Suite("workload command")
struct WorkloadCommandTests {
    @Test("workload show prints the shipped file as compiled in, and it loads back as the built-in workload")
    func show() throws {
        let result = try runMempressure(["workload", "show", "phone-2024"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == Workload.shippedSource("phone-2024"))
        #expect(result.standardOutput.contains("[Ariadne]"))
        #expect(try Workload(yaml: result.standardOutput, file: "shown.yaml") == Workload.phone2024)
    }

    @Test("workload show refuses a workload defined in code, naming the shipped ones (exit 64)")
    func showUnknown() throws {
        let result = try runMempressure(["workload", "show", "phone"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("phone-2024"))
    }

    @Test("workload list names every built-in workload and says which are shipped files")
    func list() throws {
        let result = try runMempressure(["workload", "list"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == Workload.builtIn.count)
        #expect(lines.contains("phone-2024 (a shipped file: workload show phone-2024)"))
        #expect(lines.contains("phone (defined in code)"))
    }
}
