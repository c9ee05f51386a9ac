import Foundation
import MemoryPressure
import MemoryPressureFormats
import PropertyBased
import Testing
import TestSupport

// Property-based tests (swift-property-based): the parsers take any bytes and either parse them
// or refuse them with an InputError of one short line, never a trap; the accountant keeps exact
// books under any sequence of actions, sizes near and past the limits included.

/// A valid snapshot that the mutation tests start from.
private let snapshotSeed = """
    device: { memory: 1GiB, reserved: 200MiB }
    apps:
      - { id: com.example.a, state: suspended, footprint: 40MiB, lastActive: 10 }
      - { id: com.example.b, state: active, footprint: 30MiB, viewCaches: 1MiB, backgroundModes: [audio] }

    """

/// Text from bytes, as a file with invalid UTF-8 repaired would be.
private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// `seed` with `insertion` put in at `position` (modulo its length) and `deleted` characters removed there.
private func mutate(_ seed: String, at position: Int, inserting insertion: [UInt8], deleting deleted: Int) -> String {
    var bytes = Array(seed.utf8)
    let at = position % (bytes.count + 1)
    bytes.removeSubrange(at..<min(bytes.count, at + deleted))
    bytes.insert(contentsOf: insertion, at: at)
    return text(bytes)
}

/// Checks that `body` either returns or throws a short InputError (a PolicyErrors of them).
private func parsesOrRefuses(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        try body()
    } catch let error as InputError {
        #expect(error.description.utf8.count < 1024, sourceLocation: sourceLocation)
        #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
    } catch let errors as PolicyErrors {
        #expect(!errors.problems.isEmpty, sourceLocation: sourceLocation)
        for problem in errors.problems {
            #expect(problem.description.utf8.count < 1024, sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("unexpected error \(type(of: error)): \(error)", sourceLocation: sourceLocation)
    }
}

/// Bytes biased towards what parsers care about: structure, digits, units, quotes, control characters.
private let structuralBytes = Array("{}[]:,-\"'&*!#|>\n\r\t 0123456789.eE+KMGTiB%".utf8)
private let controlBytes: [UInt8] = [0x00, 0x07, 0x1B, 0x7F, 0xC2, 0x9B, 0xEF, 0xBB, 0xBF, 0xFF]
private let interestingByte = Gen.int(in: 0...65_535).map { (code: Int) -> UInt8 in
    switch code % 9 {
    case 0..<4: UInt8(code % 256)
    case 4..<8: structuralBytes[code % structuralBytes.count]
    default: controlBytes[code % controlBytes.count]
    }
}

@Suite("Properties of the parsers and the accountant")
struct PropertyTests {
    @Test("any bytes are a snapshot or an InputError")
    func snapshotBytes() async {
        await propertyCheck(count: 400, input: interestingByte.array(of: 0...300)) { bytes in
            parsesOrRefuses { _ = try Snapshot(text: text(bytes), file: "s.yaml") }
            parsesOrRefuses { _ = try Snapshot(text: "{" + text(bytes), file: "s.json") }
        }
    }

    @Test("any edit of a valid snapshot is a snapshot that loads, or an InputError")
    func snapshotMutations() async {
        await propertyCheck(
            count: 600, input: Gen.int(in: 0...10_000), interestingByte.array(of: 0...12), Gen.int(in: 0...6)
        ) { position, insertion, deleted in
            let edited = mutate(snapshotSeed, at: position, inserting: insertion, deleting: deleted)
            parsesOrRefuses {
                let snapshot = try Snapshot(text: edited, file: "s.yaml")
                if let engine = try? PressureEngine(snapshot: snapshot, policy: .ios4) {
                    #expect(engine._invariantViolation() == nil)
                }
            }
        }
    }

    @Test("any edit of a shipped policy is a policy or a list of InputErrors")
    func policyMutations() async throws {
        let source = try #require(Policy.shippedSource("earlyoom"))
        await propertyCheck(
            count: 300, input: Gen.int(in: 0...10_000), interestingByte.array(of: 0...12), Gen.int(in: 0...6)
        ) { position, insertion, deleted in
            let edited = mutate(source, at: position, inserting: insertion, deleting: deleted)
            parsesOrRefuses { _ = try Policy(yaml: edited, file: "p.yaml") }
        }
    }

    @Test("every size from 0 to 2^50 parses back to itself, in bytes and in whole units; one byte more does not")
    func sizesRoundTrip() async {
        await propertyCheck(count: 500, input: Gen.int64(in: 0...Bytes.maximum.value)) { value in
            #expect(Bytes(parsing: "\(value)")?.value == value)
            for (suffix, shift) in [("KiB", 10), ("MiB", 20), ("GiB", 30), ("TiB", 40)] {
                let whole = value >> Int64(shift)
                #expect(Bytes(parsing: "\(whole)\(suffix)")?.value == whole << Int64(shift))
            }
            #expect(Bytes(parsing: "\(Bytes.maximum.value + 1 + value)") == nil)
        }
    }

    @Test("a size encodes as its number of bytes and decodes from that number or from a size with units")
    func sizesCodable() async throws {
        await propertyCheck(count: 300, input: Gen.int64(in: 0...Bytes.maximum.value)) { value in
            let bytes = Bytes(value)
            let encoded = try JSONEncoder().encode([bytes])
            #expect(String(decoding: encoded, as: UTF8.self) == "[\(value)]")
            #expect(try JSONDecoder().decode([Bytes].self, from: encoded) == [bytes])
            let mebibytes = value >> 20
            let text = Data("[\"\(mebibytes)MiB\"]".utf8)
            #expect(try JSONDecoder().decode([Bytes].self, from: text) == [Bytes(mebibytes << 20)])
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Bytes].self, from: Data("[\"lots\"]".utf8)) }
        do {
            _ = try JSONDecoder().decode([Bytes].self, from: Data("[\"12 parsecs\"]".utf8))
            Issue.record("decoded \"12 parsecs\" as a size")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("expected a size such as 4096, \"512MiB\" or \"1.5GiB\""))
        }
    }

    @Test("any printable id matches its own escaped, anchored pattern and nothing longer")
    func literalPatterns() async throws {
        let alphabet = Array("abcXYZ019") + Array(".*+?()[]{}|^$\\-_ /")
        let character = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }
        await propertyCheck(count: 300, input: character.array(of: 1...30)) { characters in
            let id = String(characters)
            let escaped = id.map {
                $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " ? String($0) : "\\" + String($0)
            }
            .joined()
            let pattern = try NamePattern("^" + escaped + "$")
            #expect(pattern.isFound(in: id))
            #expect(!pattern.isFound(in: id + "x"))
            #expect(try NamePattern(escaped).isFound(in: "pre" + id + "post"))
        }
    }

    @Test("any sequence of actions, sizes near and past the limits included, keeps the books exact")
    func accountant() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...10_000_000).array(of: 1...120)) { codes in
            let engine = try PressureEngine(
                device: Device(memory: .gibibytes(4), reserved: .mebibytes(256)), policy: .ios4)
            let sizes: [Int64] = [
                0, 1, 4096, 1 << 20, 300 << 20, 1 << 49, Bytes.maximum.value, Int64.max / 2, Int64.max,
            ]
            for (step, code) in codes.enumerated() {
                let app = AppID("app\(code / 20 % 5)")
                let size = Bytes(sizes[code / 100 % sizes.count])
                let action: Action =
                    switch code % 20 {
                    case 0, 1, 2:
                        .open(
                            AppLaunch(
                                id: app, footprint: size, views: [ViewSpec(name: "main", bytes: Bytes(size.value / 4))])
                        )
                    case 3: .launch(AppLaunch(id: app, footprint: size))
                    case 4, 5: .home
                    case 6, 7, 8: .allocate(app: app, bytes: size, purgeable: code % 2 == 0)
                    case 9, 10: .free(app: app, bytes: size, purgeable: code % 2 == 0)
                    case 11: .showView(app: app, view: "v\(code % 3)", bytes: size)
                    case 12: .hideView(app: app, view: "v\(code % 3)")
                    case 13: .userKill(app: app)
                    case 14: .lock
                    case 15: .unlock
                    case 16: .interrupt
                    case 17: .interruptEnd(answered: code % 2 == 0)
                    case 18: .beginBackgroundTask(app: app, seconds: Double(code % 600))
                    default: .tick
                    }
                _ = try? engine.apply(action, at: Double(step))
                let violation = engine._invariantViolation()
                #expect(violation == nil, "after \(action): \(violation ?? "")")
                #expect(engine.free.value <= engine.device.usable.value)
                #expect(engine.free.value >= engine.device.usable.value - PressureEngine.maximumTotalFootprint.value)
            }
        }
    }
}
