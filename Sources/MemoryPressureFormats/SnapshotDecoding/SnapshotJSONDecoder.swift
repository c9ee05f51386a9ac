import MemoryPressure

/// A streaming decoder of JSON snapshots: one pass over the UTF-8 bytes, each app decoded
/// straight into a `ResidentApp` — no document tree, no `String` for a key, no allocation for a
/// number — with the strict reader's rules (see SnapshotFields.swift).
///
/// It accepts the JSON grammar of ``JSONParser`` (RFC 8259) restricted to the snapshot schema,
/// and gives up (`nil`) on anything else, including every error and every string with a `\`
/// escape; `Snapshot(text:file:)` then reads the document with the strict reader, whose error
/// names the line, column and key path.
struct SnapshotJSONDecoder {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    /// Told every ``releaseInterval`` bytes where the decoder no longer reads before.
    private let release: (Int) -> Void
    private var released = 0

    /// How far the decoder goes between two calls of `release`.
    private static var releaseInterval: Int { 4 << 20 }

    /// The snapshot in `bytes` from `start` (the opening `{`), or `nil` if the strict reader must judge.
    ///
    /// - Complexity: O(`bytes.count`)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Snapshot? {
        var list = SnapshotAppList()
        guard decode(bytes, from: start, into: &list), let device = list.device, let apps = list.uniqueApps() else {
            return nil
        }
        return Snapshot(device: device, apps: apps)
    }

    /// Decodes the document in `bytes` from `start` (the opening `{`) into `sink`; `false` if
    /// the strict reader must judge. `release` is told, every few MiB, an offset the decoder
    /// will not read before again.
    ///
    /// - Complexity: O(`bytes.count`)
    static func decode<Sink: SnapshotSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into sink: inout Sink,
        release: @escaping (Int) -> Void = { _ in }
    ) -> Bool {
        var decoder = SnapshotJSONDecoder(bytes: bytes, position: start, release: release)
        return decoder.document(into: &sink)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, position: Int, release: @escaping (Int) -> Void) {
        self.bytes = bytes
        self.position = position
        self.release = release
    }

    // MARK: the schema

    private mutating func document<Sink: SnapshotSink>(into sink: inout Sink) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        var seenDevice = false
        var seenApps = false
        var first = true
        while true {
            skipWhitespace()
            if first, take(UInt8(ascii: "}")) { break }
            first = false
            guard let key = key() else { return false }
            if SnapshotKeyText.equal(key, "device") {
                guard !seenDevice, let parsed = deviceObject(), sink.take(parsed) else { return false }
                seenDevice = true
            } else if SnapshotKeyText.equal(key, "apps") {
                guard !seenApps else { return false }
                seenApps = true
                skipWhitespace()
                if !takeNull() {
                    // A first guess (about 60 bytes an app at the least), made exact after 64 apps.
                    sink.reserve(Swift.min((bytes.count - position) / 60, 4096))
                    guard appArray(into: &sink) else { return false }
                }
            } else {
                return false
            }
            guard endOfMember(UInt8(ascii: "}")) else { return false }
            if bytes[position - 1] == UInt8(ascii: "}") { break }
        }
        skipWhitespace()
        return position == bytes.count && seenDevice
    }

    private mutating func deviceObject() -> Device? {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var fields = SnapshotDeviceFields()
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            while true {
                guard let keyBytes = key(), let key = SnapshotDeviceKey.named(keyBytes), let value = scalar(),
                    fields.set(key, value), endOfMember(UInt8(ascii: "}"))
                else { return nil }
                if bytes[position - 1] == UInt8(ascii: "}") { break }
            }
        }
        return fields.device()
    }

    private mutating func appArray<Sink: SnapshotSink>(into sink: inout Sink) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return true }
        let start = position
        var count = 0
        while true {
            skipWhitespace()
            guard let fields = appObject(), sink.add(fields), endOfMember(UInt8(ascii: "]")) else { return false }
            if bytes[position - 1] == UInt8(ascii: "]") { return true }
            count += 1
            if count == 64 {
                // Room for the apps still to come at the rate of the first 64, and 1/32 more:
                // neither a regrowth copy nor a table sized for twice the apps.
                let left = (bytes.count - position) / Swift.max((position - start) / count, 1)
                sink.reserve(Swift.min(count + left + left / 32, PressureEngine.maximumApps))
            }
            if position - released >= Self.releaseInterval {
                // A page's worth behind: the decoder looks back one byte at most.
                released = position - 4096
                release(released)
            }
        }
    }

    private mutating func appObject() -> SnapshotAppFields? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var fields = SnapshotAppFields()
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return fields }
        while true {
            guard let keyBytes = key(), let key = SnapshotAppKey.named(keyBytes) else { return nil }
            if key == .backgroundModes {
                skipWhitespace()
                guard fields.first(.backgroundModes) else { return nil }
                if !takeNull() {
                    guard modeArray(into: &fields) else { return nil }
                }
            } else if key == .state, position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
                guard let range = stringBytes(), fields.setState(UnsafeBufferPointer(rebasing: bytes[range])) else {
                    return nil
                }
            } else {
                guard let value = scalar(), fields.set(key, value) else { return nil }
            }
            guard endOfMember(UInt8(ascii: "}")) else { return nil }
            if bytes[position - 1] == UInt8(ascii: "}") { return fields }
        }
    }

    private mutating func modeArray(into fields: inout SnapshotAppFields) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return true }
        while true {
            guard let value = scalar(), fields.addMode(value), endOfMember(UInt8(ascii: "]")) else { return false }
            if bytes[position - 1] == UInt8(ascii: "]") { return true }
        }
    }

    // MARK: the grammar

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// After a member or an element: whitespace, then `,` (and whitespace) or `close`, taken.
    private mutating func endOfMember(_ close: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { return false }
        let byte = bytes[position]
        guard byte == UInt8(ascii: ",") || byte == close else { return false }
        position += 1
        if byte == UInt8(ascii: ",") { skipWhitespace() }
        return true
    }

    private mutating func takeNull() -> Bool {
        guard position + 4 <= bytes.count, bytes[position] == UInt8(ascii: "n"),
            bytes[position + 1] == UInt8(ascii: "u"),
            bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l")
        else { return false }
        position += 4
        return true
    }

    /// A member name and its `:` (with the whitespace around it).
    private mutating func key() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard let range = stringBytes() else { return nil }
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { return nil }
        skipWhitespace()
        return UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// The bytes of a string without escapes (the quotes taken); `nil` for an escape, a control
    /// character or no closing quote.
    private mutating func stringBytes() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return start..<(position - 1)
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            position += 1
        }
        return nil
    }

    /// A string, number, `true`, `false` or `null`; `nil` for anything else.
    private mutating func scalar() -> SnapshotScalar? {
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            guard let range = stringBytes() else { return nil }
            let text = UnsafeBufferPointer(rebasing: bytes[range])
            if text.allSatisfy({ $0 < 0x80 }) { return .string(String(decoding: text, as: UTF8.self)) }
            // Validated, not repaired: bytes that are not UTF-8 are the strict reader's to report.
            return String(validating: text, as: UTF8.self).map { .string($0) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return number().map { .number($0) }
        case UInt8(ascii: "n"):
            return takeNull() ? .null : nil
        case UInt8(ascii: "t"):
            return word("true") ? .bool(true) : nil
        case UInt8(ascii: "f"):
            return word("false") ? .bool(false) : nil
        default:
            return nil
        }
    }

    private mutating func word(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count,
            SnapshotKeyText.equal(UnsafeBufferPointer(rebasing: bytes[position..<(position + count)]), text)
        else { return false }
        position += count
        return true
    }

    /// A JSON number (`JSONParser`'s grammar). Up to 15 digits with no fraction or exponent are
    /// exact in a Double and are converted here; any other number is converted by `Double(_:)`
    /// from its text, as the strict reader does.
    private mutating func number() -> Double? {
        let start = position
        let negative = take(UInt8(ascii: "-"))
        var integer: Int64 = 0
        let digitsStart = position
        while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 {
            integer = integer &* 10 &+ Int64(bytes[position] &- UInt8(ascii: "0"))
            position += 1
        }
        let digits = position - digitsStart
        guard digits > 0 else { return nil }
        var plain = digits <= 15
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            plain = false
            position += 1
            let begin = position
            while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            guard position > begin else { return nil }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            plain = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            let begin = position
            while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            guard position > begin else { return nil }
        }
        if plain { return negative ? -Double(integer) : Double(integer) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
