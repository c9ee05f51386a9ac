import Foundation

/// Runs the built `mempressure` executable, as a user would, and captures what it prints.
public struct CommandResult: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything written to standard output.
    public var standardOutput: String
    /// Everything written to standard error.
    public var standardError: String
}

/// Where the package's files are: the repository root, found from this source file.
public enum PackagePaths {
    /// The repository root.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A path under the repository root.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The `mempressure` executable built next to the test bundle.
    public static var executable: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("mempressure"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("mempressure"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
}

/// Runs `mempressure` with `arguments` (and `input` on standard input) and waits for it.
public func runMempressure(_ arguments: [String], input: String? = nil, environment: [String: String]? = nil) throws
    -> CommandResult
{
    let process = Process()
    process.executableURL = PackagePaths.executable
    process.arguments = arguments
    process.currentDirectoryURL = PackagePaths.root
    if let environment { process.environment = environment }
    let output = Pipe()
    let error = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Read both pipes concurrently so a large output cannot fill one and block the child.
    let errorData = LockedData()
    let reader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.isSet { usleep(1000) }
    return CommandResult(
        status: process.terminationStatus,
        standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData.value, as: UTF8.self))
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}

/// Compares `actual` with the golden file at `relativePath` (under `Tests/Golden`); with
/// `UPDATE_GOLDEN=1` in the environment, writes `actual` there instead. Returns a description of
/// the first difference, or `nil` if they match.
public func goldenMismatch(_ actual: String, _ relativePath: String) -> String? {
    let path = PackagePaths.path("Tests/Golden/" + relativePath)
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? actual.write(toFile: path, atomically: true, encoding: .utf8)
        return nil
    }
    guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
        return "missing golden file \(path) (run the tests with UPDATE_GOLDEN=1 to create it)"
    }
    guard expected != actual else { return nil }
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(expectedLines.count, actualLines.count) {
        let want = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
        let got = index < actualLines.count ? String(actualLines[index]) : "<end>"
        if want != got { return "\(relativePath) line \(index + 1):\n  expected: \(want)\n  actual:   \(got)" }
    }
    return "\(relativePath) differs"
}
