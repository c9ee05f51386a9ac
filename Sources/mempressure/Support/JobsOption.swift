import ArgumentParser
import Foundation

/// `--jobs`: how many runs `compare` and `sweep` make at once.
struct JobsOption: ParsableArguments {
    @Option(
        name: .customLong("jobs"),
        parsing: .unconditional,
        help: ArgumentHelp("How many runs at once: 1...256. (default: the number of cores)", valueName: "n"))
    var given: Int?

    /// How many runs at once: `--jobs`, or one per core.
    var parallelism: Int { given ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws { try OptionRange.check(given, in: 1...256, "--jobs") }
}
