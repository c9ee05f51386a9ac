import CYaml
import MemoryPressure

/// A streaming decoder of YAML snapshots over libyaml's event stream (the API Yams is built
/// on): each app is decoded straight from the events into a `ResidentApp`, with no node tree,
/// and each event is released as soon as it is read. Scalars are resolved as the strict reader
/// resolves them (``YAMLComposer/scalarValue(_:plain:error:)``, YAML's core schema).
///
/// It gives up (`nil`) on anything outside the snapshot schema and on every error, and on
/// anchors, aliases and tags (which the strict reader budgets and checks); `Snapshot(text:file:)`
/// then reads the document with the strict reader, whose error names the line, column and key path.
struct SnapshotYAMLDecoder {
    /// One event, copied out of libyaml's.
    private enum Event {
        case scalar(SnapshotScalar)
        case mappingStart, mappingEnd, sequenceStart, sequenceEnd
        case streamStart, streamEnd, documentStart, documentEnd
    }

    private var parser = yaml_parser_t()

    /// The snapshot in `bytes` (UTF-8, without a byte order mark), or `nil` if the strict reader must judge.
    ///
    /// - Complexity: O(`bytes.count`)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Snapshot? {
        var decoder = SnapshotYAMLDecoder()
        guard yaml_parser_initialize(&decoder.parser) == 1 else { return nil }
        defer { yaml_parser_delete(&decoder.parser) }
        yaml_parser_set_encoding(&decoder.parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&decoder.parser, bytes.baseAddress, bytes.count)
        return decoder.stream(estimatedApps: bytes.count / 80)
    }

    // MARK: the schema

    private mutating func stream(estimatedApps: Int) -> Snapshot? {
        guard case .streamStart = next(), case .documentStart = next(), case .mappingStart = next() else { return nil }
        var device: Device?
        var list = SnapshotAppList()
        var seenApps = false
        while true {
            guard let event = next() else { return nil }
            if case .mappingEnd = event { break }
            guard case .scalar(.string(let key)) = event else { return nil }
            switch key {
            case "device":
                guard device == nil, case .mappingStart = next(), let parsed = deviceMapping() else { return nil }
                device = parsed
            case "apps":
                guard !seenApps else { return nil }
                seenApps = true
                switch next() {
                case .scalar(.null): break
                case .sequenceStart:
                    list.reserve(Swift.min(estimatedApps, PressureEngine.maximumApps))
                    guard appSequence(into: &list) else { return nil }
                default: return nil
                }
            default: return nil
            }
        }
        guard case .documentEnd = next(), case .streamEnd = next(), let device else { return nil }
        guard let apps = list.uniqueApps() else { return nil }
        return Snapshot(device: device, apps: apps)
    }

    private mutating func deviceMapping() -> Device? {
        var fields = SnapshotDeviceFields()
        while true {
            guard let event = next() else { return nil }
            if case .mappingEnd = event { return fields.device() }
            guard case .scalar(.string(let name)) = event, let key = Self.deviceKey(name),
                case .scalar(let value) = next(),
                fields.set(key, value)
            else { return nil }
        }
    }

    private mutating func appSequence(into list: inout SnapshotAppList) -> Bool {
        while true {
            switch next() {
            case .sequenceEnd: return true
            case .mappingStart:
                guard let fields = appMapping(), list.add(fields) else { return false }
            default: return false
            }
        }
    }

    private mutating func appMapping() -> SnapshotAppFields? {
        var fields = SnapshotAppFields()
        while true {
            guard let event = next() else { return nil }
            if case .mappingEnd = event { return fields }
            guard case .scalar(.string(let name)) = event, let key = Self.appKey(name) else { return nil }
            if key == .backgroundModes {
                guard fields.first(.backgroundModes) else { return nil }
                switch next() {
                case .scalar(.null): continue
                case .sequenceStart:
                    while true {
                        guard let element = next() else { return nil }
                        if case .sequenceEnd = element { break }
                        guard case .scalar(let value) = element, fields.addMode(value) else { return nil }
                    }
                default: return nil
                }
            } else {
                guard case .scalar(let value) = next(), fields.set(key, value) else { return nil }
            }
        }
    }

    private static func appKey(_ name: String) -> SnapshotAppKey? {
        var name = name
        return name.withUTF8 { SnapshotAppKey.named($0) }
    }

    private static func deviceKey(_ name: String) -> SnapshotDeviceKey? {
        var name = name
        return name.withUTF8 { SnapshotDeviceKey.named($0) }
    }

    /// The two kinds of plain scalar a snapshot is made of, resolved from their bytes: a run of
    /// up to 15 digits (an integer, exact in a Double — what `Double(_:)` makes of the text) and a
    /// word starting with a letter that is not one of the core schema's nulls and booleans (a
    /// string). `nil`: anything else, which ``YAMLComposer/scalarValue(_:plain:error:)`` resolves.
    private static func quickPlainScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> SnapshotScalar? {
        guard let first = bytes.first else { return nil }
        if first &- UInt8(ascii: "0") < 10 {
            guard bytes.count <= 15 else { return nil }
            var value: Int64 = 0
            for byte in bytes {
                guard byte &- UInt8(ascii: "0") < 10 else { return nil }
                value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
            }
            return .number(Double(value))
        }
        guard (first | 0x20) &- UInt8(ascii: "a") < 26 else { return nil }
        switch text {
        case "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE": return nil
        default: return .string(text)
        }
    }

    // MARK: events

    /// The next event, released from libyaml; `nil` on an error, an alias, an anchor or a tag.
    private mutating func next() -> Event? {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
        defer { yaml_event_delete(&event) }
        switch event.type {
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            guard scalar.anchor == nil, scalar.tag == nil else { return nil }
            let bytes = UnsafeBufferPointer(start: scalar.value, count: scalar.value == nil ? 0 : scalar.length)
            let text = String(decoding: bytes, as: UTF8.self)
            let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE || scalar.style == YAML_ANY_SCALAR_STYLE
            guard plain else { return .scalar(.string(text)) }
            if let quick = Self.quickPlainScalar(bytes, text) { return .scalar(quick) }
            let value: ConfigNode.Value
            do {
                value = try YAMLComposer.scalarValue(text, plain: plain) { message in
                    InputError(file: "", line: 0, column: 0, path: "", message: message)
                }
            } catch {
                return nil
            }
            switch value {
            case .null: return .scalar(.null)
            case .bool(let flag): return .scalar(.bool(flag))
            case .number(let number, _): return .scalar(.number(number))
            case .string(let string): return .scalar(.string(string))
            case .array, .object: return nil
            }
        case YAML_MAPPING_START_EVENT:
            guard event.data.mapping_start.anchor == nil, event.data.mapping_start.tag == nil else { return nil }
            return .mappingStart
        case YAML_MAPPING_END_EVENT: return .mappingEnd
        case YAML_SEQUENCE_START_EVENT:
            guard event.data.sequence_start.anchor == nil, event.data.sequence_start.tag == nil else { return nil }
            return .sequenceStart
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd
        case YAML_DOCUMENT_START_EVENT: return .documentStart
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        default: return nil
        }
    }
}
