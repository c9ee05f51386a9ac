import ArgumentParser

/// The `mempressure` command: who dies next, and why.
@main
struct Mempressure: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mempressure",
        abstract: "A memory-pressure and purge policy engine: warn, purge, and pick who dies next.",
        discussion: """
            Exit codes: 0 success, 64 bad usage, 65 malformed input, 66 input not found or \
            unreadable, 71 allocator failure (simulate --real-memory), 74 output not writable.
            """,
        version: BuildVersion.line,
        subcommands: [
            CompareCommand.self, SimulateCommand.self, KillOrderCommand.self, ReplayCommand.self, WatchCommand.self,
            PolicyCommand.self, WorkloadCommand.self, ProfileCommand.self, SweepCommand.self, MergeCommand.self,
            ExperimentCommand.self,
        ]
    )
}
