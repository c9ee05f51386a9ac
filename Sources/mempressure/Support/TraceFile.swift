import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// Reading a trace file (JSON Lines), with the documented errors.
enum TraceFile {
    /// The trace at `path` (`-` reads standard input).
    ///
    /// - Throws: ``CLIError`` 66 when it cannot be read, 65 when it is malformed (file, line, field).
    static func load(_ path: String) throws -> Trace {
        let text = try InputFile.read(path)
        do throws(InputError) {
            return try Trace(jsonLines: text, file: InputFile.displayName(path))
        } catch {
            throw CLIError.malformed(error.description)
        }
    }
}
