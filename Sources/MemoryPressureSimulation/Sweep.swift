import MemoryPressure
import MemoryPressureFormats

/// What a sweep is, as data: the policies, the grid of parameters, the samples and the metrics.
/// Everything its output needs, and nothing that depends on the machine that runs it, so that a
/// part written on one machine merges with parts written on others.
///
/// The grid's cells are every combination of the parameters' values, the first parameter
/// varying slowest. The work is (sample, cell) units, `unit = sample × cells + cell`; every unit
/// runs every policy on the same sample, so paired differences stay within a unit. Shard `i/n`
/// runs the `i`-th of `n` contiguous, near-equal blocks of units: a shard holds whole users
/// (all their cells) but for at most one user at each end.
public struct SweepDefinition: Sendable, Hashable {
    /// The workload's name.
    public var workload: String
    /// The device before parameters apply.
    public var device: Device
    /// The policies' names, in order.
    public var policies: [String]
    /// For each policy, whether it models a real killer (see ``Comparison/isRealKiller(_:)``).
    public var realKillers: [Bool]
    /// The swept parameters, first varying slowest.
    public var parameters: [SweepParameter]
    /// The samples' labels (seeds or users), in order.
    public var samples: [String]
    /// The baseline's name, or `nil` for the real killer with the lowest mean launch wait in each cell.
    public var baseline: String?
    /// A digest of the inputs (workload file, policy files, usage logs) the caller read.
    public var inputs: String
    /// The keys of the metrics recorded: the deterministic ones (wall-clock figures cannot merge
    /// byte for byte).
    public var metrics: [String]

    /// A definition; ``metrics`` are every deterministic metric.
    ///
    /// - Complexity: O(1), plus O(metric definitions) for the default `metrics`.
    public init(
        workload: String, device: Device, policies: [String], realKillers: [Bool], parameters: [SweepParameter],
        samples: [String], baseline: String?, inputs: String,
        metrics: [String] = MetricDefinition.all.filter(\.isDeterministic).map(\.key)
    ) {
        self.workload = workload
        self.device = device
        self.policies = policies
        self.realKillers = realKillers
        self.parameters = parameters
        self.samples = samples
        self.baseline = baseline
        self.inputs = inputs
        self.metrics = metrics
    }

    /// The number of cells: the product of the parameters' value counts (1 without parameters).
    public var cellCount: Int { parameters.reduce(1) { $0 * $1.values.count } }

    /// The number of units of work: cells × samples.
    public var unitCount: Int { cellCount * samples.count }

    /// The metric definitions recorded, in order.
    public var metricDefinitions: [MetricDefinition] { metrics.compactMap(MetricDefinition.named) }

    /// The index of each parameter's value in `cell`.
    ///
    /// - Complexity: O(parameters)
    public func valueIndices(ofCell cell: Int) -> [Int] {
        var rest = cell
        var indices = [Int](repeating: 0, count: parameters.count)
        for position in parameters.indices.reversed() {
            let count = parameters[position].values.count
            indices[position] = rest % count
            rest /= count
        }
        return indices
    }

    /// The parameters' values (as given) in `cell`.
    ///
    /// - Complexity: O(parameters)
    public func values(ofCell cell: Int) -> [String] {
        zip(parameters, valueIndices(ofCell: cell)).map { $0.values[$1] }
    }

    /// The device of `cell`: ``device`` with `memory` and `reserved` applied.
    ///
    /// - Complexity: O(parameters), each value's text parsed once.
    public func device(ofCell cell: Int) -> Device {
        var workload = Workload.phone
        workload.device = device
        var policies: [Policy] = []
        for (parameter, value) in zip(parameters, values(ofCell: cell)) where parameter.kind == .device {
            parameter.apply(value, to: &workload, policies: &policies)
        }
        return workload.device
    }

    /// The units shard `shard` runs: the `index`-th of `count` contiguous blocks of near-equal size.
    ///
    /// - Complexity: O(parameters) (the cell count is the product of their value counts).
    public func units(of shard: SweepShard) -> Range<Int> {
        let total = unitCount
        return (shard.index - 1) * total / shard.count..<shard.index * total / shard.count
    }

    /// The samples shard `shard` needs (a contiguous range of sample indices).
    ///
    /// - Complexity: O(parameters) (the cell count is the product of their value counts).
    public func samples(of shard: SweepShard) -> Range<Int> {
        let units = units(of: shard)
        guard !units.isEmpty else { return 0..<0 }
        return units.lowerBound / cellCount..<(units.upperBound - 1) / cellCount + 1
    }

    /// The cell of `unit`.
    ///
    /// - Complexity: O(parameters) (the cell count is the product of their value counts).
    public func cell(ofUnit unit: Int) -> Int { unit % cellCount }

    /// The sample of `unit`.
    ///
    /// - Complexity: O(parameters) (the cell count is the product of their value counts).
    public func sample(ofUnit unit: Int) -> Int { unit / cellCount }

    /// The definition as canonical JSON (one line): what a part carries and the fingerprint hashes.
    public var json: String {
        var out = "{\"workload\":\(Event.json(workload)),"
        out += "\"device\":{\"memory\":\(device.memory.value),\"reserved\":\(device.reserved.value)},"
        out += "\"policies\":[\(policies.map { Event.json($0) }.joined(separator: ","))],"
        out += "\"realKillers\":[\(realKillers.map(String.init).joined(separator: ","))],"
        out += "\"parameters\":["
        out += parameters.map {
            "{\"name\":\(Event.json($0.name)),\"values\":[\($0.values.map { Event.json($0) }.joined(separator: ","))]}"
        }.joined(separator: ",")
        out += "],\"samples\":[\(samples.map { Event.json($0) }.joined(separator: ","))],"
        out += "\"baseline\":\(baseline.map { Event.json($0) } ?? "null"),\"inputs\":\(Event.json(inputs)),"
        out += "\"metrics\":[\(metrics.map { Event.json($0) }.joined(separator: ","))]}"
        return out
    }

    /// A 64-bit FNV-1a digest of ``json``, in hexadecimal: parts merge only with parts of the same
    /// fingerprint.
    public var fingerprint: String { Self.digest(json) }

    /// The 64-bit FNV-1a digest of `text`, as 16 hexadecimal digits.
    ///
    /// - Complexity: O(length of `text`)
    public static func digest(_ text: some StringProtocol) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// A slice of a sweep's work: shard `index` of `count` (1-based, as `--shard 2/3` writes it).
public struct SweepShard: Sendable, Hashable, CustomStringConvertible {
    /// Which shard, 1...count.
    public var index: Int
    /// How many shards the work is cut into.
    public var count: Int

    /// The whole sweep as one shard.
    public static let whole = SweepShard(index: 1, count: 1)

    /// Shard `index` of `count`.
    ///
    /// - Complexity: O(1)
    public init(index: Int, count: Int) {
        precondition(count >= 1 && (1...count).contains(index), "a shard is 1...count")
        self.index = index
        self.count = count
    }

    /// Parses `i/n` with 1 ≤ i ≤ n ≤ 100000.
    ///
    /// - Throws: ``SweepError`` saying what was expected.
    /// - Complexity: O(length of `text`)
    public init(parsing text: String) throws(SweepError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...100_000).contains(count),
            (1...count).contains(index)
        else {
            throw SweepError(
                "--shard \(text.quotedExcerpt()): expected i/n with 1 ≤ i ≤ n ≤ 100000, such as 2/3 (shards count from 1)"
            )
        }
        self.init(index: index, count: count)
    }

    /// `i/n`, as `--shard` takes it.
    public var description: String { "\(index)/\(count)" }
}

/// Runs a sweep's units: the workload and policies of each cell, every policy on each sample.
public struct Sweep: Sendable {
    /// The definition (what the output says).
    public var definition: SweepDefinition
    /// The workload before parameters apply.
    public var workload: Workload
    /// The policies before parameters apply.
    public var policies: [Policy]
    /// The trace of sample `sample` for a cell's workload: a generated seed or an imported user
    /// (the device is then set to the cell's).
    public var trace: @Sendable (_ workload: Workload, _ sample: Int) throws -> Trace

    /// A sweep over generated samples: sample `i` is seed `seeds[i]`.
    ///
    /// - Complexity: O(seeds), plus what ``init(workload:policies:parameters:samples:baseline:inputs:trace:)`` costs.
    public init(
        workload: Workload, policies: [Policy], parameters: [SweepParameter], seeds: [UInt64],
        baseline: String?, inputs: String
    ) throws(SweepError) {
        try self.init(
            workload: workload, policies: policies, parameters: parameters, samples: seeds.map(String.init),
            baseline: baseline, inputs: inputs
        ) { workload, sample in WorkloadGenerator(workload: workload).trace(seed: seeds[sample]) }
    }

    /// A sweep over given samples; `trace` supplies sample `i` for a cell's workload.
    ///
    /// - Throws: ``SweepError`` if a cell is impossible (reserved memory not below memory) or
    ///   the baseline is not one of the policies.
    /// - Complexity: O(cells × parameters) to check every cell's device; when a policy parameter is swept,
    ///   also O(cells × policies × (parameters + size of a policy)) to set and validate every cell's
    ///   policies. There are at most 100000 cells.
    public init(
        workload: Workload, policies: [Policy], parameters: [SweepParameter], samples: [String], baseline: String?,
        inputs: String, trace: @escaping @Sendable (Workload, Int) throws -> Trace
    ) throws(SweepError) {
        let names = Set(parameters.map(\.name))
        guard names.count == parameters.count else {
            let duplicate = parameters.map(\.name).first { name in parameters.count { $0.name == name } > 1 }!
            throw SweepError("parameter \(duplicate) is given twice: give all its values at once")
        }
        if let baseline, !policies.map(\.name).contains(baseline) {
            throw SweepError("--baseline \(baseline) is not one of the policies swept")
        }
        definition = SweepDefinition(
            workload: workload.name, device: workload.device, policies: policies.map(\.name),
            realKillers: policies.map(Comparison.isRealKiller), parameters: parameters, samples: samples,
            baseline: baseline, inputs: inputs)
        guard definition.cellCount <= 100_000 else {
            throw SweepError("the grid has \(definition.cellCount) cells, above the limit of 100000")
        }
        self.workload = workload
        self.policies = policies
        self.trace = trace
        for cell in 0..<definition.cellCount {
            let device = definition.device(ofCell: cell)
            guard device.reserved < device.memory else {
                let values = zip(parameters, definition.values(ofCell: cell)).map { "\($0.name)=\($1)" }
                throw SweepError(
                    "cell \(values.joined(separator: ", ")): expected reserved (\(device.reserved.formatted)) "
                        + "below memory (\(device.memory.formatted))")
            }
            if parameters.contains(where: { $0.kind == .policy }) {
                let values = zip(parameters, definition.values(ofCell: cell)).map { "\($0.name)=\($1)" }
                for policy in configuration(ofCell: cell).policies {
                    if let problem = Self.thresholdProblem(policy, usable: device.usable) {
                        throw SweepError(
                            "cell \(values.joined(separator: ", ")): policy \(policy.name): \(problem)")
                    }
                    do throws(PolicyErrors) {
                        try policy.validate()
                    } catch {
                        throw SweepError("cell \(values.joined(separator: ", ")): policy \(policy.name): \(error)")
                    }
                }
            }
        }
    }

    /// What is wrong with `policy`'s thresholds on a device with `usable` bytes, as policy files
    /// are checked: each level is left above where it is entered, and a higher level is entered
    /// with less free memory.
    static func thresholdProblem(_ policy: Policy, usable: Bytes) -> String? {
        // Two plain variables rather than an optional tuple: the 6.3 optimizer crashes on the
        // latter here ("Found ownership error") in release builds.
        var previousName = ""
        var previousEnter = Bytes.maximum
        var hasPrevious = false
        let levels: [(String, LevelThreshold?)] = [
            ("warning", policy.thresholds.warning), ("urgent", policy.thresholds.urgent),
            ("critical", policy.thresholds.critical),
        ]
        for (name, threshold) in levels {
            guard let threshold else { continue }
            let enter = threshold.enter.resolved(against: usable)
            let clear = threshold.clear.resolved(against: usable)
            guard enter < clear || (policy.comparison == .atOrBelow && enter == clear) else {
                return "expected the \(name) level's clear (\(threshold.clear)) above its enter (\(threshold.enter)): "
                    + "a level is left only above where it is entered"
            }
            if hasPrevious && !(enter < previousEnter) {
                return "expected the \(name) level entered with less free memory (\(threshold.enter)) than the "
                    + "\(previousName) level (\(previousEnter.formatted))"
            }
            previousName = name
            previousEnter = enter
            hasPrevious = true
        }
        return nil
    }

    /// The workload and policies of `cell`.
    ///
    /// - Complexity: O(parameters), plus O(policies) for each policy parameter (it is set on every policy).
    public func configuration(ofCell cell: Int) -> (workload: Workload, policies: [Policy]) {
        var workload = workload
        var policies = policies
        for (parameter, value) in zip(definition.parameters, definition.values(ofCell: cell)) {
            parameter.apply(value, to: &workload, policies: &policies)
        }
        return (workload, policies)
    }

    /// Runs the units of `shard` over `parallelism` tasks and returns their values; the result is
    /// the same whatever the parallelism. `progress` receives finished and total units.
    ///
    /// - Throws: ``ReplayError`` if a policy cannot be used in a cell, or what `trace` throws.
    /// - Complexity: O(cells × parameters × policies) to configure the cells, plus, for each unit
    ///   of `shard`, making its sample's trace (for a seed, O(apps) for a generator and one
    ///   ``WorkloadGenerator/trace(seed:)``) and one `SimulationRun.run` per policy on it; the units
    ///   are spread over `parallelism` tasks.
    public func run(
        shard: SweepShard = .whole, parallelism: Int = 2, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> SweepPart {
        let units = Array(definition.units(of: shard))
        let metrics = definition.metricDefinitions
        let definition = definition
        var rows = [[Double]](repeating: [], count: units.count)
        let configurations = (0..<definition.cellCount).map(configuration(ofCell:))
        let trace = self.trace
        try await withThrowingTaskGroup(of: (Int, [Double]).self) { group in
            var next = 0
            var done = 0
            func submit() {
                let position = next
                let unit = units[position]
                next += 1
                group.addTask {
                    let (workload, policies) = configurations[definition.cell(ofUnit: unit)]
                    var sample = try trace(workload, definition.sample(ofUnit: unit))
                    sample.device = workload.device
                    var values: [Double] = []
                    values.reserveCapacity(policies.count * metrics.count)
                    for policy in policies {
                        let run = try SimulationRun.run(
                            sample, policy: policy, launchCost: workload.launchCost,
                            file: definition.samples[definition.sample(ofUnit: unit)])
                        values += metrics.map { $0.value(run.metrics) }
                    }
                    return (position, values)
                }
            }
            while next < min(max(parallelism, 1), units.count) { submit() }
            while let (position, values) = try await group.next() {
                rows[position] = values
                done += 1
                progress?(done, units.count)
                if next < units.count { submit() }
            }
        }
        return SweepPart(definition: definition, shard: shard, units: units, values: rows)
    }
}

/// The values of some units of a sweep: a whole run, one shard's part, or a merge of parts.
public struct SweepPart: Sendable, Hashable {
    /// The sweep.
    public var definition: SweepDefinition
    /// The shard that produced it (``SweepShard/whole`` for a whole run or a merge).
    public var shard: SweepShard
    /// The units held, ascending.
    public var units: [Int]
    /// For each unit, its values: policy-major, one per recorded metric.
    public var values: [[Double]]

    /// A part from its fields.
    ///
    /// - Complexity: O(1)
    public init(definition: SweepDefinition, shard: SweepShard, units: [Int], values: [[Double]]) {
        self.definition = definition
        self.shard = shard
        self.units = units
        self.values = values
    }
}

/// A complete sweep: every unit's values, from which every cell's statistics follow.
public struct SweepResult: Sendable {
    /// The sweep.
    public let definition: SweepDefinition
    /// `values[unit]`: policy-major, one per recorded metric.
    public let values: [[Double]]

    /// The result of a part that holds every unit (a whole run).
    ///
    /// - Throws: ``SweepError`` if units are missing.
    /// - Complexity: as ``init(merging:)`` with one part.
    public init(_ part: SweepPart) throws(SweepError) {
        try self.init(merging: [("<run>", part)])
    }

    /// Merges the parts of one sweep, checking that they come from the same sweep (same
    /// fingerprint), that no shard is given twice and that no shard is missing.
    ///
    /// - Throws: ``SweepError`` (not a usage error) naming the parts concerned.
    /// - Complexity: O(parts × size of the definition + shards + units): each part's definition is compared
    ///   with the first's (its samples, policies, parameters and metrics), then every unit's row is
    ///   taken (rows are shared, not copied).
    public init(merging parts: [(name: String, part: SweepPart)]) throws(SweepError) {
        guard let (firstName, first) = parts.first else { throw SweepError("expected at least one part to merge") }
        let definition = first.definition
        var byShard: [Int: String] = [:]
        for (name, part) in parts {
            guard part.definition == definition else {
                throw SweepError(
                    "\(name) is a part of another sweep (fingerprint \(part.definition.fingerprint)) than \(firstName) "
                        + "(fingerprint \(definition.fingerprint)): expected parts of one sweep, run with the same "
                        + "arguments and inputs", isUsage: false)
            }
            guard part.shard.count == first.shard.count else {
                throw SweepError(
                    "\(name) is shard \(part.shard) but \(firstName) is shard \(first.shard): expected shards of one "
                        + "split", isUsage: false)
            }
            if let other = byShard[part.shard.index] {
                throw SweepError(
                    "shard \(part.shard) is given twice (\(other) and \(name)): expected each shard once",
                    isUsage: false)
            }
            byShard[part.shard.index] = name
        }
        let missing = (1...first.shard.count).filter { byShard[$0] == nil }
        guard missing.isEmpty else {
            let shown = missing.prefix(10).map { "\($0)/\(first.shard.count)" }.joined(separator: ", ")
            throw SweepError(
                "missing shard\(missing.count == 1 ? "" : "s") \(shown)\(missing.count > 10 ? ", …" : "") "
                    + "(\(missing.count) of \(first.shard.count)): expected every part of the sweep", isUsage: false)
        }
        let width = definition.policies.count * definition.metrics.count
        var values = [[Double]](repeating: [], count: definition.unitCount)
        for (name, part) in parts {
            guard part.units.elementsEqual(definition.units(of: part.shard)) else {
                throw SweepError(
                    "\(name): expected the units of shard \(part.shard), found others", isUsage: false)
            }
            for (unit, row) in zip(part.units, part.values) {
                guard row.count == width else {
                    throw SweepError(
                        "\(name): unit \(unit): expected \(width) values, found \(row.count)", isUsage: false)
                }
                values[unit] = row
            }
        }
        self.definition = definition
        self.values = values
    }

    /// The statistics of `cell`.
    ///
    /// - Complexity: O(1)
    public func cell(_ cell: Int) -> SweepCell { SweepCell(result: self, cell: cell) }
}

/// One cell of a sweep: every policy on the same samples, with the statistics of `compare`.
public struct SweepCell: Sendable {
    /// The complete sweep.
    public let result: SweepResult
    /// The cell's index.
    public let cell: Int

    /// The sweep's definition.
    public var definition: SweepDefinition { result.definition }

    /// The values of `metric` (an index into the recorded metrics) for `policy`, one per sample.
    ///
    /// - Complexity: O(samples + parameters)
    public func values(ofMetric metric: Int, policy: Int) -> [Double] {
        let cells = definition.cellCount
        let column = policy * definition.metrics.count + metric
        return (0..<definition.samples.count).map { result.values[$0 * cells + cell][column] }
    }

    /// The index of a recorded metric by key.
    ///
    /// - Complexity: O(metrics)
    public func metricIndex(_ key: String) -> Int? { definition.metrics.firstIndex(of: key) }

    /// The mean of metric `metric` with its 95 % interval, for each policy.
    ///
    /// - Complexity: O(policies × (samples + parameters))
    public func intervals(ofMetric metric: Int) -> [MeanInterval] {
        definition.policies.indices.map { MeanInterval(values(ofMetric: metric, policy: $0)) }
    }

    /// The best policy for the metric by mean, as ``Comparison/best(for:)`` decides.
    ///
    /// - Complexity: O(policies × (samples + parameters) + metrics)
    public func best(ofMetric metric: Int) -> Int? {
        let means = definition.policies.indices.map { Statistics.mean(values(ofMetric: metric, policy: $0)) }
        guard means.count > 1, Set(means).count > 1 else { return nil }
        switch definition.metricDefinitions[metric].better {
        case .lower: return means.indices.min { means[$0] < means[$1] }
        case .higher: return means.indices.max { means[$0] < means[$1] }
        case .neither: return nil
        }
    }

    /// The mean launch wait of each policy.
    private var launchWaitMeans: [Double] {
        guard let metric = metricIndex("launchWait") else { return definition.policies.map { _ in 0 } }
        return definition.policies.indices.map { Statistics.mean(values(ofMetric: metric, policy: $0)) }
    }

    /// The baseline, as ``Comparison/baseline(named:)`` chooses it: the named policy, or the real
    /// killer with the lowest mean launch wait in this cell (the first policy if none is real).
    public var baseline: Int {
        if let name = definition.baseline, let index = definition.policies.firstIndex(of: name) { return index }
        let means = launchWaitMeans
        let real = definition.policies.indices.filter { definition.realKillers[$0] }
        return real.min { (means[$0], $0) < (means[$1], $1) } ?? 0
    }

    /// The share of the launch-wait gap from the baseline to the oracle each policy closes, as
    /// ``Comparison/gapToOracleClosed(baseline:)`` computes it.
    public var gapToOracleClosed: [Double]? {
        guard let oracle = Comparison.gapReference(among: definition.policies) else { return nil }
        return Comparison.sharesOfGap(means: launchWaitMeans, baseline: baseline, oracle: oracle)
    }

    /// The 95 % interval of each share ``gapToOracleClosed`` gives, as
    /// ``Comparison/gapToOracleClosedIntervals(baseline:)`` computes it: `nil` for the baseline and
    /// the oracle, and for all without a share.
    ///
    /// - Complexity: O(policies × samples × ``Statistics/bootstrapResamples``)
    public var gapToOracleClosedIntervals: [ClosedRange<Double>?]? {
        guard let oracle = Comparison.gapReference(among: definition.policies), gapToOracleClosed != nil,
            let metric = metricIndex("launchWait")
        else { return nil }
        return Comparison.intervalsOfShares(
            launchWaits: definition.policies.indices.map { values(ofMetric: metric, policy: $0) }, baseline: baseline,
            oracle: oracle)
    }

    /// The paired differences `policy − baseline` of the metric, Holm-adjusted over the policies,
    /// as ``Comparison/pairedDifferences(of:baseline:)`` computes them.
    ///
    /// - Complexity: O(policies × (samples + parameters)) with the t method, O(policies × samples ×
    ///   ``Statistics/bootstrapResamples``) for differences bootstrapped, plus O(policies log policies)
    ///   for Holm's adjustment.
    public func pairedDifferences(ofMetric metric: Int) -> [PairedDifference?] {
        let baseline = baseline
        let reference = values(ofMetric: metric, policy: baseline)
        var differences: [PairedDifference?] = definition.policies.indices.map { index in
            index == baseline ? nil : PairedDifference(values(ofMetric: metric, policy: index), baseline: reference)
        }
        let compared = differences.indices.filter { differences[$0] != nil }
        let adjusted = Statistics.holm(compared.map { differences[$0]!.p })
        for (position, index) in compared.enumerated() { differences[index]!.adjustedP = adjusted[position] }
        return differences
    }
}
