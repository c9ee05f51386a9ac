/// An amount of memory given either in bytes or as a percentage of the device's memory.
public enum MemoryAmount: Sendable, Hashable, CustomStringConvertible {
    /// A fixed number of bytes.
    case bytes(Bytes)
    /// A percentage (0–100) of the device's usable memory (physical minus reserve).
    case percent(Double)

    /// The amount in bytes on a device with `usableMemory` bytes.
    ///
    /// - Complexity: O(1)
    public func resolved(against usableMemory: Bytes) -> Bytes {
        switch self {
        case .bytes(let bytes): bytes
        case .percent(let percent): Bytes(Int64((Double(usableMemory.value) * percent / 100).rounded()))
        }
    }

    /// `40MiB`-style bytes or `10%`.
    public var description: String {
        switch self {
        case .bytes(let bytes): "\(bytes.value)"
        case .percent(let percent):
            percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
        }
    }

    /// Parses `"20%"`, `"512MiB"` or `"4096"`; `nil` for anything else.
    ///
    /// - Complexity: O(length of `text`)
    public init?(parsing text: String) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasSuffix("%") {
            guard let percent = Double(trimmed.dropLast().trimmingCharacters()), percent >= 0, percent <= 100 else {
                return nil
            }
            self = .percent(percent)
        } else if let bytes = Bytes(parsing: trimmed) {
            self = .bytes(bytes)
        } else {
            return nil
        }
    }
}

extension Substring {
    func trimmingCharacters() -> String { String(self).trimmingWhitespace() }
}
