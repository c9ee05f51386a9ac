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

    @Option(
        name: .customLong("usage-log-format"),
        help: ArgumentHelp(
            "With --usage-log, its layout: auto (from the first line), events (a header with an event column), "
                + "polled (TIME,PACKAGE foreground samples), app-usage (an App Usage export; the date order from "
                + "the dates), app-usage-month-first or app-usage-day-first. (default: auto)",
            valueName: "format"))
    var formatGiven: UsageLogFormatOption?

    /// What one sample is: `--sample`, or a user's day.
    var sample: UsageLogImport.Sampling { given ?? .day }

    /// The layout `--usage-log-format` forces, or `nil` to detect it.
    var format: UsageLogFormat? { formatGiven.flatMap { UsageLogFormat(name: $0.rawValue) } }

    /// Whether an option of this group was given (each needs `--usage-log`).
    var anyGiven: Bool { given != nil || formatGiven != nil }
}

/// `--usage-log-format`'s values: `auto` and ``UsageLogFormat/names``.
enum UsageLogFormatOption: String, CaseIterable, ExpressibleByArgument {
    case auto
    case events
    case polled
    case appUsage = "app-usage"
    case appUsageMonthFirst = "app-usage-month-first"
    case appUsageDayFirst = "app-usage-day-first"
}
