import MemoryPressure

/// The documented limits every input file is checked against when it is read, so that no file
/// can make the engine overflow, hang or exhaust memory. docs/limits.md ("Limits and
/// hostile input") lists them.
public enum InputLimits {
    /// The largest size of one app or one device: `Bytes.maximum` (2^50 bytes, 1 PiB).
    public static var maximumSize: Bytes { .maximum }

    /// The largest time in a trace, and the largest duration anywhere in input (`t`,
    /// `lastActive`, `seconds`): 10^12 seconds, about 31,700 years.
    public static let maximumTime = 1e12

    /// The longest app id, in UTF-8 bytes (see `AppID.problem(with:)`).
    public static var maximumAppIDLength: Int { AppID.maximumLength }

    /// How many values YAML aliases may add to one document.
    public static var maximumAliasExpansion: Int { ConfigNode.maximumAliasExpansion }

    /// The deepest nesting of lists and mappings in a YAML or JSON document.
    public static var maximumDepth: Int { ConfigNode.maximumYAMLDepth }
}
