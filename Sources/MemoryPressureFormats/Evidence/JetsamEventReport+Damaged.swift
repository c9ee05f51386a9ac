import MemoryPressure

extension JetsamEventReportParser {
    /// `text` made parseable where a publisher damaged a JSON report, with what was done: lines
    /// that are only an elision (`...`, `…`, `[...]`) removed, a comma left before a closing
    /// bracket (or at the end) removed, and the brackets a cut left open closed at the end (a
    /// string cut open is dropped with its line).
    ///
    /// - Complexity: O(length of `text`)
    static func repaired(_ text: Substring) -> (text: String, elided: Int, closed: Int) {
        var lines: [Substring] = []
        var elided = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }.trimmingTrailingBlanks
            if ["...", "…", "[...]", "(...)", "....", "<...>", "[…]"].contains(trimmed) {
                elided += 1
                // An entry opened just before the elision was elided with it (`{` then `...`).
                if let last = lines.last, last.drop(while: { $0 == " " || $0 == "\t" }) == "{" { lines.removeLast() }
                continue
            }
            lines.append(line.trimmingTrailingBlanks)
        }
        // Brackets left open, outside strings: a closer that meets another kind of opener closes
        // that one first (an elision took its closer); a line whose string is cut open is dropped.
        var stack: [Character] = []
        var kept: [String] = []
        var closed = 0
        for line in lines {
            var string = JSONStringScan()
            var lineStack = stack
            var text = ""
            var inserted = 0
            for character in line {
                if string.consume(character) {
                    text.append(character)
                    continue
                }
                switch character {
                case "{", "[": lineStack.append(character)
                case "}", "]":
                    let opener: Character = character == "}" ? "{" : "["
                    while let top = lineStack.last, top != opener, lineStack.contains(opener) {
                        text = Self.droppingTrailingComma(text) + (top == "{" ? "}" : "]")
                        lineStack.removeLast()
                        inserted += 1
                    }
                    if !lineStack.isEmpty { lineStack.removeLast() }
                default: break
                }
                text.append(character)
            }
            if string.isInside { break }  // the cut fell inside a string: stop before this line
            stack = lineStack
            closed += inserted
            kept.append(text)
        }
        var out = kept.joined(separator: "\n")
        for opener in stack.reversed() {
            out = Self.droppingTrailingComma(out) + (opener == "{" ? "}" : "]")
            closed += 1
        }
        // A comma before a closing bracket, or at the very end (blanks and line breaks kept, so
        // lines still count as in the input).
        var result = ""
        result.reserveCapacity(out.utf8.count)
        var comma = false
        var blanks = ""
        var string = JSONStringScan()
        for character in out {
            if string.consume(character) {
                result.append(character)
                continue
            }
            if character == "," {
                if comma { result += "," + blanks }
                comma = true
                blanks = ""
                continue
            }
            if character.isWhitespace {
                if comma { blanks.append(character) } else { result.append(character) }
                continue
            }
            if comma {
                result += (character == "}" || character == "]" ? "" : ",") + blanks
                comma = false
                blanks = ""
            }
            result.append(character)
        }
        result += blanks
        return (result, elided, closed)
    }

    /// `text` without blanks and one comma at its end.
    private static func droppingTrailingComma(_ text: String) -> String {
        var text = Substring(text)
        while text.last?.isWhitespace == true { text = text.dropLast() }
        if text.last == "," { text = text.dropLast() }
        return String(text)
    }
}

/// Where a scan of JSON text stands with respect to strings.
struct JSONStringScan {
    /// Whether the scan is inside a string.
    private(set) var isInside = false
    private var escaped = false

    /// Takes the next character; `true` when it is part of a string after its opening quote (its
    /// text, an escape, or its closing quote), `false` for everything else, the opening quote
    /// included.
    ///
    /// - Complexity: O(1)
    mutating func consume(_ character: Character) -> Bool {
        if isInside {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                isInside = false
            }
            return true
        }
        if character == "\"" { isInside = true }
        return false
    }
}

extension Substring {
    /// The text without blanks (spaces, tabs, a carriage return) at its end.
    fileprivate var trimmingTrailingBlanks: Substring {
        var text = self
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return text
    }
}
