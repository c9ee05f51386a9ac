import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// `mempressure sweep`: policies × parameters × samples, in one run or in shards merged later.
struct SweepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run policies over a grid of parameters (memory, thresholds, workload) on the same samples.",
        discussion: """
            The grid is every combination of the values of --param NAME=v1,v2,… (repeatable) or of \
            the parameters of a sweep file (--sweep FILE); each cell is a compare at those values: \
            every deterministic metric's mean with its 95 % interval and the paired differences \
            against the baseline. Wall-clock figures are left out, so results are byte-identical \
            however they are computed.

            --shard i/n runs the i-th of n slices of the work and writes a part (to standard output \
            or --output); `mempressure merge` of all n parts prints what the unsharded run prints.

            Parameters: \(SweepParameter.supported.map(\.name).joined(separator: ", ")). With \
            --usage-log only memory, reserved and policy.* apply.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Policies, comma-separated names or files; oracle is the clairvoyant reference with ios4's lifecycle, "
                + "oracle@P the one with the lifecycle of the policy P (a name or a file), predictive@P P with "
                + "predictive's learnt victim choice. (default: every shipped policy and oracle)",
            valueName: "a,b,…"))
    var policies: [String] = []

    @Option(
        name: .customLong("param"),
        help: ArgumentHelp(
            "A swept parameter and its values, such as memory=256MiB,512MiB,1GiB (repeatable).",
            valueName: "name=v1,v2,…"))
    var parameters: [String] = []

    @Option(
        name: .customLong("sweep"),
        help: ArgumentHelp(
            "A sweep file (YAML): parameters, and optionally policies, seeds, baseline.", valueName: "file"))
    var sweepFile: String?

    @OptionGroup var workload: WorkloadShapeOptions

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Real app-usage logs (files or directories of them; CSV/TSV as compare reads): each user-day (or user, "
                + "with --sample user) of each file is one sample.",
            valueName: "path"))
    var usageLog: [String] = []

    @OptionGroup var sampling: UsageLogSampleOption

    /// What one sample of a usage log is: `--sample`, or a user's day.
    private var sample: UsageLogImport.Sampling { sampling.sample }

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many seeds (generated samples): 1...10000. (default: 30, or the sweep file's)", valueName: "n"))
    var seeds: Int?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("The first seed (0...2^63-1). (default: 1)", valueName: "s"))
    var firstSeed: UInt64?

    @Option(
        help: ArgumentHelp(
            "The baseline of the paired differences. (default: in each cell, the real killer with the lowest mean launch wait)",
            valueName: "name"))
    var baseline: String?

    @Option(help: ArgumentHelp("Run only slice i of n and write a part for `mempressure merge`.", valueName: "i/n"))
    var shard: String?

    @Option(
        help: ArgumentHelp("Write the part (or the report) to this file instead of standard output.", valueName: "file")
    )
    var output: String?

    @Option(help: "Output format: table, json or csv (default: table; a shard writes a part).")
    var format: Format?

    @OptionGroup var chart: SweepChartOptions

    @OptionGroup var jobs: JobsOption

    /// How many runs at once: `--jobs`, or one per core.
    private var parallelism: Int { jobs.parallelism }

    func validate() throws {
        try OptionRange.checkSeeds(seeds)
        try OptionRange.checkFirstSeed(firstSeed)
        if shard != nil && chart.svg != nil {
            throw ValidationError("--svg draws a whole sweep: give it to merge, not to a shard")
        }
        if shard != nil && format != nil {
            throw ValidationError(
                "--format applies to a whole sweep's report: a shard writes a part; give --format to merge")
        }
        if !usageLog.isEmpty && (seeds != nil || firstSeed != nil) {
            let given = seeds != nil ? "--seeds" : "--first-seed"
            throw ValidationError(WorkloadShapeOptions.seedOptionWithFiles("--usage-log", given))
        }
        if !policies.isEmpty && policyNames.isEmpty {
            throw ValidationError("--policies: expected policy names separated by commas")
        }
        if !usageLog.isEmpty && workload.apps != nil { throw ValidationError(WorkloadShapeOptions.appsWithUsageLog) }
        if !usageLog.isEmpty && workload.maxActionsGiven != nil {
            throw ValidationError(WorkloadShapeOptions.maxActionsWithFiles("--usage-log"))
        }
        if usageLog.isEmpty && sampling.formatGiven != nil {
            throw ValidationError(WorkloadShapeOptions.formatWithoutUsageLog)
        }
        if usageLog.isEmpty && sampling.given != nil {
            throw ValidationError(WorkloadShapeOptions.sampleWithoutUsageLog)
        }
    }

    func run() async throws {
        try await reportingErrorsAsync {
            let shard =
                try shard.map { text in
                    do throws(SweepError) { return try SweepShard(parsing: text) } catch {
                        throw CLIError.usage(error.message)
                    }
                } ?? .whole
            let file = try sweepFile.map { path in
                let text = try InputFile.read(path)
                do throws(InputError) {
                    return try SweepFile(yaml: text, file: InputFile.displayName(path))
                } catch {
                    throw CLIError.malformed(error.description)
                }
            }
            var grid = file?.parameters ?? []
            for text in parameters {
                do throws(SweepError) { grid.append(try SweepParameter(parsing: text)) } catch {
                    throw CLIError.usage(error.message)
                }
            }
            var inputs = ["version=\(MemoryPressureVersion.current)"]
            if let sweepFile { inputs.append("sweep=\(SweepDefinition.digest(try InputFile.read(sweepFile)))") }
            let names = policyNames.isEmpty ? (file?.policies ?? CompareCommand.defaultPolicies) : policyNames
            let chosen = try names.map { try PolicyOption.load($0, option: "--policies") }
            for file in names.compactMap(PolicyOption.file(of:)) {
                inputs.append("policy=\(SweepDefinition.digest(try InputFile.read(file)))")
            }
            if let duplicate = Dictionary(grouping: chosen.map(\.name), by: { $0 }).first(where: { $0.value.count > 1 }
            )?.key {
                throw CLIError.usage("two of the policies swept are named \(duplicate): every policy is one column")
            }
            let (resolved, workloadInputs) = try workload.resolveNotingInputs()
            inputs += workloadInputs
            try OutputFile.validate(
                [(chart.svg, "--svg"), (output, "--output")],
                inputs: [sweepFile, workload.workload].compactMap { $0 } + names.compactMap(PolicyOption.file(of:))
                    + (usageLog.isEmpty ? [] : try Self.usageLogFiles(usageLog)))
            let chartParameter = try chart.parameterIndex(grid)
            let baselineName = baseline ?? file?.baseline
            let sweep: Sweep
            do {
                if usageLog.isEmpty {
                    let count = seeds ?? file?.seeds ?? CompareCommand.defaultSeeds
                    let first = firstSeed ?? file?.firstSeed ?? 1
                    sweep = try Sweep(
                        workload: resolved, policies: chosen, parameters: grid,
                        seeds: (0..<UInt64(count)).map { first + $0 }, baseline: baselineName,
                        inputs: inputs.joined(separator: ";"))
                } else {
                    if let workloadParameter = grid.first(where: { $0.kind == .workload }) {
                        throw SweepError(
                            "parameter \(workloadParameter.name) changes generated samples; with --usage-log only "
                                + "memory, reserved and policy.* parameters apply")
                    }
                    sweep = try usageLogSweep(
                        workload: resolved, policies: chosen, grid: grid, baseline: baselineName, shard: shard,
                        inputs: inputs)
                }
            } catch let error as SweepError {
                throw error.isUsage ? CLIError.usage(error.message) : CLIError.malformed(error.message)
            }
            if usageLog.isEmpty {
                for cell in 0..<sweep.definition.cellCount {
                    try workload.checkSize(of: sweep.configuration(ofCell: cell).workload)
                }
            }
            let progress = ProgressIndicator(
                shard == .whole ? "sweeping" : "sweeping shard \(shard)", showsTimeLeft: true)
            let part = try await sweep.run(shard: shard, parallelism: parallelism) { done, total in
                progress.update(Double(done) / Double(total))
            }
            progress.finish()
            if self.shard != nil {
                try write(part.text)
                return
            }
            let result: SweepResult
            do throws(SweepError) { result = try SweepResult(part) } catch { throw CLIError.malformed(error.message) }
            try Self.render(
                result, format: format ?? .table, svg: chart.svg, metric: chart.metric, parameter: chartParameter,
                output: output)
        }
    }

    /// Writes a report of `result` in `format` (to `output` or standard output), and the chart to `svg`.
    static func render(
        _ result: SweepResult, format: Format, svg: String?, metric: String, parameter: Int?, output: String?
    ) throws {
        let report = SweepReport(result)
        if let svg {
            guard let parameter else {
                throw CLIError.usage("--svg draws a metric against a swept parameter: give at least one --param")
            }
            try OutputFile.write(
                SweepChart(result: result, metric: metric, parameter: parameter).svg, to: svg, option: "--svg")
        }
        let text: String
        switch format {
        case .table: text = report.table
        case .json: text = report.json
        case .csv: text = report.csv
        }
        if let output {
            try OutputFile.write(text, to: output, option: "--output")
        } else {
            try StandardOutput.write(text)
        }
    }

    private func write(_ text: String) throws {
        if let output {
            try OutputFile.write(text, to: output, option: "--output")
        } else {
            try StandardOutput.write(text)
        }
    }

    /// The policy names or files given on the command line.
    private var policyNames: [String] {
        policies.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
    }

    /// The usage-log files --usage-log names: files as given, directories' regular files (not
    /// hidden) in name order, recursively.
    static func usageLogFiles(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError.notFound("\(InputFile.displayName(path)): no such file or directory")
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            guard let enumerator = manager.enumerator(atPath: path) else {
                throw CLIError.notFound("\(InputFile.displayName(path)): the directory cannot be read")
            }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let full = (path as NSString).appendingPathComponent(relative)
                var nested: ObjCBool = false
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                if manager.fileExists(atPath: full, isDirectory: &nested), !nested.boolValue { found.append(full) }
            }
            guard !found.isEmpty else {
                throw CLIError.notFound("\(InputFile.displayName(path)): no usage logs in the directory")
            }
            files += found.sorted()
        }
        try InputFile.checkDistinct(files, option: "--usage-log", because: "each file's users are samples once")
        return files
    }

    /// A sweep over the users of the usage logs, read in two passes of one file at a time, row
    /// by row: the first checks every row and learns every file's users (and the file's digest),
    /// the second reads again only the files that hold this shard's users and keeps only their
    /// rows, then their traces. Memory holds the users' names, one line of input and the shard's
    /// own rows and traces, whatever the size of a file or of the fleet.
    private func usageLogSweep(
        workload: Workload, policies: [Policy], grid: [SweepParameter], baseline: String?, shard: SweepShard,
        inputs: [String]
    ) throws -> Sweep {
        let files = try Self.usageLogFiles(usageLog)
        let logFormat = sampling.format
        func malformed(_ body: () throws(InputError) -> Void) throws {
            do throws(InputError) { try body() } catch { throw CLIError.malformed(error.description) }
        }
        // First pass: every file's samples, one row in memory at a time.
        var labels: [String] = []
        var digests: [String] = []
        var samplesOfFile: [[(user: String, label: String)]] = []
        var firstSample: [Int] = []
        for file in files {
            var samples: [(user: String, label: String)] = []
            let lines = try UsageLogFile.lines(file)
            try malformed { () throws(InputError) in
                samples = try UsageLogImport.samples(lines, sampling: sample, format: logFormat)
            }
            guard !samples.isEmpty else {
                throw CLIError.malformed(
                    "\(InputFile.displayName(file)): no usable rows after the header (expected rows whose event "
                        + "opens or closes an app)")
            }
            digests.append(try UsageLogFile.digest(file))
            samplesOfFile.append(samples)
            firstSample.append(labels.count)
            let name = (file as NSString).lastPathComponent
            labels += samples.map { files.count == 1 ? $0.label : "\(name):\($0.label)" }
        }
        firstSample.append(labels.count)
        // The samples this shard runs, known once the labels are.
        let needed = SweepDefinition(
            workload: workload.name, device: workload.device, policies: policies.map(\.name),
            realKillers: policies.map(Comparison.isRealKiller), parameters: grid, samples: labels, baseline: nil,
            inputs: ""
        ).samples(of: shard)
        // Second pass: only the files that hold this shard's samples, keeping only their users' rows.
        var traces: [Int: Trace] = [:]
        for (position, file) in files.enumerated()
        where firstSample[position] < needed.upperBound && firstSample[position + 1] > needed.lowerBound {
            var index: [String: Int] = [:]
            var users: Set<String> = []
            for (offset, sample) in samplesOfFile[position].enumerated()
            where needed.contains(firstSample[position] + offset) {
                index[sample.label] = firstSample[position] + offset
                users.insert(sample.user)
            }
            var log: UsageLogImport.Log?
            let lines = try UsageLogFile.lines(file)
            let sampling = sample
            let hours = self.workload.hours
            try malformed { () throws(InputError) in
                log = try UsageLogImport.read(
                    lines, workload: workload, sampling: sampling, hours: hours, format: logFormat,
                    keeping: { users.contains($0) })
            }
            if let log { UsageLogFile.report(log, file: InputFile.displayName(file), forced: logFormat != nil) }
            for kept in log?.samples ?? [] {
                if let position = index[kept.label] { traces[position] = kept.trace }
            }
        }
        let kept = traces
        return try Sweep(
            workload: workload, policies: policies, parameters: grid, samples: labels, baseline: baseline,
            inputs: (inputs + ["usageLogs=" + digests.joined(separator: ","), "sample=\(sample.rawValue)"])
                .joined(separator: ";")
        ) { _, sample in kept[sample]! }
    }
}
