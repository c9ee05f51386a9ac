import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Snapshots (docs/DESIGN.md, "Snapshot"): YAML or JSON, every field checked, every error naming the
// file, line, column and field path.

/// A valid snapshot; the line numbers in the tests below refer to it.
private let base = """
    device: { memory: 1GiB, reserved: 200MiB }
    apps:
      - id: com.example.a
        state: suspended
        footprint: 40MiB
      - id: com.example.b
        state: background
        footprint: 30MiB
      - id: com.example.c
        state: active
        footprint: 100MiB
        viewCaches: 10MiB
        purgeable: 5MiB

    """

/// `base` with line `number` (1-based) replaced by `lines`.
private func replacing(line number: Int, with lines: [String], in text: String = base) -> String {
    var all = text.components(separatedBy: "\n")
    all.replaceSubrange((number - 1)...(number - 1), with: lines)
    return all.joined(separator: "\n")
}

/// The error parsing `text` gives, or `nil` if it parses.
private func parseError(_ text: String, file: String = "s.yaml") -> InputError? {
    do {
        _ = try Snapshot(text: text, file: file)
        return nil
    } catch {
        return error
    }
}

@Suite("Snapshot parsing")
struct SnapshotParsingTests {
    func expectError(
        _ text: String, _ line: Int, _ column: Int, _ path: String, _ message: String, file: String = "s.yaml",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = parseError(text, file: file) else {
            Issue.record("expected an error", sourceLocation: sourceLocation)
            return
        }
        #expect(error.file == file, sourceLocation: sourceLocation)
        #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(error.column == column, "\(error)", sourceLocation: sourceLocation)
        #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(message), "\(error)", sourceLocation: sourceLocation)
        #expect(
            error.description == "\(file):\(line):\(column): " + (path.isEmpty ? "" : path + ": ") + error.message,
            sourceLocation: sourceLocation)
    }

    @Test("the base snapshot parses to what it says")
    func parses() throws {
        let snapshot = try Snapshot(text: base, file: "s.yaml")
        #expect(snapshot.device == Device(memory: .gibibytes(1), reserved: .mebibytes(200)))
        #expect(snapshot.apps.map(\.id) == ["com.example.a", "com.example.b", "com.example.c"])
        #expect(snapshot.apps.map(\.state) == [.suspended, .background, .active])
        #expect(
            snapshot.apps[2]
                == ResidentApp(
                    id: "com.example.c", state: .active, footprint: .mebibytes(100), viewCaches: .mebibytes(10),
                    purgeable: .mebibytes(5)))
    }

    @Test("every optional field, with units")
    func everyField() throws {
        let text = """
            device: { memory: 1.5GiB, reserved: 153600KiB, swap: 512MiB }
            apps:
              - id: x
                state: suspended
                footprint: 40960
                viewCaches: 4KiB
                purgeable: 8KiB
                lastActive: 12.5
                backgroundModes: [audio, voip]
                oomScoreAdj: -17
                swap: 1MiB
                pageTables: 640KiB
                priority: 42
            """
        let snapshot = try Snapshot(text: text, file: "s.yaml")
        #expect(
            snapshot.device
                == Device(memory: Bytes(1_610_612_736 as Int64), reserved: .mebibytes(150), swap: .mebibytes(512)))
        #expect(
            snapshot.apps == [
                ResidentApp(
                    id: "x", state: .suspended, footprint: Bytes(40960), viewCaches: .kibibytes(4),
                    purgeable: .kibibytes(8),
                    lastActive: 12.5, backgroundModes: [.audio, .voip], oomScoreAdj: -17, swap: .mebibytes(1),
                    pageTables: .kibibytes(640), priority: 42)
            ])
    }

    @Test("an unknown state")
    func unknownState() {
        expectError(
            replacing(line: 7, with: ["    state: sleeping"]), 7, 12, "apps[1].state",
            "expected one of notRunning, inactive, active, background, suspended, found the string \"sleeping\"")
    }

    @Test("a duplicate id")
    func duplicateID() {
        expectError(
            replacing(line: 6, with: ["  - id: com.example.a"]), 6, 5, "apps[1]",
            "app id \"com.example.a\" appears twice; ids must be unique")
    }

    @Test("view caches and purgeable caches larger than the footprint")
    func cachesLargerThanFootprint() {
        expectError(
            replacing(line: 13, with: ["    purgeable: 91MiB"]), 9, 5, "apps[2]",
            "expected \"footprint\" (104857600) to include \"viewCaches\" and \"purgeable\" (105906176 together)")
    }

    @Test("a reserve not below the memory")
    func reserveNotBelowMemory() {
        expectError(
            replacing(line: 1, with: ["device: { memory: 1GiB, reserved: 1GiB }"]), 1, 9, "device",
            "expected \"reserved\" (1073741824) below \"memory\" (1073741824)")
        expectError(
            replacing(line: 1, with: ["device: { memory: 1GiB, reserved: 2GiB }"]), 1, 9, "device", "below \"memory\"")
    }

    @Test("a wrong type names the field path")
    func wrongType() {
        expectError(
            replacing(line: 11, with: ["    footprint: lots"]), 11, 16, "apps[2].footprint",
            "expected a size such as 4096, 640KiB or 40MiB, found the string \"lots\"")
        expectError(
            replacing(line: 5, with: ["    footprint: -5"]), 5, 16, "apps[0].footprint",
            "expected a size such as 4096, 640KiB or 40MiB, found the number -5")
        expectError(
            replacing(line: 8, with: ["    footprint: 30MiB", "    oomScoreAdj: 1001"]), 9, 18, "apps[1].oomScoreAdj",
            "expected an integer from -1000 to 1000, found the number 1001")
        expectError(
            replacing(line: 8, with: ["    footprint: 30MiB", "    lastActive: soon"]), 9, 17, "apps[1].lastActive",
            "expected a number from 0 to 1000000000000 seconds, found the string \"soon\"")
        expectError(
            "device: { memory: 1GiB }\napps: 3\n", 2, 7, "apps", "expected a list, found the number 3")
        expectError(
            replacing(line: 8, with: ["    footprint: 30MiB", "    backgroundModes: [radio]"]), 6, 5, "apps[1]",
            "key \"backgroundModes\": expected audio, location or voip, found \"radio\"")
    }

    @Test("an unknown key, in an app, in the device and at the top level")
    func unknownKey() {
        expectError(
            replacing(line: 8, with: ["    footprint: 30MiB", "    colour: red"]), 9, 5, "apps[1]",
            "unknown key \"colour\"; expected id, state, footprint, viewCaches, purgeable, lastActive, backgroundModes, oomScoreAdj, swap, pageTables, priority"
        )
        expectError(
            replacing(line: 1, with: ["device: { memory: 1GiB, reserved: 200MiB, colour: 1 }"]), 1, 43, "device",
            "unknown key \"colour\"; expected memory, reserved, swap")
        expectError(base + "colour: red\n", 14, 1, "", "unknown key \"colour\"; expected device, apps")
    }

    @Test("missing keys")
    func missingKeys() {
        expectError(replacing(line: 5, with: []), 3, 5, "apps[0]", "missing key \"footprint\"")
        expectError(replacing(line: 1, with: []), 1, 1, "", "missing key \"device\"")
    }

    @Test("a JSON snapshot gives the same errors, with line and column")
    func jsonErrors() {
        let json =
            "{\"device\": {\"memory\": \"1GiB\"},\n \"apps\": [{\"id\": \"a\", \"state\": \"sleeping\", \"footprint\": 1}]}"
        expectError(
            json, 2, 32, "apps[0].state",
            "expected one of notRunning, inactive, active, background, suspended, found the string \"sleeping\"",
            file: "s.json")
        let syntax = parseError("{\"device\": {\"memory\": \"1GiB\"},\n \"apps\": [}", file: "s.json")
        #expect(syntax?.line == 2)
        #expect((syntax?.column ?? 0) > 0)
        #expect(syntax?.file == "s.json")
    }

    @Test("a YAML syntax error has a line and a column")
    func yamlSyntax() {
        let error = parseError("device: { memory: 1GiB\napps: [\n")
        #expect((error?.line ?? 0) > 0)
        #expect((error?.column ?? 0) > 0)
    }

    @Test("JSON and YAML give the same snapshot")
    func jsonEqualsYAML() throws {
        let json = """
            {"device": {"memory": "1GiB", "reserved": 209715200},
             "apps": [
               {"id": "com.example.a", "state": "suspended", "footprint": "40MiB"},
               {"id": "com.example.b", "state": "background", "footprint": 31457280},
               {"id": "com.example.c", "state": "active", "footprint": "100MiB", "viewCaches": "10MiB", "purgeable": "5MiB"}]}
            """
        #expect(try Snapshot(text: json, file: "s.json") == (try Snapshot(text: base, file: "s.yaml")))
    }

    @Test("the example snapshots parse and load: the phone in YAML, the server in JSON")
    func examples() throws {
        let phone = try Snapshot(
            text: String(contentsOfFile: PackagePaths.path("Examples/snapshots/phone.yaml"), encoding: .utf8),
            file: "phone.yaml")
        #expect(phone.device.memory == .gibibytes(1))
        #expect(phone.apps.count == 12)
        #expect(phone.apps.filter { $0.state.isForeground }.count == 1)
        let server = try Snapshot(
            text: String(contentsOfFile: PackagePaths.path("Examples/snapshots/server.json"), encoding: .utf8),
            file: "server.json")
        #expect(server.apps.count >= 2000)
        for name in Policy.shippedNames {
            let engine = try PressureEngine(snapshot: server, policy: try Policy.shipped(name))
            #expect(engine.killOrder(limit: .max).count + engine.protectedApps().count == server.apps.count)
            #expect(engine._invariantViolation() == nil)
        }
    }

    @Test("a snapshot with two foreground apps is refused at the second one, naming the first one's line")
    func twoForegroundApps() throws {
        expectError(
            replacing(line: 7, with: ["    state: inactive"]), 9, 5, "apps[2]",
            "a second foreground app (active): \"com.example.b\" on line 6 is already active or inactive")
        // Built in code, the engine still refuses it.
        var snapshot = try Snapshot(text: base, file: "s.yaml")
        snapshot.apps[1].state = .inactive
        #expect(throws: EngineError.self) { try PressureEngine(snapshot: snapshot, policy: .ios4) }
    }
}
