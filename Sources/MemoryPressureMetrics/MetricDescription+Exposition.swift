extension MetricDescription {
    /// `exposition` (Prometheus text format) with a `# HELP` line before the `# TYPE` line of each
    /// metric of `catalog` that has none. swift-metrics carries no help text, so a backend such as
    /// swift-prometheus writes only `# TYPE`; the catalog supplies the rest. Other lines are kept
    /// byte for byte.
    ///
    /// Help text is escaped as the format requires: `\` as `\\`, a line feed as `\n`.
    ///
    /// - Complexity: O(length of the exposition + size of the catalog)
    public static func addingHelp(to exposition: [UInt8], from catalog: [MetricDescription]) -> [UInt8] {
        var help: [Substring: String] = [:]
        for metric in catalog { help[Substring(metric.name)] = metric.help }
        var out: [UInt8] = []
        out.reserveCapacity(exposition.count + catalog.count * 120)
        var previous: ArraySlice<UInt8> = []
        for line in exposition.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("# TYPE ") {
                let name = text.dropFirst(7).prefix { $0 != " " }
                if let about = help[name], !String(decoding: previous, as: UTF8.self).hasPrefix("# HELP \(name) ") {
                    out += Array("# HELP \(name) ".utf8)
                    for byte in about.utf8 {
                        switch byte {
                        case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
                        case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
                        default: out.append(byte)
                        }
                    }
                    out.append(UInt8(ascii: "\n"))
                }
            }
            out += line
            out.append(UInt8(ascii: "\n"))
            previous = line
        }
        // split keeps a last empty piece after a final newline; do not add a second one.
        if exposition.last == UInt8(ascii: "\n") || exposition.isEmpty { out.removeLast() }
        return out
    }
}
