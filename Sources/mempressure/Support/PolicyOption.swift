import ArgumentParser
import MemoryPressure

/// The `--policy NAME|FILE` option shared by the commands that run a policy.
struct PolicyOption: ParsableArguments {
    @Option(name: .long, help: "The policy: a shipped policy's name or a policy file. (default: ios4)")
    var policy: String = "ios4"

    /// The policy the option names.
    func resolve() throws -> Policy {
        switch policy {
        case "ios4": return .ios4
        default:
            throw CLIError.notFound("no policy named \"\(policy)\"; the shipped policies are: ios4")
        }
    }
}
