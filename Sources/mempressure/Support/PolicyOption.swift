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
                "Shipped: \(Policy.shippedNames.joined(separator: ", ")); predictive@P is policy P (a name or a file) with predictive's learnt victim choice (and, where P compresses, what reclaim compresses first); with simulate and replay also oracle (the clairvoyant reference, with ios4's lifecycle), oracle-prewarm (the oracle that also prewarms the app opened next), and oracle@P or oracle-prewarm@P (the same with the lifecycle of policy P). Default: ios4 (kill-order on a real report: the policy of the system that wrote it).",
            valueName: "name|file"))
    var policy: String?

    /// The policy the option names (`defaultName` when it is not given): a shipped one by name,
    /// otherwise the file at that path.
    func resolve(defaultName: String = "ios4") throws -> Policy {
        try PolicyOption.load(policy ?? defaultName)
    }

    /// `policy`, unless it is clairvoyant (`oracle`, `oracle-prewarm`, `oracle@P` …): those read the
    /// rest of a trace, which `command` (ranking what is in memory now) does not have, so their
    /// order there would be meaningless.
    static func refusingClairvoyant(_ policy: Policy, in command: String) throws -> Policy {
        guard !Oracle.isClairvoyant(policy) else {
            throw CLIError.usage(
                "\(policy.name) knows the rest of a trace (a reference of simulate, replay, compare and sweep); "
                    + "\(command) ranks what is in memory now, with no future to read: give a policy")
        }
        return policy
    }

    /// Whether `name` names a policy without a file: a shipped one, the oracle, the oracle that
    /// prewarms or `informed`, or one of those or `predictive`'s learnt choice with the lifecycle
    /// of a shipped policy (`oracle@predictive`, `predictive@jetsam-compressor`).
    static func isReference(_ name: String) -> Bool {
        if let lifecycle = LifecycleReference(name) { return Policy.shippedNames.contains(lifecycle.base) }
        return Policy.shippedNames.contains(name) || name == Oracle.name || name == Oracle.prewarmingName
            || name == Informed.name
    }

    /// The policy file `name` reads, if any: `name` itself, or the policy after `@` in
    /// `oracle@FILE` and the like; `nil` for shipped policies and references.
    static func file(of name: String) -> String? {
        guard !isReference(name) else { return nil }
        return LifecycleReference(name)?.base ?? name
    }

    /// `oracle@P`, `oracle-prewarm@P`, `informed@P` or `predictive@P`: a reference, or
    /// `predictive`'s learnt victim choice, with the lifecycle of the policy `P` (a shipped name or
    /// a file).
    struct LifecycleReference {
        /// What is layered on `P`: `oracle`, `oracle-prewarm`, `informed` or `predictive`.
        static let layers = [Oracle.name, Oracle.prewarmingName, Informed.name, Predictive.name]

        /// `oracle`, `oracle-prewarm`, `informed` or `predictive`.
        var reference: String
        /// The shipped policy's name or the file whose lifecycle the reference keeps; empty when
        /// none follows the `@`.
        var base: String

        /// Splits `name` at its first `@` if it starts with `oracle@`, `oracle-prewarm@`,
        /// `informed@` or `predictive@`.
        init?(_ name: String) {
            guard let at = name.firstIndex(of: Character(Oracle.lifecycleSeparator)) else { return nil }
            let reference = String(name[..<at])
            guard Self.layers.contains(reference) else { return nil }
            self.reference = reference
            self.base = String(name[name.index(after: at)...])
        }

        /// What a name of this form must be, for error messages.
        var expected: String {
            "expected \(reference)@P, P a shipped policy (\(Policy.shippedNames.joined(separator: ", "))) or a policy file"
        }
    }

    /// Loads the shipped policy `nameOrPath`, or the policy file at that path; `informed` (the
    /// reference told a generated user's app weights) only where `allowsInformed`. `option` (such
    /// as `--policies`) names where the name was given, in the messages about a policy after `@`
    /// that is missing or not found.
    static func load(_ nameOrPath: String, allowsInformed: Bool = false, option: String = "--policy") throws -> Policy {
        if let lifecycle = LifecycleReference(nameOrPath) {
            if lifecycle.reference == Informed.name && !allowsInformed {
                throw CLIError.usage("informed is a reference of compare on generated users, not a policy to run here")
            }
            guard !lifecycle.base.isEmpty else {
                throw CLIError.usage("\(option) \(nameOrPath): no policy after \"@\"; \(lifecycle.expected)")
            }
            let base: Policy
            do {
                base = try load(lifecycle.base)
            } catch let error as CLIError
                where error.kind == .inputNotFound && LifecycleReference(lifecycle.base) == nil
            {
                throw CLIError.notFound(
                    "\(option) \(nameOrPath): \(lifecycle.base): no shipped policy of that name and no such file; "
                        + lifecycle.expected)
            }
            if Oracle.isClairvoyant(base) {
                throw CLIError.usage(
                    "\(nameOrPath): \(lifecycle.base) is a reference itself; give a policy whose lifecycle to keep")
            }
            switch lifecycle.reference {
            case Oracle.name: return Oracle.policy(lifecycleOf: base)
            case Oracle.prewarmingName: return Oracle.prewarmingPolicy(lifecycleOf: base)
            case Predictive.name: return Predictive.policy(lifecycleOf: base)
            default: return Informed.policy(lifecycleOf: base)
            }
        }
        do {
            if nameOrPath == Oracle.name { return Oracle.policy }
            if nameOrPath == Oracle.prewarmingName { return Oracle.prewarmingPolicy }
            if nameOrPath == Informed.name {
                guard allowsInformed else {
                    throw CLIError.usage(
                        "informed is a reference of compare on generated users, not a policy to run here")
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
