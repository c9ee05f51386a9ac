import MemoryPressure
import MemoryPressureFormats
import Testing

@testable import MemoryPressureSimulation

@Suite("Sweeps: grids, shards, parts and exact merges")
struct SweepTests {
    /// A small sweep: 2 policies × 3 memory sizes × 2 reserved sizes × 5 seeds of a 2-hour day.
    static func smallSweep(seeds: Int = 5) throws -> Sweep {
        var workload = Workload.phone
        workload.hours = 2
        return try Sweep(
            workload: workload, policies: [.ios4, try Policy.shipped("lru")],
            parameters: [
                try SweepParameter(parsing: "memory=256MiB,512MiB,1GiB"),
                try SweepParameter(parsing: "reserved=96MiB,187MiB"),
            ],
            seeds: (1...UInt64(seeds)).map { $0 }, baseline: nil, inputs: "test")
    }

    @Test("parameters: names, values and the errors that say what was expected")
    func parameters() throws {
        let memory = try SweepParameter(parsing: "memory=256MiB, 1GiB")
        #expect(memory.values == ["256MiB", "1GiB"])
        #expect(memory.kind == .device)
        #expect(try SweepParameter(parsing: "policy.thresholds.warning.enter=10%,15%").kind == .policy)
        #expect(try SweepParameter(parsing: "hours=1,2.5").kind == .workload)
        func message(_ text: String) -> String {
            do {
                _ = try SweepParameter(parsing: text)
                return ""
            } catch { return error.message }
        }
        #expect(message("memroy=1GiB").contains("unknown parameter \"memroy\"; expected one of memory, reserved"))
        #expect(message("memory=lots").contains("parameter memory: expected a size such as 512MiB, found \"lots\""))
        #expect(message("memory=0").contains("expected a size"))
        #expect(message("hours=0").contains("expected hours above 0"))
        #expect(message("homeShare=150%").contains("expected a share"))
        #expect(message("memory=1GiB,1GiB").contains("appears twice"))
        #expect(message("memory=1GiB,,2GiB").contains("empty value"))
        #expect(message("memory").contains("expected NAME=v1,v2"))
    }

    @Test("shards: i/n parses with clear errors; the shards' units partition the work, in order")
    func shards() throws {
        #expect(try SweepShard(parsing: "2/3") == SweepShard(index: 2, count: 3))
        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", ""] {
            #expect(throws: SweepError.self, "\(bad)") { try SweepShard(parsing: bad) }
        }
        let definition = try Self.smallSweep().definition
        #expect(definition.cellCount == 6)
        #expect(definition.unitCount == 30)
        for count in [1, 2, 3, 7, 29, 30, 31, 64] {
            let units = (1...count).flatMap { Array(definition.units(of: SweepShard(index: $0, count: count))) }
            #expect(units == Array(0..<30), "\(count) shards")
            for index in 1...count {
                let shard = SweepShard(index: index, count: count)
                let needed = Set(definition.units(of: shard).map(definition.sample(ofUnit:)))
                #expect(needed.isSubset(of: Set(definition.samples(of: shard))), "shard \(shard)")
            }
        }
    }

    @Test("cells: the first parameter varies slowest; each cell has its device")
    func cells() throws {
        let definition = try Self.smallSweep().definition
        #expect(definition.values(ofCell: 0) == ["256MiB", "96MiB"])
        #expect(definition.values(ofCell: 1) == ["256MiB", "187MiB"])
        #expect(definition.values(ofCell: 5) == ["1GiB", "187MiB"])
        #expect(definition.device(ofCell: 3) == Device(memory: .mebibytes(512), reserved: .mebibytes(187)))
    }

    @Test("an impossible cell, a duplicate parameter or an unknown baseline is refused before any run")
    func refusedDefinitions() throws {
        #expect(throws: SweepError.self) {
            try Sweep(
                workload: .phone, policies: [.ios4], parameters: [try SweepParameter(parsing: "memory=128MiB")],
                seeds: [1], baseline: nil, inputs: "")
        }
        #expect(throws: SweepError.self) {
            try Sweep(
                workload: .phone, policies: [.ios4],
                parameters: [try SweepParameter(parsing: "hours=1"), try SweepParameter(parsing: "hours=2")],
                seeds: [1], baseline: nil, inputs: "")
        }
        #expect(throws: SweepError.self) {
            try Sweep(workload: .phone, policies: [.ios4], parameters: [], seeds: [1], baseline: "lru", inputs: "")
        }
        // Swept thresholds are checked as a policy file's are: clear above enter, levels in order.
        func thresholdMessage(_ text: String) -> String {
            do {
                _ = try Sweep(
                    workload: .phone, policies: [.ios4], parameters: [try SweepParameter(parsing: text)], seeds: [1],
                    baseline: nil, inputs: "")
                return ""
            } catch { return error.message }
        }
        #expect(
            thresholdMessage("policy.thresholds.warning.enter=18%,50%").contains(
                "cell policy.thresholds.warning.enter=50%: policy ios4: expected the warning level's clear (20%) above its enter (50%)"
            ))
        #expect(
            thresholdMessage("policy.thresholds.warning.enter=9%").contains(
                "expected the urgent level entered with less free memory (10%) than the warning level"))
        #expect(thresholdMessage("policy.thresholds.warning.enter=12%,18%") == "")
    }

    @Test("parameters reach the workload, the device and every policy that has the threshold")
    func parametersApply() throws {
        let sweep = try Sweep(
            workload: .phone, policies: [.ios4, try Policy.shipped("jetsam")],
            parameters: [
                try SweepParameter(parsing: "memory=1GiB"), try SweepParameter(parsing: "hours=3"),
                try SweepParameter(parsing: "policy.thresholds.warning.enter=12%"),
                try SweepParameter(parsing: "policy.kill.target=25%"),
            ], seeds: [1], baseline: nil, inputs: "")
        let (workload, policies) = sweep.configuration(ofCell: 0)
        #expect(workload.device.memory == .gibibytes(1))
        #expect(workload.hours == 3)
        #expect(policies[0].thresholds.warning?.enter == .percent(12))
        #expect(policies[0].kills.target == .percent(25))
        #expect(policies[1].kills.target == .percent(25))
    }

    @Test("compression parameters reach the policies that compress and leave the others alone")
    func compressionParameters() throws {
        var swapFile = try Policy.shipped("earlyoom-zram")
        swapFile.name = "earlyoom-swap"
        swapFile.compression?.mechanism = .swap
        swapFile.compression?.ratio = 1
        var zswap = try Policy.shipped("earlyoom-zram")
        zswap.name = "earlyoom-zswap"
        zswap.compression?.mechanism = .zswap
        zswap.compression?.zswapPool = .percent(20)
        zswap.compression?.swapInSecondsPerMiB = 0.01
        let sweep = try Sweep(
            workload: .phone, policies: [.ios4, try Policy.shipped("jetsam-compressor"), swapFile, zswap],
            parameters: [
                try SweepParameter(parsing: "policy.compression.capacity=25%,1GiB"),
                try SweepParameter(parsing: "policy.compression.ratio=3.5"),
                try SweepParameter(parsing: "policy.compression.compressible=40%"),
                try SweepParameter(parsing: "policy.compression.zswapPool=10%"),
                try SweepParameter(parsing: "policy.compression.zswapAcceptThresholdPercent=75"),
            ], seeds: [1], baseline: nil, inputs: "")
        let (_, policies) = sweep.configuration(ofCell: 1)
        #expect(policies[0] == .ios4)
        let model = try #require(policies[1].compression)
        #expect(model.capacity == .bytes(.gibibytes(1)) && model.ratio == 3.5 && model.compressible == 0.4)
        // A swap file takes the capacity (its size) but keeps its ratio of 1.
        let swap = try #require(policies[2].compression)
        #expect(swap.capacity == .bytes(.gibibytes(1)) && swap.ratio == 1 && policies[2].problems.isEmpty)
        // Only zswap takes a cache limit; the others stay valid without one.
        #expect(policies[3].compression?.zswapPool == .percent(10) && policies[3].problems.isEmpty)
        #expect(policies[1].compression?.zswapPool == nil && policies[2].compression?.zswapPool == nil)
        #expect(policies[3].compression?.zswapAcceptThresholdPercent == 75)
        #expect(policies[1].compression?.zswapAcceptThresholdPercent == nil && policies[1].problems.isEmpty)
        for bad in [
            "policy.compression.ratio=0.5", "policy.compression.compressible=1.5", "policy.compression.capacity=lots",
            "policy.compression.zswapPool=lots", "policy.compression.zswapAcceptThresholdPercent=101",
        ] {
            #expect(throws: SweepError.self, "\(bad)") { try SweepParameter(parsing: bad) }
        }
    }

    @Test("a part's text reads back to the very same values, awkward doubles included")
    func partRoundTrip() throws {
        let definition = try Self.smallSweep(seeds: 1).definition
        let shard = SweepShard(index: 2, count: 2)
        let units = Array(definition.units(of: shard))
        let width = definition.policies.count * definition.metrics.count
        let awkward = [0.1 + 0.2, 1e-300, -0.0, 123_456_789.123_456_79, 1.0 / 3, Double.leastNonzeroMagnitude, 0]
        let values = units.map { unit in (0..<width).map { awkward[($0 + unit) % awkward.count] } }
        let part = SweepPart(definition: definition, shard: shard, units: units, values: values)
        let read = try SweepPart(parsing: part.text, name: "part")
        #expect(read == part)
        #expect(read.values.flatMap { $0 }.map(\.bitPattern) == values.flatMap { $0 }.map(\.bitPattern))
    }

    @Test("merging the parts of 1, 2, 3 and 7 shards gives exactly the whole run's values", arguments: [1, 2, 3, 7])
    func exactMerge(shards: Int) async throws {
        let sweep = try Self.smallSweep()
        let whole = try SweepResult(try await sweep.run(parallelism: 2))
        var parts: [(name: String, part: SweepPart)] = []
        for index in (1...shards).reversed() {
            let part = try await sweep.run(shard: SweepShard(index: index, count: shards), parallelism: 1)
            parts.append(("part\(index)", try SweepPart(parsing: part.text, name: "part\(index)")))
        }
        let merged = try SweepResult(merging: parts)
        #expect(merged.values.flatMap { $0 }.map(\.bitPattern) == whole.values.flatMap { $0 }.map(\.bitPattern))
        #expect(merged.definition == whole.definition)
    }

    @Test("a cell's statistics are compare's on the same samples")
    func cellMatchesCompare() async throws {
        let sweep = try Self.smallSweep(seeds: 4)
        let result = try SweepResult(try await sweep.run())
        let (workload, policies) = sweep.configuration(ofCell: 4)
        let comparison = try await Comparison.run(workload: workload, policies: policies, seeds: [1, 2, 3, 4])
        let cell = result.cell(4)
        for (position, key) in result.definition.metrics.enumerated() {
            let metric = MetricDefinition.named(key)!
            #expect(cell.intervals(ofMetric: position) == comparison.intervals(of: metric), "\(key)")
            let baseline = comparison.baseline(named: nil)!
            #expect(cell.baseline == baseline)
            #expect(
                cell.pairedDifferences(ofMetric: position)
                    == comparison.pairedDifferences(of: metric, baseline: baseline))
        }
    }

    @Test("merge refuses parts of another sweep, duplicate shards, missing shards and mixed splits")
    func refusedMerges() async throws {
        let sweep = try Self.smallSweep(seeds: 2)
        let other = try Self.smallSweep(seeds: 3)
        func part(_ sweep: Sweep, _ index: Int, _ count: Int) async throws -> SweepPart {
            try await sweep.run(shard: SweepShard(index: index, count: count), parallelism: 1)
        }
        let p1 = try await part(sweep, 1, 3)
        let p2 = try await part(sweep, 2, 3)
        let p3 = try await part(sweep, 3, 3)
        func message(_ parts: [(String, SweepPart)]) -> String {
            do {
                _ = try SweepResult(merging: parts.map { (name: $0.0, part: $0.1) })
                return ""
            } catch { return error.message }
        }
        #expect(message([("a", p1), ("b", p2), ("c", p3)]) == "")
        #expect(
            message([("a", p1), ("b", p2), ("c", try await part(other, 3, 3))]).contains("c is a part of another sweep")
        )
        #expect(message([("a", p1), ("b", p2), ("b2", p2), ("c", p3)]).contains("shard 2/3 is given twice (b and b2)"))
        #expect(message([("a", p1), ("c", p3)]).contains("missing shard 2/3 (1 of 3)"))
        #expect(
            message([("a", p1), ("b", p2), ("x", try await part(sweep, 3, 4))]).contains(
                "x is shard 3/4 but a is shard 1/3"))
        #expect(message([]).contains("at least one part"))
    }

    @Test("a damaged part is refused with its file and line")
    func damagedParts() async throws {
        let sweep = try Self.smallSweep(seeds: 2)
        let text = try await sweep.run(shard: SweepShard(index: 1, count: 2), parallelism: 1).text
        func message(_ text: String) -> String {
            do {
                _ = try SweepPart(parsing: text, name: "p")
                return ""
            } catch { return error.message }
        }
        #expect(message("hello\n").hasPrefix("p:1: expected a sweep part"))
        var lines = text.split(separator: "\n").map(String.init)
        #expect(message(lines.dropLast().joined(separator: "\n")).contains("the part is cut short"))
        let header = lines[0]
        lines[0] = header.replacingOccurrences(of: "\"lru\"", with: "\"lru2\"")
        #expect(message(lines.joined(separator: "\n")).contains("does not match the definition"))
        lines[0] = header
        lines[2] = lines[2].replacingOccurrences(of: "\t", with: "\tx", options: [], range: nil)
        #expect(message(lines.joined(separator: "\n")).hasPrefix("p:3: expected a number"))
    }

    @Test("a sweep file's errors name the file, line, column and field")
    func sweepFile() throws {
        let file = try SweepFile(
            yaml: "policies: [ios4, lru]\nseeds: 5\nparameters:\n  memory: [256MiB, 1GiB]\n  hours: 2\n", file: "s.yaml"
        )
        #expect(file.policies == ["ios4", "lru"])
        #expect(file.seeds == 5)
        #expect(file.parameters.map(\.name) == ["memory", "hours"])
        #expect(file.parameters[1].values == ["2"])
        func message(_ text: String) -> String {
            do {
                _ = try SweepFile(yaml: text, file: "s.yaml")
                return ""
            } catch { return error.description }
        }
        #expect(
            message("parameters:\n  memory: [256MiB, lots]\n").hasPrefix(
                "s.yaml:2:11: parameters.memory: parameter memory: expected a size"))
        #expect(
            message("parameters:\n  memroy: [1GiB]\n").hasPrefix("s.yaml:2:11: parameters.memroy: unknown parameter"))
        #expect(message("paramters:\n  memory: [1GiB]\n").contains("unknown key \"paramters\""))
        #expect(message("seeds: 0\n").contains("s.yaml:1:8: seeds: expected an integer from 1 to 10000"))
    }
}
