import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

#if canImport(Glibc)
    import Glibc
#endif

/// Reading a trace file (JSON Lines), with the documented errors.
enum TraceFile {
    /// The trace at `path` (`-` reads standard input), open to be read line by line as many times
    /// as needed (``InputFile/openRereadable(_:)``).
    ///
    /// - Throws: ``CLIError`` 66 when it cannot be opened.
    static func open(_ path: String) throws -> Input {
        Input(file: try InputFile.openRereadable(path), name: InputFile.displayName(path))
    }

    /// A trace file kept open: every ``reader()`` reads it from its first line.
    final class Input: Sendable {
        /// The open file.
        let file: InputFile.Rereadable
        /// The name used in error messages.
        let name: String

        init(file: InputFile.Rereadable, name: String) {
            self.file = file
            self.name = name
        }

        /// A new reader at the trace's first line (it reads the `device` line and the first
        /// action already).
        func reader() -> TraceReader {
            // InputFile.read dropped one byte order mark and the trace parser another.
            TraceReader(ByteLineReader(.file(file.descriptor), file: name, byteOrderMarks: 2, owner: file))
        }
    }
}
