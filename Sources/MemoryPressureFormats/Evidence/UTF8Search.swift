// Byte-level substring search, for telling input formats apart.

/// Substring search on UTF-8 bytes, for telling formats apart in the first lines of an input.
enum UTF8Search {
    /// Whether `needle` occurs in `bytes`.
    ///
    /// - Complexity: O(`bytes.count` × length of `needle`) at worst; about O(`bytes.count`) on text.
    static func contains(_ bytes: [UInt8], _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard count > 0, bytes.count >= count else { return count == 0 }
        let pattern = needle.utf8Start
        let first = pattern[0]
        return bytes.withUnsafeBufferPointer { text in
            var start = 0
            while start <= text.count - count {
                if text[start] == first {
                    var matched = 1
                    while matched < count, text[start + matched] == pattern[matched] { matched += 1 }
                    if matched == count { return true }
                }
                start += 1
            }
            return false
        }
    }
}
