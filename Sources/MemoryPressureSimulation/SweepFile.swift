import MemoryPressure
import MemoryPressureFormats

/// A sweep file (YAML or JSON): the grid, and optionally the policies, seeds and baseline.
///
///     policies: [ios4, jetsam, lru, oracle]
///     seeds: 30
///     firstSeed: 1
///     baseline: ios4
///     parameters:
///       memory: [256MiB, 384MiB, 512MiB, 1GiB]
///       policy.thresholds.warning.enter: [12%, 18%]
///       hours: 12                 # a single value is a one-value parameter
public struct SweepFile: Sendable, Hashable {
    /// The parameters, in file order (the first varies slowest).
    public var parameters: [SweepParameter]
    /// The policies, or `nil` to leave them to the command line.
    public var policies: [String]?
    /// The number of seeds, or `nil`.
    public var seeds: Int?
    /// The first seed, or `nil`.
    public var firstSeed: UInt64?
    /// The baseline, or `nil`.
    public var baseline: String?

    /// Reads a sweep file.
    ///
    /// - Throws: `InputError` naming the file, line, column and field of the first problem and
    ///   what was expected.
    /// - Complexity: O(length of `text`)
    public init(yaml text: String, file: String) throws(InputError) {
        let document = try ConfigObject(try ConfigNode.parseYAML(text, file: file), file: file)
        policies = try document.optionalStringList("policies")
        seeds = try document.optionalInt("seeds", in: 1...10_000)
        firstSeed = try document.optionalInt("firstSeed", in: 0...Int.max).map(UInt64.init)
        baseline = try document.optionalString("baseline")
        parameters = []
        if let grid = try document.optionalObject("parameters") {
            for key in grid.keys {
                guard let node = grid.optional(key) else {
                    throw grid.error("key \(key.quotedExcerpt()): expected a value or a list of values")
                }
                var values: [String] = []
                let items: [ConfigNode]
                if case .array(let elements) = node.value { items = elements } else { items = [node] }
                for item in items {
                    switch item.value {
                    case .string(let text), .number(_, let text): values.append(text)
                    default:
                        throw grid.error(
                            at: item, key: key,
                            "expected a value such as 512MiB, 12 or 15%, found \(item.kindDescription)")
                    }
                }
                do throws(SweepError) {
                    parameters.append(try SweepParameter(name: key, values: values))
                } catch {
                    throw grid.error(at: node, key: key, error.message)
                }
            }
            try grid.finish()
        }
        try document.finish()
    }
}
