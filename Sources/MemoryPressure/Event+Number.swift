extension Event {
    /// A number as the event log and the reports write it: an integer when whole (`5`), otherwise
    /// the shortest decimal that reads back the same (`2.5`). The JSON Lines writer
    /// (MemoryPressureFormats, `Event.json(_:)`) and the kill-order reasons share it.
    ///
    /// - Complexity: O(1)
    package static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
