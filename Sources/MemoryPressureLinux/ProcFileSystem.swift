import Foundation

/// Where `/proc`-style files are read from: the real `/proc` (and `/sys/fs/cgroup`) of this
/// machine, or a copied tree in a fixture directory. Every file read of the module goes through it.
public struct ProcFileSystem: Sendable {
    /// The directory that plays the role of `/proc`.
    public var procRoot: String

    /// The live `/proc` of this machine.
    public static let live = ProcFileSystem(procRoot: "/proc")

    /// A file system rooted at `procRoot` (for example a fixture copy of `/proc`).
    public init(procRoot: String) {
        self.procRoot = procRoot
    }

    /// The contents of `relativePath` under the root, or `nil` if it does not exist or cannot be
    /// read (a process that vanished mid-read, a permission error).
    public func read(_ relativePath: String) -> String? {
        let path = procRoot + "/" + relativePath
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
