import CJemalloc

#if canImport(Glibc)
import Glibc
#endif

/// A failed `mallctl` call: names the control and the errno jemalloc returned.
public struct MallctlError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The control name, such as `arena.3.purge`.
    public var control: String
    /// The errno value `mallctl` returned (`ENOENT`, `EINVAL`, `EFAULT`, `EAGAIN`, `EPERM`).
    public var errno: Int32

    /// "mallctl(arena.3.purge) failed: ENOENT (no such control)".
    public var description: String {
        let name: String
        switch errno {
        case ENOENT: name = "ENOENT (no such control)"
        case EINVAL: name = "EINVAL (invalid value or size)"
        case EFAULT: name = "EFAULT (arena does not exist)"
        case EAGAIN: name = "EAGAIN (out of memory)"
        case EPERM: name = "EPERM (not permitted)"
        default: name = "errno \(errno)"
        }
        return "mallctl(\(control)) failed: \(name)"
    }
}

/// The one place the package calls `mallctl`: every read, write and command goes through here,
/// so every failure becomes a ``MallctlError`` naming the control.
enum Mallctl {
    /// Reads the control `name` as a value of type `T`.
    static func read<T: BitwiseCopyable>(_ name: String, as type: T.Type = T.self) throws(MallctlError) -> T {
        var size = MemoryLayout<T>.size
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<T>.alignment)
        defer { pointer.deallocate() }
        let result = mallctl(name, pointer, &size, nil, 0)
        guard result == 0 else { throw MallctlError(control: name, errno: result) }
        return pointer.load(as: T.self)
    }

    /// Writes `value` to the control `name`.
    static func write<T: BitwiseCopyable>(_ name: String, _ value: T) throws(MallctlError) {
        var value = value
        let result = withUnsafeMutableBytes(of: &value) { buffer in
            mallctl(name, nil, nil, buffer.baseAddress, buffer.count)
        }
        guard result == 0 else { throw MallctlError(control: name, errno: result) }
    }

    /// Runs the control `name` as a command (no input, no output), such as `arena.<i>.purge`.
    static func run(_ name: String) throws(MallctlError) {
        let result = mallctl(name, nil, nil, nil, 0)
        guard result == 0 else { throw MallctlError(control: name, errno: result) }
    }

    /// Refreshes the statistics snapshot (`epoch`) so `stats.*` reads are current.
    static func refreshStatistics() throws(MallctlError) {
        var current: UInt64 = 0
        var next: UInt64 = 1
        var size = MemoryLayout<UInt64>.size
        let result = mallctl("epoch", &current, &size, &next, size)
        guard result == 0 else { throw MallctlError(control: "epoch", errno: result) }
    }
}
