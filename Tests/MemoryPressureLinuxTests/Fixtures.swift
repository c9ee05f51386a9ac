import Foundation
import MemoryPressureLinux

/// The fixture trees under `Fixtures/` (copied `/proc` and `/sys/fs/cgroup` trees).
enum Fixture: String {
    /// A machine with cgroup v2, PSI, user processes, kernel threads, a zombie, and vanished,
    /// unreadable and garbled entries.
    case machine
    /// A hybrid cgroup machine (v1 memory controller, v2 without controllers), without PSI.
    case hybrid
    /// Every machine-wide file garbled.
    case broken
    /// A cgroup v2 `memory.current` that is not a number.
    case brokenCgroupValue = "broken-cgroup-value"

    /// The tree's root directory.
    var root: String {
        guard let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("the Fixtures resource directory is missing from the test bundle")
        }
        return fixtures.appendingPathComponent(rawValue).path
    }

    /// A file system reading the tree.
    var fileSystem: ProcFileSystem { .fixture(root: root) }
}
