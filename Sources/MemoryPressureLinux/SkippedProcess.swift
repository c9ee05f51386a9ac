/// A `/proc/<pid>` entry left out of a ``LinuxProcessTable``, and why.
public struct SkippedProcess: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why an entry was left out.
    public enum Reason: Hashable, Sendable {
        /// A kernel thread (`Kthread: 1`, or no address space: no `VmRSS` line): it holds no
        /// user memory and the OOM killer never picks it.
        case kernelThread
        /// A zombie (`State: Z`): it has exited and holds no memory.
        case zombie
        /// The process exited while it was being read (its files vanished).
        case vanished
        /// A file could not be read (the errno is given), for example for lack of permission.
        case unreadable(file: String, errno: Int32)
        /// A file did not say what it should; `field` names what was missing or garbled.
        case malformed(file: String, field: String)
    }

    /// The entry's process id.
    public var pid: ProcessID
    /// Why it was left out.
    public var reason: Reason

    /// A skipped entry.
    ///
    /// - Complexity: O(1)
    public init(pid: ProcessID, reason: Reason) {
        self.pid = pid
        self.reason = reason
    }

    /// "pid 42 skipped: kernel thread".
    public var description: String {
        let why: String
        switch reason {
        case .kernelThread: why = "kernel thread"
        case .zombie: why = "zombie"
        case .vanished: why = "vanished while being read"
        case .unreadable(let file, let errno): why = "\(file) unreadable (errno \(errno))"
        case .malformed(let file, let field): why = "\(file) has a garbled or missing \(field)"
        }
        return "pid \(pid) skipped: \(why)"
    }
}
