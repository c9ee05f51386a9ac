extension IndexedHeap: CustomStringConvertible {
    /// A description listing the elements from highest to lowest priority.
    public var description: String {
        var parts: [String] = []
        forEachTop(count) { handle, priority in parts.append("\(handle): \(priority)") }
        return "IndexedHeap([\(parts.joined(separator: ", "))])"
    }
}
