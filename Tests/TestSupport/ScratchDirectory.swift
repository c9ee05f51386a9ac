import Foundation

/// The folder under which ``scratchDirectory(_:)`` creates this test process's directories; it is
/// removed when the process exits, so a test that cannot clean up after itself (its files are
/// read by a child process after the test returns, or it throws half-way) leaves nothing behind.
private let scratchRoot: String = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("mempressure-tests-\(getpid())").path
    atexit { try? FileManager.default.removeItem(atPath: scratchRoot) }
    return root
}()

/// A fresh, empty directory named after `prefix` for one test's files, removed (with everything in
/// it) when the test process exits.
public func scratchDirectory(_ prefix: String) throws -> URL {
    let url = URL(fileURLWithPath: scratchRoot).appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
