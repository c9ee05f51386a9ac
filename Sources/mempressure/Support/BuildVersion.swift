import CBuildInfo
import MemoryPressure

/// What `mempressure --version` prints: the version from one place (`MemoryPressureVersion.current`)
/// and the commit the binary was built from (`scripts/dist.sh` stamps it; "unknown" otherwise).
enum BuildVersion {
    /// The commit this binary was built from, or "unknown".
    static let commit = String(cString: mempressure_build_commit())

    /// `mempressure 0.1.0 (commit 0123456789ab)`.
    static let line = "mempressure \(MemoryPressureVersion.current) (commit \(commit))"
}
