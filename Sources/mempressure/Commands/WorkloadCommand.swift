import ArgumentParser
import MemoryPressure
import MemoryPressureSimulation

/// `mempressure workload`: list the built-in workloads, or print a shipped workload file.
struct WorkloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workload",
        abstract: "List the built-in workloads, or print a shipped workload file with the source of every value.",
        subcommands: [List.self, Show.self]
    )

    /// `workload list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the built-in workloads and say which are shipped files.")

        func run() throws {
            try reportingErrors {
                var text = ""
                for name in Workload.builtIn.keys.sorted() {
                    let shipped = Workload.shippedSource(name) != nil
                    text += name + (shipped ? " (a shipped file: workload show \(name))" : " (defined in code)") + "\n"
                }
                try StandardOutput.write(text)
            }
        }
    }

    /// `workload show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a shipped workload file as compiled in, comments (the sources) included.",
            discussion: """
                The text loads back with --workload; a copy with changes can start from it with \
                base: and override any key (docs/file-formats.md, "Workload").
                """)

        @Argument(help: "A shipped workload's name: phone-2024.")
        var workload: String

        func run() throws {
            try reportingErrors {
                guard let text = Workload.shippedSource(workload) else {
                    let shipped = Workload.builtIn.keys.sorted().filter { Workload.shippedSource($0) != nil }
                    throw CLIError.usage(
                        "no shipped workload file named \"\(workload.escapingControlCharacters())\"; expected "
                            + shipped.joined(separator: ", ")
                            + " (phone and server are defined in code: Workload.phone, Workload.server)")
                }
                try StandardOutput.write(text)
            }
        }
    }
}
