import MemoryPressure
import MemoryPressureFormats

extension SweepPart {
    /// The format version a part's header names.
    public static let formatVersion = 1

    /// The part as text: a JSON header line (format, fingerprint, shard, definition), then one
    /// line per unit: its index and its values, tab-separated. Values are written in the
    /// shortest form that reads back to the same `Double`, so a merge is exact.
    ///
    /// - Complexity: O(units × policies × metrics)
    public var text: String {
        var out = "{\"mempressureSweepPart\":\(Self.formatVersion),\"fingerprint\":\"\(definition.fingerprint)\","
        out += "\"shard\":\"\(shard)\",\"definition\":\(definition.json)}\n"
        for (unit, row) in zip(units, values) {
            out += String(unit)
            for value in row {
                out += "\t"
                out += value.description
            }
            out += "\n"
        }
        return out
    }

    /// Reads a part that ``text`` wrote; `name` (the file) goes into errors.
    ///
    /// - Throws: ``SweepError`` (not a usage error) naming the file, the line and what was expected.
    /// - Complexity: O(length of `text`)
    public init(parsing text: String, name: String) throws(SweepError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func fail(_ line: Int, _ message: String) -> SweepError {
            SweepError("\(name):\(line): \(message)", isUsage: false)
        }
        guard let headerLine = lines.first, headerLine.hasPrefix("{") else {
            throw fail(1, "expected a sweep part (a JSON header line written by mempressure sweep --shard)")
        }
        let header: ConfigObject
        do {
            header = try ConfigObject(try JSONParser.parse(headerLine), file: name)
        } catch let error as JSONSyntaxError {
            throw SweepError("\(name):1:\(error.column): \(error.message)", isUsage: false)
        } catch {
            throw SweepError("\(error)", isUsage: false)
        }
        let definition: SweepDefinition
        let shard: SweepShard
        let fingerprint: String
        do throws(InputError) {
            guard try header.optionalInt("mempressureSweepPart", in: 1...1_000) == Self.formatVersion else {
                throw header.error(
                    "expected \"mempressureSweepPart\": \(Self.formatVersion) (a sweep part of this version)")
            }
            fingerprint = try header.string("fingerprint")
            let shardText = try header.string("shard")
            do throws(SweepError) {
                shard = try SweepShard(parsing: shardText)
            } catch {
                throw header.error("key \"shard\": expected i/n such as 2/3, found \(shardText.quotedExcerpt())")
            }
            definition = try Self.definition(try header.object("definition"))
            try header.finish()
        } catch {
            throw SweepError(error.description, isUsage: false)
        }
        guard definition.fingerprint == fingerprint else {
            throw fail(
                1,
                "the fingerprint \(fingerprint) does not match the definition (\(definition.fingerprint)): "
                    + "expected a part as mempressure sweep wrote it")
        }
        let width = definition.policies.count * definition.metrics.count
        var units: [Int] = []
        var values: [[Double]] = []
        let expected = definition.units(of: shard)
        for (offset, line) in lines.dropFirst().enumerated() where !line.isEmpty {
            let number = offset + 2
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard let unit = Int(fields[0]) else {
                throw fail(number, "expected a unit number, found \(String(fields[0]).quotedExcerpt())")
            }
            guard units.count < expected.count, unit == expected.lowerBound + units.count else {
                throw fail(number, "unit \(unit) is not the next unit of shard \(shard)")
            }
            guard fields.count == width + 1 else {
                throw fail(number, "expected \(width) values after the unit, found \(fields.count - 1)")
            }
            var row: [Double] = []
            row.reserveCapacity(width)
            for field in fields.dropFirst() {
                guard let value = Double(field) else {
                    throw fail(number, "expected a number, found \(String(field).quotedExcerpt())")
                }
                row.append(value)
            }
            units.append(unit)
            values.append(row)
        }
        guard units.count == expected.count else {
            throw fail(
                lines.count,
                "expected \(expected.count) units for shard \(shard), found \(units.count): "
                    + "the part is cut short")
        }
        self.init(definition: definition, shard: shard, units: units, values: values)
    }

    /// A definition from its JSON object.
    private static func definition(_ object: ConfigObject) throws(InputError) -> SweepDefinition {
        func strings(_ key: String) throws(InputError) -> [String] {
            guard let list = try object.optionalStringList(key) else {
                throw object.error("missing key \"\(key)\": expected a list of strings")
            }
            return list
        }
        let device = try object.object("device")
        let memory = try device.size("memory")
        let reserved = try device.size("reserved")
        try device.finish()
        let policies = try strings("policies")
        guard let killers = try object.optionalList("realKillers") else {
            throw object.error("missing key \"realKillers\": expected a list of booleans")
        }
        var realKillers: [Bool] = []
        for (_, node) in killers {
            guard case .bool(let flag) = node.value else {
                throw object.error(
                    at: node, key: "realKillers", "expected true or false, found \(node.kindDescription)")
            }
            realKillers.append(flag)
        }
        guard realKillers.count == policies.count else {
            throw object.error("expected one realKillers flag per policy")
        }
        var parameters: [SweepParameter] = []
        for (path, node) in try object.optionalList("parameters") ?? [] {
            let item = try ConfigObject(node, file: object.file, path: path)
            let name = try item.string("name")
            guard let values = try item.optionalStringList("values") else {
                throw item.error("missing key \"values\": expected a list of strings")
            }
            try item.finish()
            do throws(SweepError) {
                parameters.append(try SweepParameter(name: name, values: values))
            } catch {
                throw item.error(error.message)
            }
        }
        let definition = SweepDefinition(
            workload: try object.string("workload"), device: Device(memory: memory, reserved: reserved),
            policies: policies, realKillers: realKillers, parameters: parameters, samples: try strings("samples"),
            baseline: try object.optionalString("baseline"), inputs: try object.string("inputs"),
            metrics: try strings("metrics"))
        try object.finish()
        guard definition.metrics.allSatisfy({ MetricDefinition.named($0)?.isDeterministic == true }) else {
            throw object.error("key \"metrics\": expected deterministic metrics this version knows")
        }
        return definition
    }
}
