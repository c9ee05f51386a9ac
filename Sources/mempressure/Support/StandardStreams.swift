import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writing to standard error.
enum StandardError {
    /// Writes `text` to stderr; a failure to write a diagnostic is ignored.
    static func write(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Whether stderr is a terminal (progress indicators are shown only then).
    static var isTerminal: Bool { isatty(2) == 1 }
}

/// Writing to standard output.
enum StandardOutput {
    /// Writes `text` to stdout; a failure (a closed pipe, a full disk) is an output error (exit 74).
    static func write(_ text: String) throws {
        if let code = OutputFile.writeAll(text, to: STDOUT_FILENO) {
            throw CLIError.notWritable("cannot write to standard output (\(String(cString: strerror(code))))")
        }
    }
}
