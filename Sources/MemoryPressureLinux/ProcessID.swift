/// A Linux process id: the name of a `/proc/<pid>` directory.
public struct ProcessID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The kernel's `pid_t`.
    public var rawValue: Int32

    /// The process with id `rawValue`.
    ///
    /// - Complexity: O(1)
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Orders ids numerically.
    ///
    /// - Complexity: O(1)
    public static func < (lhs: ProcessID, rhs: ProcessID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The id in decimal, as in `/proc/<pid>`.
    public var description: String { String(rawValue) }
}
