import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Hostile input at the library level: every case is an InputError (or an EngineError) with a
// short message, never a trap, a hang or unbounded memory.

/// The error `body` throws, as an InputError.
private func inputError(_ body: () throws -> Void) -> InputError? {
    do {
        try body()
        return nil
    } catch let error as InputError {
        return error
    } catch let errors as PolicyErrors {
        return errors.problems.first
    } catch {
        return nil
    }
}

@Suite("Hostile input files")
struct HostileParsingTests {
    static let device = "device: { memory: 1GiB, reserved: 200MiB }\n"

    @Test("a billion-laughs YAML document is refused, not expanded")
    func billionLaughs() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<12 {
            text +=
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
                + "]\n"
        }
        let error = inputError { _ = try ConfigNode.parseYAML(text, file: "bomb.yaml") }
        #expect(
            error?.message.contains("aliases expand to more than 10000 values") == true, "\(String(describing: error))")
        // In a snapshot and in a policy too.
        #expect(inputError { _ = try Snapshot(text: text, file: "s.yaml") } != nil)
        #expect(inputError { _ = try Policy(yaml: text, file: "p.yaml") } != nil)
    }

    @Test("a few aliases are still followed")
    func smallAliases() throws {
        let text = Self.device + "apps:\n  - &base { id: a, state: suspended, footprint: 10MiB }\n"
        #expect(try Snapshot(text: text, file: "s.yaml").apps.count == 1)
        let node = try ConfigNode.parseYAML("x: &v 5\ny: *v\n", file: "a.yaml")
        guard case .object(let members) = node.value else { Issue.record("not a mapping"); return }
        #expect(members[1].value.value == .number(5, text: "5"))
        #expect(members[1].value.line == 2)
    }

    @Test("an undefined alias, deep nesting and a second document are refused")
    func structure() {
        #expect(
            inputError { _ = try ConfigNode.parseYAML("x: *nothing\n", file: "a.yaml") }?.message
                .contains("names no anchor") == true)
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(inputError { _ = try ConfigNode.parseYAML(deep, file: "d.yaml") }?.message.contains("nesting") == true)
        #expect(inputError { _ = try ConfigNode.parseYAML("a: 1\n---\nb: 2\n", file: "two.yaml") }?.line == 2)
    }

    @Test("a duplicate key points at the second occurrence")
    func duplicateKey() {
        let text = Self.device + "apps: []\ndevice: { memory: 2GiB }\n"
        let error = inputError { _ = try Snapshot(text: text, file: "s.yaml") }
        #expect(error?.line == 3, "\(String(describing: error))")
        #expect(error?.message.contains("appears twice") == true)
    }

    @Test(
        "libyaml's wording does not leak: syntax errors say what is wrong in our words",
        arguments: [
            ("a: b: c\n", "quote a value"),
            ("a:\n  - x\n - y\n", "indentation"),
            ("a: \"unterminated\n", "ends inside a quoted value"),
            ("a: @x\n", "cannot start a value"),
            ("a: [1, 2\n", "YAML syntax"),
            ("a:\n\tb: 1\n", "YAML syntax"),
        ])
    func syntaxWording(text: String, words: String) {
        let error = inputError { _ = try ConfigNode.parseYAML(text, file: "y.yaml") }
        #expect(error?.message.contains(words) == true, "\(String(describing: error))")
        #expect(error?.message.contains("while parsing") == false)
        #expect(error?.line ?? 0 > 0)
    }

    @Test(
        "sizes beyond 2^50 bytes, and non-finite numbers, are refused where they are read",
        arguments: [
            "9223372036854775807", "1e30GiB", "99999999999999999999", "2PiB", "1e400", ".inf", ".nan",
            "1125899906842625", "1048577GiB", "-1",
        ])
    func hugeSizes(size: String) {
        let text = Self.device + "apps:\n  - { id: a, state: suspended, footprint: \(size) }\n"
        let error = inputError { _ = try Snapshot(text: text, file: "s.yaml") }
        #expect(error != nil, "\(size) was accepted")
        #expect((error?.description.utf8.count ?? 0) < 1024)
    }

    @Test("the largest size is accepted, and a snapshot of many of them loads without overflow")
    func largestSize() throws {
        var text = "device: { memory: 1125899906842624 }\napps:\n"
        for index in 0..<4000 { text += "  - { id: app\(index), state: suspended, footprint: 1PiB }\n" }
        text = text.replacingOccurrences(of: "1PiB", with: "1024TiB")
        let snapshot = try Snapshot(text: text, file: "s.yaml")
        #expect(snapshot.apps[0].footprint == .maximum)
        let engine = try PressureEngine(snapshot: snapshot, policy: .ios4)
        #expect(engine.free.value == Bytes.maximum.value - 4000 * Bytes.maximum.value)
        #expect(engine.levelForFreeMemory == .critical)
        #expect(engine._invariantViolation() == nil)
        // 4,096 of them reach 2^62 bytes in all: the engine refuses the next one.
        for index in 4000..<4200 { text += "  - { id: app\(index), state: suspended, footprint: 1024TiB }\n" }
        #expect {
            try PressureEngine(snapshot: try Snapshot(text: text, file: "s.yaml"), policy: .ios4)
        } throws: { error in
            "\(error)".contains("2^62")
        }
    }

    @Test(
        "control characters in app ids are refused, naming the character",
        arguments: ["\\u001b[31mred", "bell\\u0007", "a\\rb", "a\\nb", "nul\\u0000", "\\u202eevil", "del\\u007f"])
    func controlCharacters(id: String) {
        let json =
            "{\"device\":{\"memory\":\"1GiB\"},\"apps\":[{\"id\":\"\(id)\",\"state\":\"suspended\",\"footprint\":1}]}"
        let error = inputError { _ = try Snapshot(text: json, file: "s.json") }
        #expect(error?.message.contains("printable characters") == true, "\(String(describing: error))")
        #expect(error?.description.unicodeScalars.allSatisfy { AppID.isPrintable($0) } == true)
    }

    @Test("an app id longer than 1024 bytes is refused")
    func longID() {
        let text =
            Self.device + "apps:\n  - { id: \(String(repeating: "x", count: 1025)), state: suspended, footprint: 1 }\n"
        let error = inputError { _ = try Snapshot(text: text, file: "s.yaml") }
        #expect(error?.message.contains("at most 1024 bytes") == true)
        #expect((error?.description.utf8.count ?? 0) < 1024)
    }

    @Test("a byte order mark and CRLF line ends are accepted in snapshots and policies")
    func bomAndCRLF() throws {
        let yaml =
            "\u{FEFF}"
            + (Self.device + "apps:\n  - { id: a, state: suspended, footprint: 1MiB }\n")
            .replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try Snapshot(text: yaml, file: "s.yaml").apps.count == 1)
        let json = "\u{FEFF}{\"device\":{\"memory\":\"1GiB\"},\r\n\"apps\":[]}\r\n"
        #expect(try Snapshot(text: json, file: "s.json").apps.isEmpty)
        let policy = try #require(Policy.shippedSource("lru"))
        let crlf = "\u{FEFF}" + policy.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try Policy(yaml: crlf, file: "lru.yaml").name == "lru")
    }

    @Test("an error quoting a huge value stays short")
    func shortMessages() {
        let huge = String(repeating: "x", count: 100_000)
        let text = Self.device + "apps:\n  - { id: a, state: \(huge), footprint: 1 }\n\(huge): 1\n"
        let error = inputError { _ = try Snapshot(text: text, file: "s.yaml") }
        #expect(error != nil)
        #expect((error?.description.utf8.count ?? 0) < 1024)
    }
}

@Suite("The engine's books cannot overflow")
struct EngineLimitTests {
    let device = Device(memory: .maximum, reserved: .zero)

    @Test("an allocation past 2^50 bytes for one app is refused and changes nothing")
    func perApp() throws {
        let engine = try PressureEngine(device: device, policy: .ios4)
        try engine.apply(.launch(AppLaunch(id: "a", footprint: Bytes(Bytes.maximum.value - 10))), at: 0)
        #expect(throws: EngineError.self) {
            try engine.apply(.allocate(app: "a", bytes: Bytes(11), purgeable: false), at: 1)
        }
        #expect(engine.status(of: "a")?.footprint.value == Bytes.maximum.value - 10)
        try engine.apply(.allocate(app: "a", bytes: Bytes(10), purgeable: false), at: 2)
        #expect(engine._invariantViolation() == nil)
        let reference = try #require(engine.reference(to: "a"))
        #expect(throws: EngineError.self) { try engine.changeFootprint(of: reference, by: Bytes(Int64.max), at: 3) }
    }

    @Test("the sum of every footprint stops at 2^62 bytes, with an error instead of a wrap", .singleThreadedLongRun)
    func total() throws {
        let engine = try PressureEngine(device: device, policy: .ios4)
        var refused = 0
        for index in 0..<5000 {
            do {
                try engine.apply(.launch(AppLaunch(id: AppID("app\(index)"), footprint: .maximum)), at: Double(index))
                try engine.apply(.home, at: Double(index))
            } catch {
                refused += 1
            }
        }
        // Nothing wraps: free memory stays between -2^62 and the device's memory.
        #expect(engine.free.value <= Bytes.maximum.value)
        #expect(engine.free.value >= -Int64(1 << 62))
        #expect(engine._invariantViolation() == nil)
        _ = refused
    }

    @Test("a launch whose parts pass 2^50 bytes is refused, however many views it has")
    func launchParts() throws {
        let engine = try PressureEngine(device: device, policy: .ios4)
        let views = (0..<10_000).map { ViewSpec(name: "v\($0)", bytes: .maximum) }
        #expect(throws: EngineError.self) {
            try engine.apply(.launch(AppLaunch(id: "a", footprint: .maximum, views: views)), at: 0)
        }
        #expect(throws: EngineError.self) {
            try engine.apply(.launch(AppLaunch(id: "b", footprint: Bytes(Int64.max))), at: 0)
        }
        #expect(engine._invariantViolation() == nil)
    }

    @Test("snapshot apps with sizes past the limit are refused by the engine too")
    func snapshotSizes() {
        let apps = [ResidentApp(id: "a", state: .suspended, footprint: Bytes(Int64.max / 2))]
        #expect(throws: EngineError.self) {
            try PressureEngine(snapshot: Snapshot(device: device, apps: apps), policy: .ios4)
        }
    }
}
