#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed `mallctl` call: names the control and the errno jemalloc returned.
public struct MallctlError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The control name, such as `arena.3.purge`.
    public var control: String
    /// The errno value `mallctl` returned (`ENOENT`, `EINVAL`, `EFAULT`, `EAGAIN`, `EPERM`).
    public var errno: Int32

    /// A failure of `control` with `errno`.
    ///
    /// - Complexity: O(1)
    public init(control: String, errno: Int32) {
        self.control = control
        self.errno = errno
    }

    /// "mallctl(arena.3.purge) failed: ENOENT (no such control); expected an existing control".
    public var description: String {
        let name: String
        switch errno {
        case ENOENT: name = "ENOENT (no such control or arena)"
        case EINVAL: name = "EINVAL (invalid value or size)"
        case EFAULT: name = "EFAULT (arena does not exist)"
        case EAGAIN: name = "EAGAIN (out of memory)"
        case EPERM: name = "EPERM (not permitted)"
        default: name = "errno \(errno)"
        }
        return "mallctl(\(control)) failed: \(name); expected an existing control and a valid value"
    }
}
