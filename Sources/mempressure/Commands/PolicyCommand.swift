import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// `mempressure policy`: list, show and validate policies.
struct PolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "List the shipped policies, show one fully resolved, or validate policy files.",
        subcommands: [List.self, Show.self, Validate.self]
    )

    /// `policy list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the shipped policies with one-line descriptions.")

        func run() throws {
            try reportingErrors {
                var rows = [["NAME", "DESCRIPTION"]]
                for name in Policy.shippedNames {
                    let policy = try PolicyOption.load(name)
                    rows.append([name + (name == "ios4" ? " (default)" : ""), policy.summary])
                }
                try StandardOutput.write(TextTable.render(rows, rightAligned: []))
            }
        }
    }

    /// `policy show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a policy fully resolved (every default filled in), as YAML that loads back.",
            discussion: """
                The clairvoyant references (oracle, oracle-prewarm, oracle@P) are shown too: their \
                lifecycle, under a comment saying that their bands' order (by what the trace does \
                next) is set in code, so that YAML does not load back. predictive@P (policy P with \
                predictive's learnt victim choice) is an ordinary policy: its YAML loads back.
                """)

        @Argument(
            help:
                "A shipped policy's name, a reference such as oracle@jetsam, a layered policy such as predictive@jetsam-compressor, or a policy file."
        )
        var policy: String

        func run() throws {
            try reportingErrors {
                let loaded = try PolicyOption.load(policy, option: "policy show")
                let note =
                    Oracle.isClairvoyant(loaded)
                    ? "# \(loaded.name) orders its bands by what the trace does next (externalScore, set in code): "
                        + "this is its lifecycle; it does not load back as a policy file.\n" : ""
                try StandardOutput.write(note + PolicyYAML.render(loaded))
            }
        }
    }

    /// `policy validate`.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check policy files; stops at the first invalid file (exit 65), listing every problem in it.")

        @Argument(help: "The policy files to check.")
        var files: [String]

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one policy file") }
        }

        func run() throws {
            try reportingErrors {
                for file in files {
                    let text = try InputFile.read(file)
                    let policy: Policy
                    do throws(PolicyErrors) {
                        policy = try Policy(yaml: text, file: file)
                    } catch {
                        let count = error.problems.count
                        throw CLIError.malformed(
                            "\(file): \(count) problem\(count == 1 ? "" : "s")\n" + error.description)
                    }
                    try StandardOutput.write(
                        "\(file.escapingControlCharacters()): ok (policy \(policy.name.escapingControlCharacters()), "
                            + "\(policy.bands.count) band\(policy.bands.count == 1 ? "" : "s"))\n"
                    )
                }
            }
        }
    }
}
