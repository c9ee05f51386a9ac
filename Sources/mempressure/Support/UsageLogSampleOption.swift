import ArgumentParser
import MemoryPressureSimulation

/// `--sample`: what one sample of a usage log is, shared by the commands that read usage logs
/// (`simulate`, `compare` and `profile` through ``WorkloadOptions``, and `sweep`).
struct UsageLogSampleOption: ParsableArguments {
    @Option(
        name: .customLong("sample"),
        help: ArgumentHelp(
            "With --usage-log, what one sample is: day (each user's day, from local midnight) or user (each user's "
                + "whole log). (default: day)"))
    var given: UsageLogImport.Sampling?

    /// What one sample is: `--sample`, or a user's day.
    var sample: UsageLogImport.Sampling { given ?? .day }
}
