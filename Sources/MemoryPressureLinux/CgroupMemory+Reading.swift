import MemoryPressure

extension CgroupMemory {
    /// Reads the memory numbers of the cgroup process `pid` (this process if `nil`) belongs to.
    ///
    /// Finds the cgroup in `/proc/<pid>/cgroup`. With cgroup v2 (`0::<path>`) it reads
    /// `memory.current` and `memory.max` under the unified mount: the cgroup root itself, or its
    /// `unified` directory on hybrid systems. Failing that, it reads the v1 memory controller's
    /// `memory.usage_in_bytes` and `memory.limit_in_bytes` under `memory/`. v1 reports "no limit"
    /// as a huge number (`PAGE_COUNTER_MAX` pages: 9223372036854771712 with 4 KiB pages); limits
    /// of 2⁶² bytes or more are read as unlimited.
    ///
    /// - Returns: `nil` when there is no cgroup membership file, no cgroup root, or no memory
    ///   files for the cgroup (for example in the root cgroup, which has no `memory.current`).
    /// - Throws: ``LinuxReadError/malformedLine(path:line:text:expected:)`` for a garbled
    ///   membership or memory file, naming the file and line.
    /// - Complexity: O(size of the files read).
    public static func read(
        for pid: ProcessID? = nil, from fileSystem: ProcFileSystem = .live
    ) throws(LinuxReadError) -> CgroupMemory? {
        let membershipFile = (pid.map(\.description) ?? "self") + "/cgroup"
        guard fileSystem.cgroupRoot != nil, let text = fileSystem.read(membershipFile) else { return nil }
        let memberships = try parseMemberships(text, path: fileSystem.procPath(membershipFile))

        if let unified = memberships.first(where: { $0.hierarchy == "0" && $0.controllers.isEmpty }) {
            for mount in ["", "unified/"] where fileSystem.cgroupFileExists(mount + "cgroup.controllers") {
                let directory = mount + relative(unified.path)
                guard
                    case .bytes(let current)? = try value(
                        directory + "memory.current", in: fileSystem, allowsMax: false)
                else { continue }
                let limit = try value(directory + "memory.max", in: fileSystem, allowsMax: true)?.bytes
                return CgroupMemory(version: .v2, path: unified.path, current: current, limit: limit)
            }
        }
        if let legacy = memberships.first(where: { $0.controllers.split(separator: ",").contains("memory") }) {
            let directory = "memory/" + relative(legacy.path)
            if case .bytes(let current)? = try value(
                directory + "memory.usage_in_bytes", in: fileSystem, allowsMax: false)
            {
                var limit = try value(directory + "memory.limit_in_bytes", in: fileSystem, allowsMax: false)?.bytes
                if let bytes = limit, bytes.value >= 1 << 62 { limit = nil }
                return CgroupMemory(version: .v1, path: legacy.path, current: current, limit: limit)
            }
        }
        return nil
    }

    /// One line of `/proc/<pid>/cgroup`: `hierarchy-id:controllers:path`.
    struct Membership: Equatable {
        var hierarchy: Substring
        var controllers: Substring
        var path: String
    }

    /// Parses `/proc/<pid>/cgroup`.
    static func parseMemberships(_ text: String, path: String) throws(LinuxReadError) -> [Membership] {
        var result: [Membership] = []
        for (number, line) in ProcText.numberedLines(text) {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(\.isNumber), parts[2].hasPrefix("/") else {
                throw .malformedLine(
                    path: path, line: number, text: String(line),
                    expected: "\"<hierarchy-id>:<controllers>:/<path>\" such as \"0::/user.slice\"")
            }
            result.append(Membership(hierarchy: parts[0], controllers: parts[1], path: String(parts[2])))
        }
        return result
    }

    /// The cgroup path as a directory relative to its mount (`""` for `/`, `a/b/` for `/a/b`).
    static func relative(_ path: String) -> String {
        let trimmed = path.drop(while: { $0 == "/" })
        return trimmed.isEmpty ? "" : trimmed.hasSuffix("/") ? String(trimmed) : trimmed + "/"
    }

    /// The value of a one-line cgroup file.
    enum Value: Equatable {
        /// A number of bytes.
        case bytes(Bytes)
        /// `max`: no limit.
        case unlimited

        /// The bytes, or `nil` for `max`.
        var bytes: Bytes? {
            if case .bytes(let bytes) = self { return bytes }
            return nil
        }
    }

    /// The integer (or `max`, when allowed) in a one-line cgroup file; `nil` if the file is absent.
    static func value(
        _ relativePath: String, in fileSystem: ProcFileSystem, allowsMax: Bool
    ) throws(LinuxReadError) -> Value? {
        guard let text = fileSystem.readCgroup(relativePath) else { return nil }
        let word = ProcText.trimmed(text)
        if allowsMax && word == "max" { return .unlimited }
        guard let number = Int64(word), number >= 0 else {
            throw .malformedLine(
                path: fileSystem.cgroupPath(relativePath) ?? relativePath, line: 1, text: String(word),
                expected: allowsMax ? "a number of bytes or \"max\"" : "a number of bytes")
        }
        return .bytes(Bytes(number))
    }
}
