/// The message of one kernel log line, as `dmesg`, `dmesg -T`, `journalctl -k`, kern.log or a
/// syslog file print it: whatever stands before the kernel's own text is dropped.
///
/// Recognised prefixes, in the order they are removed:
/// - a syslog or journal header ending in `kernel: ` (`Nov 25 18:40:01 host kernel: `,
///   `2024-01-02T03:04:05.678901+00:00 host kernel: `), looked for in the first 160 bytes of a
///   line that does not start with `[` or `<`;
/// - a printk level `<4>`;
/// - a timestamp in brackets, seconds since boot (`[  345.019288]`) or a date (`dmesg -T`:
///   `[Wed Nov 25 18:40:01 2026]`);
/// - a printk caller id (`[ T4256]`, `[ C1]`, CONFIG_PRINTK_CALLER).
package enum KernelLogLine {
    /// The kernel's text of `line`, its prefixes removed.
    ///
    /// - Complexity: O(length of the prefix)
    package static func message(of line: Substring) -> Substring {
        // A mail's or a forum's quote marks (`> `, `>> `) and indentation come off first.
        var rest =
            line.first == ">" || line.first == " " || line.first == "\t"
            ? line.drop { $0 == ">" || $0 == " " || $0 == "\t" } : line
        // A /dev/kmsg record (Documentation/ABI/testing/dev-kmsg): `6,1234,5678901,-,caller=T1;text`.
        if let first = rest.first, first.isNumber, let semicolon = rest.prefix(80).firstIndex(of: ";") {
            let fields = rest[..<semicolon].split(separator: ",", maxSplits: 4, omittingEmptySubsequences: false)
            if fields.count >= 4, fields[0...2].allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
                rest = rest[rest.index(after: semicolon)...]
            }
        }
        // A line that starts with a bracket or a printk level is the kernel's own (dmesg); only
        // a syslog or journal line has a header before `kernel: `.
        if let first = rest.first, first != "[", first != "<",
            let header = rest.utf8.prefix(160).firstRange(of: "kernel: ".utf8)
        {
            rest = rest[header.upperBound...]
        }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        if rest.first == "<", let close = rest.prefix(6).firstIndex(of: ">"),
            rest[rest.index(after: rest.startIndex)..<close].allSatisfy(\.isNumber)
        {
            rest = rest[rest.index(after: close)...]
        }
        rest = droppingBracket(rest) { inside in
            // Seconds since boot, or a date with a colon-separated time; on a serial console,
            // systemd's `[  OK  ]` may have landed in front of the seconds (`[  OK    386.369228]`).
            var seconds = inside
            for status in systemdStatuses where seconds.hasPrefix(status) {
                seconds = seconds.dropFirst(status.count).drop { $0 == " " }
            }
            return seconds.allSatisfy { $0.isNumber || $0 == "." || $0 == " " } && seconds.contains(".")
                || inside.contains(":") && inside.first?.isLetter == true
        }
        rest = droppingBracket(rest) { inside in
            guard let kind = inside.first, kind == "T" || kind == "C" else { return false }
            let digits = inside.dropFirst()
            return !digits.isEmpty && digits.allSatisfy(\.isNumber)
        }
        return rest
    }

    /// The words systemd writes in brackets on a console (`[  OK  ]`, `[FAILED]`).
    static let systemdStatuses = ["OK", "FAILED", "DEPEND", "TIME", "INFO", "WARN", "*"]

    /// `text` without a leading `[…]` whose trimmed inside passes `accepts`, and the blanks after it.
    private static func droppingBracket(_ text: Substring, accepts: (Substring) -> Bool) -> Substring {
        guard text.first == "[", let close = text.prefix(40).firstIndex(of: "]") else { return text }
        let inside = text[text.index(after: text.startIndex)..<close].drop { $0 == " " }
        guard !inside.isEmpty, accepts(inside) else { return text }
        return text[text.index(after: close)...].drop { $0 == " " }
    }
}
