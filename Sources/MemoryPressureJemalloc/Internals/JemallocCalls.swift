import CJemalloc

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place the package calls jemalloc's C API: every `mallctl` read, write and command, and
/// every `mallocx`/`sdallocx`/`nallocx`, goes through here, so every control failure becomes a
/// ``MallctlError`` naming the control.
enum JemallocCalls {
    // MARK: mallctl

    /// Reads the control `name` as a value of type `T`.
    static func read<T: BitwiseCopyable>(_ name: String, as type: T.Type = T.self) throws(MallctlError) -> T {
        var size = MemoryLayout<T>.size
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<T>.alignment)
        defer { pointer.deallocate() }
        let result = mallctl(name, pointer, &size, nil, 0)
        guard result == 0 else { throw MallctlError(control: name, errno: result) }
        guard size == MemoryLayout<T>.size else { throw MallctlError(control: name, errno: EINVAL) }
        return pointer.load(as: T.self)
    }

    /// Reads the string control `name` (a `const char *`, such as `version`).
    static func readString(_ name: String) throws(MallctlError) -> String {
        let pointer = try read(name, as: UnsafePointer<CChar>?.self)
        guard let pointer else { throw MallctlError(control: name, errno: EINVAL) }
        return String(cString: pointer)
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

    // MARK: allocation

    /// The `mallocx` flags that place an allocation in `arena` and bypass the thread cache, so the
    /// arena's statistics see every allocation and free at once.
    static func flags(arena: UInt32) -> Int32 {
        cjemalloc_mallocx_arena(arena) | cjemalloc_mallocx_tcache_none()
    }

    /// `mallocx(size, flags)`: `nil` when jemalloc is out of memory. `size` must be positive.
    static func allocate(size: Int, flags: Int32) -> UnsafeMutableRawPointer? {
        precondition(size > 0, "mallocx of \(size) bytes: expected a positive size")
        return mallocx(size, flags)
    }

    /// `sdallocx(pointer, size, flags)`: frees an allocation made by ``allocate(size:flags:)``
    /// with the same `size` and `flags`.
    static func deallocate(_ pointer: UnsafeMutableRawPointer, size: Int, flags: Int32) {
        sdallocx(pointer, size, flags)
    }

    /// `nallocx(size, flags)`: the size class (usable size) `mallocx(size, flags)` would return.
    static func sizeClass(of size: Int, flags: Int32) -> Int {
        precondition(size > 0, "nallocx of \(size) bytes: expected a positive size")
        return nallocx(size, flags)
    }
}
