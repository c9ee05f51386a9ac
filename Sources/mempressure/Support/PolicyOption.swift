import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// The `--policy NAME|FILE` option shared by the commands that run a policy.
struct PolicyOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A shipped policy's name or a policy file (YAML or JSON).",
            discussion:
                "Shipped: \(Policy.shippedNames.joined(separator: ", ")); in simulations also oracle (the clairvoyant reference) and oracle-prewarm (the oracle that also prewarms the app opened next). Default: ios4; for a real report, the policy of the system that wrote it.",
            valueName: "name|file"))
    var policy: String?

    /// The policy the option names (`defaultName` when it is not given): a shipped one by name,
    /// otherwise the file at that path.
    func resolve(defaultName: String = "ios4") throws -> Policy {
        try PolicyOption.load(policy ?? defaultName)
    }

    /// Whether `name` names a policy without a file: a shipped one, the oracle or `informed`.
    static func isReference(_ name: String) -> Bool {
        Policy.shippedNames.contains(name) || name == Oracle.name || name == Oracle.prewarmingName
            || name == Informed.name
    }

    /// Loads the shipped policy `nameOrPath`, or the policy file at that path; `informed` (the
    /// reference told a generated user's app weights) only where `allowsInformed`.
    static func load(_ nameOrPath: String, allowsInformed: Bool = false) throws -> Policy {
        do {
            if nameOrPath == Oracle.name { return Oracle.policy }
            if nameOrPath == Oracle.prewarmingName { return Oracle.prewarmingPolicy }
            if nameOrPath == Informed.name {
                guard allowsInformed else {
                    throw CLIError.usage("informed is a reference of compare on generated users, not a policy to run here")
                }
                return Informed.policy
            }
            if Policy.shippedNames.contains(nameOrPath) {
                return try Policy.shipped(nameOrPath)
            }
            guard FileManager.default.fileExists(atPath: nameOrPath) else {
                throw CLIError.notFound(
                    "\(nameOrPath): no shipped policy of that name and no such file; shipped policies: "
                        + Policy.shippedNames.joined(separator: ", "))
            }
            return try Policy(yaml: try InputFile.read(nameOrPath), file: nameOrPath)
        } catch let errors as PolicyErrors {
            throw CLIError.malformed(errors.description)
        }
    }
}
