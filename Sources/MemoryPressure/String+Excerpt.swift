extension String {
    /// At most `limit` characters of the text, control characters escaped, with `…` when cut:
    /// what an error message may quote of an input.
    ///
    /// - Complexity: O(`limit`)
    public func excerpt(limit: Int = 60) -> String {
        let head = prefix(limit)
        return String(head).escapingControlCharacters() + (head.endIndex < endIndex ? "…" : "")
    }

    /// ``excerpt(limit:)`` in double quotes.
    ///
    /// - Complexity: O(`limit`)
    public func quotedExcerpt(limit: Int = 60) -> String { "\"" + excerpt(limit: limit) + "\"" }

    /// The text without leading and trailing spaces and tabs.
    ///
    /// - Complexity: O(length of the text)
    public func trimmingWhitespaceAndTabs() -> String { trimmingWhitespace() }
}
