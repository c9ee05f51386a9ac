import Testing
import TestSupport

/// Every command's `--help`, pinned by a golden file (`Tests/Golden/help/`): a change to an
/// option, its range or its default shows up here, to be checked and accepted with
/// `UPDATE_GOLDEN=1`. The width is fixed by `COLUMNS`, which swift-argument-parser reads first.
@Suite("--help text")
struct HelpTextTests {
    @Test(
        "every command's --help is its golden file, at 100 columns",
        arguments: [
            [], ["compare"], ["simulate"], ["kill-order"], ["replay"], ["watch"], ["policy"], ["policy", "list"],
            ["policy", "show"], ["policy", "validate"], ["workload"], ["workload", "list"], ["workload", "show"],
            ["profile"], ["sweep"], ["merge"], ["experiment"],
        ])
    func pinned(command: [String]) throws {
        let result = try runMempressure(command + ["--help"], environment: ["COLUMNS": "100"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        let name = command.isEmpty ? "mempressure" : command.joined(separator: "-")
        let mismatch = goldenMismatch(result.standardOutput, "help/\(name).txt")
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }
}
