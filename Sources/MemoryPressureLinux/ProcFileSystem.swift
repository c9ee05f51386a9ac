/// Where `/proc`-style files are read from: the real `/proc` and `/sys/fs/cgroup` of this
/// machine, or a copied tree in a fixture directory.
///
/// Every file read and directory listing of the module goes through here (and from here to the
/// C library through `SystemCalls`, or `ProcScanner` for the per-process files of a scan), so
/// tests can point the whole module at a fixture tree.
public struct ProcFileSystem: Sendable, Hashable {
    /// The directory that plays the role of `/proc`.
    public var procRoot: String
    /// The directory that plays the role of `/sys/fs/cgroup`, or `nil` to read no cgroup files.
    public var cgroupRoot: String?
    /// The page size of the machine the files describe, in bytes (for page-based formulas such
    /// as ``LinuxOOMBadness``).
    public var pageSize: Int

    /// The live `/proc` and `/sys/fs/cgroup` of this machine, with its real page size.
    public static let live = ProcFileSystem(
        procRoot: "/proc", cgroupRoot: "/sys/fs/cgroup", pageSize: SystemCalls.pageSize()
    )

    /// A file system rooted at `procRoot` (for example a fixture copy of `/proc`), with cgroup
    /// files under `cgroupRoot` if given.
    ///
    /// - Complexity: O(1)
    public init(procRoot: String, cgroupRoot: String? = nil, pageSize: Int = 4096) {
        self.procRoot = procRoot
        self.cgroupRoot = cgroupRoot
        self.pageSize = pageSize
    }

    /// A fixture tree laid out like a machine's root: `root/proc` and `root/sys/fs/cgroup`.
    ///
    /// - Complexity: O(length of `root`)
    public static func fixture(root: String, pageSize: Int = 4096) -> ProcFileSystem {
        ProcFileSystem(procRoot: root + "/proc", cgroupRoot: root + "/sys/fs/cgroup", pageSize: pageSize)
    }

    /// The full path of `relativePath` under the proc root (for messages).
    ///
    /// - Complexity: O(length of the path)
    public func procPath(_ relativePath: String) -> String {
        procRoot + "/" + relativePath
    }

    /// The full path of `relativePath` under the cgroup root, or `nil` without one.
    ///
    /// - Complexity: O(length of the path)
    public func cgroupPath(_ relativePath: String) -> String? {
        cgroupRoot.map { $0 + "/" + relativePath }
    }

    /// The contents of `relativePath` under the proc root, or `nil` if it does not exist or cannot
    /// be read (a process that vanished mid-read, a permission error).
    ///
    /// - Complexity: O(file size).
    public func read(_ relativePath: String) -> String? {
        if case .contents(let text) = contents(of: relativePath) { return text }
        return nil
    }

    /// The contents of `relativePath` under the cgroup root, or `nil` if there is no cgroup root
    /// or the file does not exist or cannot be read.
    ///
    /// - Complexity: O(file size).
    public func readCgroup(_ relativePath: String) -> String? {
        guard let path = cgroupPath(relativePath), case .contents(let text) = SystemCalls.readFile(path) else {
            return nil
        }
        return text
    }

    /// Reads `relativePath` under the proc root, telling a missing file from an unreadable one.
    ///
    /// - Complexity: O(file size).
    func contents(of relativePath: String) -> SystemCalls.FileRead {
        SystemCalls.readFile(procPath(relativePath))
    }

    /// Whether `relativePath` exists under the cgroup root.
    ///
    /// - Complexity: O(1)
    public func cgroupFileExists(_ relativePath: String) -> Bool {
        guard let path = cgroupPath(relativePath) else { return false }
        return SystemCalls.exists(path)
    }

    /// The process ids present under the proc root (its all-digit entries), in increasing order.
    ///
    /// - Complexity: O(n log n) in the number of entries.
    public func processIDs() -> [ProcessID] {
        ProcScanner(procRoot: procRoot).processIDs()
    }
}
