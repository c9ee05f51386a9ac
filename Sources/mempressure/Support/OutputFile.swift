import Foundation

/// Writing an output file safely: into a temporary file beside it, then renamed over it, so a
/// failed run never leaves a half-written file. Failures exit 74.
enum OutputFile {
    /// Writes `text` to `path` atomically.
    static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw CLIError.notWritable("\(path): directory \(directory.path) does not exist")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
        } catch {
            throw CLIError.notWritable("\(path): cannot write (\(error.localizedDescription))")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError.notWritable("\(path): cannot replace the file (\(reason))")
        }
    }
}
