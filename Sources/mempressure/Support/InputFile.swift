import Foundation

/// Reading an input file, with the documented errors: exit 66 when it is missing or unreadable.
enum InputFile {
    /// The name error messages use for `path`: `<stdin>` for `-`.
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// The text of the file at `path` (`-` reads standard input).
    static func read(_ path: String) throws -> String {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return try decode(data, path: "<stdin>")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.notFound("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw CLIError.notFound("\(path): is a directory, expected a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.notFound("\(path): cannot be read (permission denied?)")
        }
        return try decode(data, path: path)
    }

    private static func decode(_ data: Data, path: String) throws -> String {
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError.malformed("\(path): expected UTF-8 text")
        }
        return text
    }
}
