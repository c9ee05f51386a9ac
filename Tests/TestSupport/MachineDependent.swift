import Foundation
import Testing

extension Tag {
    /// Tests that depend on the machine they run on: the live `/proc`, the installed `earlyoom`,
    /// child processes holding hundreds of MiB. They run when `MEMORYPRESSURE_MACHINE_TESTS=1`
    /// (`make test-machine`, a separate CI step), not in `make test`.
    @Tag public static var machine: Self
}

/// Whether the machine-dependent tests (``Testing/Tag/machine``) run in this process.
public enum MachineTests {
    /// True when `MEMORYPRESSURE_MACHINE_TESTS=1` is set.
    public static let areEnabled = ProcessInfo.processInfo.environment["MEMORYPRESSURE_MACHINE_TESTS"] == "1"

    /// Why they are skipped otherwise.
    public static let skipped: Comment =
        "depends on the machine (live /proc, earlyoom, child processes holding hundreds of MiB): run with `make test-machine`"
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when the machine-dependent tests are enabled (``MachineTests``); use
    /// with `.tags(.machine)`.
    public static var machineDependent: Self { .enabled(if: MachineTests.areEnabled, MachineTests.skipped) }
}
