/// The version of the MemoryPressure package, as `mempressure --version` prints it.
public enum MemoryPressureVersion {
    /// The semantic version of this release.
    public static let current = "0.1.0"
}
