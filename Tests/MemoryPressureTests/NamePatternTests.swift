import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

// Policy name patterns run on a linear-time matcher (NamePattern): no pattern can hang the tool.

@Suite("Name patterns: linear-time regular expressions")
struct NamePatternTests {
    @Test(
        "the documented syntax matches as regular expressions do",
        arguments: [
            ("^com\\.example\\.small$", "com.example.small", true),
            ("^com\\.example\\.small$", "com.example.smaller", false),
            ("chrome", "org.chromium.chrome.beta", true),
            ("^(Web Content|chrome)$", "Web Content", true),
            ("^(Web Content|chrome)$", "chromes", false),
            ("^[a-z]+\\.[0-9]{2,3}$", "abc.123", true),
            ("^[a-z]+\\.[0-9]{2,3}$", "abc.1234", false),
            ("[^a-z]", "abc", false),
            ("[^a-z]", "abC", true),
            ("^\\w+$", "app_1", true),
            ("^\\d+$", "12a", false),
            ("a{2}", "ba", false),
            ("colou?r", "color", true),
            ("(?:ab)+$", "xabab", true),
            ("x*", "", true),
            ("^$", "", true),
            ("a{,", "a{,", true),
            ("^a.c$", "a€c", true),
            ("b+?", "abbb", true),
        ])
    func matches(pattern: String, id: String, expected: Bool) throws {
        #expect(try NamePattern(pattern).isFound(in: id) == expected)
    }

    @Test(
        "unsupported and malformed patterns are refused with what is wrong",
        arguments: [
            ("(unclosed", "never closed"),
            ("[z-a]", "inverted range"),
            ("a**(", "quantifier right after another"),
            ("(a)\\1", "backreference"),
            ("(?=a)", "unsupported group"),
            ("(?<name>a)", "unsupported group"),
            ("*a", "nothing to repeat"),
            ("a{1000}", "above 100"),
            ("((a{100}){100}){100}", "more than 10000 steps"),
            ("a)", "unmatched ')'"),
            ("[[:alpha:]]", "POSIX classes"),
            ("\\q", "unsupported escape"),
        ])
    func refused(pattern: String, message: String) {
        #expect {
            try NamePattern(pattern)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("a catastrophic pattern against a long id returns (backtracking would not finish)")
    func catastrophic() throws {
        // No wall-clock limit here (the machines are shared): a backtracking matcher would not
        // return from these at all, so finishing is the test.
        let id = String(repeating: "a", count: 50_000) + "!"
        for source in ["^(a+)+$", "^(a|a)*$", "^(a*)*b$", "(a|aa)+c", "^(\\w+\\s?)*$"] {
            let pattern = try NamePattern(source)
            #expect(!pattern.isFound(in: id), "\(source)")
        }
    }

    @Test("random patterns agree with Swift's Regex on random ids", arguments: 0..<4)
    func agreesWithRegex(block: Int) throws {
        var random = SeededGenerator(seed: UInt64(block) &* 7919 &+ 1)
        let atoms = ["a", "b", ".", "[ab]", "[^a]", "\\.", "(a|b)", "(?:ab)", "\\d", "x"]
        let quantifiers = ["", "", "*", "+", "?", "{2}", "{1,2}"]
        for _ in 0..<250 {
            var source = Int.random(in: 0..<4, using: &random) == 0 ? "^" : ""
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                source += atoms[Int.random(in: 0..<atoms.count, using: &random)]
                source += quantifiers[Int.random(in: 0..<quantifiers.count, using: &random)]
            }
            if Int.random(in: 0..<4, using: &random) == 0 { source += "$" }
            let pattern = try NamePattern(source)
            let regex = try Regex(source)
            for _ in 0..<10 {
                let alphabet = Array("ab.x1")
                let id = String(
                    (0..<Int.random(in: 0...6, using: &random)).map { _ in
                        alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                    })
                #expect(pattern.isFound(in: id) == id.contains(regex), "pattern \(source) on \"\(id)\"")
            }
        }
    }

    @Test("a policy with a catastrophic pattern ranks a snapshot of long ids at once")
    func policyWithCatastrophicPattern() throws {
        var policy = try Policy.shipped("earlyoom")
        policy.preferences = [NamePreference(pattern: "^(a+)+$", score: 300)]
        let apps = (0..<20).map { index in
            ResidentApp(
                id: AppID(String(repeating: "a", count: 5_000) + "!\(index)"), state: .suspended,
                footprint: .mebibytes(10))
        }
        let engine = try PressureEngine(
            snapshot: Snapshot(device: Device(memory: .gibibytes(1)), apps: apps), policy: policy)
        #expect(engine.killOrder(limit: 5).count == 5)
    }
}
