import ArgumentParser
import MemoryPressureSimulation

/// A failure the command reports with one of the documented exit codes (sysexits.h).
struct CLIError: Error, CustomStringConvertible {
    /// The documented exit codes.
    enum Kind: Int32 {
        /// 64: the command line is wrong (`EX_USAGE`).
        case badUsage = 64
        /// 65: malformed input (`EX_DATAERR`).
        case malformedInput = 65
        /// 66: input not found or unreadable (`EX_NOINPUT`).
        case inputNotFound = 66
        /// 71: the operating system or the allocator failed (`EX_OSERR`), as jemalloc in
        /// `simulate --real-memory`.
        case systemFailure = 71
        /// 74: output not writable (`EX_IOERR`).
        case outputNotWritable = 74
    }

    var kind: Kind
    var message: String

    var description: String { message }

    static func usage(_ message: String) -> CLIError { CLIError(kind: .badUsage, message: message) }
    static func malformed(_ message: String) -> CLIError { CLIError(kind: .malformedInput, message: message) }
    static func notFound(_ message: String) -> CLIError { CLIError(kind: .inputNotFound, message: message) }
    static func notWritable(_ message: String) -> CLIError { CLIError(kind: .outputNotWritable, message: message) }
    static func systemFailure(_ message: String) -> CLIError { CLIError(kind: .systemFailure, message: message) }
}

/// Runs `body`; a ``CLIError`` (or any other error, as malformed input) is printed to stderr as
/// `mempressure: error: …` and becomes its exit code.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as CLIError {
        StandardError.write("mempressure: error: \(error.message)\n")
        throw ExitCode(error.kind.rawValue)
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch let error as ComparisonError {
        StandardError.write("mempressure: error: \(error.description)\n")
        throw ExitCode(CLIError.Kind.badUsage.rawValue)
    } catch {
        StandardError.write("mempressure: error: \(error)\n")
        throw ExitCode(CLIError.Kind.malformedInput.rawValue)
    }
}

/// ``reportingErrors(_:)`` for async commands.
func reportingErrorsAsync(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        try reportingErrors { throw error }
    }
}
