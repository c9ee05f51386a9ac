import MemoryPressure

// The snapshot schema as the streaming decoders (SnapshotJSONDecoder, SnapshotYAMLDecoder) apply
// it, one value at a time as the bytes arrive, with no document tree in between.
//
// The rules are exactly those of the strict reader (Snapshot+Loading.swift, `Snapshot.app(_:)`
// and ConfigObject's accessors): the same types, ranges and defaults, and a null value counts as
// an absent key. What the strict reader would refuse, these refuse too — but without words: a
// decoder that meets anything it does not accept gives up, and `Snapshot(text:file:)` reads the
// document again with the strict reader, which names the file, line, column and key path. So an
// error is always the strict reader's error, word for word, and only valid documents (the
// common case) take the fast road.

/// One scalar as a streaming decoder reads it.
enum SnapshotScalar {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
}

/// The keys of an app in a snapshot (docs/file-formats.md).
enum SnapshotAppKey: Int {
    case id, state, footprint, viewCaches, purgeable, lastActive, backgroundModes, oomScoreAdj, swap, pageTables,
        priority

    /// The key spelled by `bytes`, or `nil` for a key the schema does not have.
    ///
    /// - Complexity: O(length of `bytes`)
    static func named(_ bytes: UnsafeBufferPointer<UInt8>) -> SnapshotAppKey? {
        // The length and the first letter leave one candidate, then compared in full.
        guard let first = bytes.first else { return nil }
        let candidate: SnapshotAppKey
        switch (bytes.count, first) {
        case (2, UInt8(ascii: "i")): candidate = .id
        case (5, UInt8(ascii: "s")): candidate = .state
        case (9, UInt8(ascii: "f")): candidate = .footprint
        case (10, UInt8(ascii: "v")): candidate = .viewCaches
        case (9, UInt8(ascii: "p")): candidate = .purgeable
        case (10, UInt8(ascii: "l")): candidate = .lastActive
        case (15, UInt8(ascii: "b")): candidate = .backgroundModes
        case (11, UInt8(ascii: "o")): candidate = .oomScoreAdj
        case (4, UInt8(ascii: "s")): candidate = .swap
        case (10, UInt8(ascii: "p")): candidate = .pageTables
        case (8, UInt8(ascii: "p")): candidate = .priority
        default: return nil
        }
        return SnapshotKeyText.equal(bytes, candidate.text) ? candidate : nil
    }

    var text: StaticString {
        switch self {
        case .id: "id"
        case .state: "state"
        case .footprint: "footprint"
        case .viewCaches: "viewCaches"
        case .purgeable: "purgeable"
        case .lastActive: "lastActive"
        case .backgroundModes: "backgroundModes"
        case .oomScoreAdj: "oomScoreAdj"
        case .swap: "swap"
        case .pageTables: "pageTables"
        case .priority: "priority"
        }
    }
}

/// The keys of the device mapping.
enum SnapshotDeviceKey: Int {
    case memory, reserved, swap, swapFree

    /// The key spelled by `bytes`, or `nil`.
    static func named(_ bytes: UnsafeBufferPointer<UInt8>) -> SnapshotDeviceKey? {
        for key in [SnapshotDeviceKey.memory, .reserved, .swap, .swapFree] where SnapshotKeyText.equal(bytes, key.text)
        {
            return key
        }
        return nil
    }

    var text: StaticString {
        switch self {
        case .memory: "memory"
        case .reserved: "reserved"
        case .swap: "swap"
        case .swapFree: "swapFree"
        }
    }
}

/// Byte-wise comparison of a key with a schema name (no `String` is made for a key).
enum SnapshotKeyText {
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let pointer = name.utf8Start
        for index in 0..<bytes.count where bytes[index] != pointer[index] { return false }
        return true
    }
}

/// The values of a snapshot's typed fields, as ConfigObject reads them.
enum SnapshotValue {
    /// A size: a whole number of bytes from 0 to `Bytes.maximum`, or a string with a unit
    /// (`ConfigObject.size(_:object:key:)`).
    static func size(_ value: SnapshotScalar) -> Bytes? {
        switch value {
        case .number(let number) where number >= 0 && number == number.rounded():
            guard number <= Double(Bytes.maximum.value) else { return nil }
            return Bytes(Int64(number))
        case .string(let text):
            guard case .bytes(let bytes) = Bytes.parse(text) else { return nil }
            return Bytes(bytes)
        default: return nil
        }
    }

    /// An integer in `range` (`ConfigObject.int(_:in:object:key:)`).
    static func int(_ value: SnapshotScalar, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let number) = value, let integer = Int(exactly: number), range.contains(integer) else {
            return nil
        }
        return integer
    }
}

/// One app's fields, collected as they arrive; ``app()`` checks what `Snapshot.app(_:)` checks.
struct SnapshotAppFields {
    private var seen: UInt16 = 0
    private var id: AppID?
    private var state: AppState?
    private var footprint: Bytes?
    private var viewCaches = Bytes.zero
    private var purgeable = Bytes.zero
    private var lastActive: Double = 0
    private var backgroundModes: BackgroundModes = []
    private var oomScoreAdj: Int?
    private var swap = Bytes.zero
    private var pageTables = Bytes.zero
    private var priority: Int?

    /// Whether `key` was already given (a duplicate is refused).
    mutating func first(_ key: SnapshotAppKey) -> Bool {
        let bit: UInt16 = 1 << UInt16(key.rawValue)
        guard seen & bit == 0 else { return false }
        seen |= bit
        return true
    }

    /// Takes the scalar value of `key` (every key but `backgroundModes`); `false` if the strict
    /// reader would refuse it.
    mutating func set(_ key: SnapshotAppKey, _ value: SnapshotScalar) -> Bool {
        guard first(key) else { return false }
        if case .null = value { return true }
        switch key {
        case .id:
            guard case .string(let text) = value, AppID.problem(with: text) == nil else { return false }
            id = AppID(text)
        case .state:
            guard case .string(let text) = value, let parsed = AppState(rawValue: text) else { return false }
            state = parsed
        case .footprint:
            guard let bytes = SnapshotValue.size(value) else { return false }
            footprint = bytes
        case .viewCaches:
            guard let bytes = SnapshotValue.size(value) else { return false }
            viewCaches = bytes
        case .purgeable:
            guard let bytes = SnapshotValue.size(value) else { return false }
            purgeable = bytes
        case .swap:
            guard let bytes = SnapshotValue.size(value) else { return false }
            swap = bytes
        case .pageTables:
            guard let bytes = SnapshotValue.size(value) else { return false }
            pageTables = bytes
        case .lastActive:
            guard case .number(let number) = value, (0...InputLimits.maximumTime).contains(number) else { return false }
            lastActive = number
        case .oomScoreAdj:
            guard let integer = SnapshotValue.int(value, in: -1000...1000) else { return false }
            oomScoreAdj = integer
        case .priority:
            guard let integer = SnapshotValue.int(value, in: -1_000_000...1_000_000) else { return false }
            priority = integer
        case .backgroundModes:
            return false  // a list, or null (above)
        }
        return true
    }

    /// Takes the `state` written as the string `bytes` (without its quotes), compared byte by
    /// byte with the states' names; `false` if it names none (or `state` was given before).
    mutating func setState(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard first(.state) else { return false }
        for candidate in [AppState.suspended, .background, .active, .inactive, .notRunning] {
            let name: StaticString =
                switch candidate {
                case .suspended: "suspended"
                case .background: "background"
                case .active: "active"
                case .inactive: "inactive"
                case .notRunning: "notRunning"
                }
            if SnapshotKeyText.equal(bytes, name) {
                state = candidate
                return true
            }
        }
        return false
    }

    /// Adds one element of the `backgroundModes` list; `false` unless it names a mode.
    mutating func addMode(_ value: SnapshotScalar) -> Bool {
        guard case .string(let text) = value, let mode = BackgroundMode(rawValue: text) else { return false }
        backgroundModes.insert(BackgroundModes(mode))
        return true
    }

    /// The app, or `nil` when a required key is missing or the caches do not fit the footprint.
    func app() -> ResidentApp? {
        guard let id, let state, let footprint, viewCaches.value + purgeable.value <= footprint.value else {
            return nil
        }
        return ResidentApp(
            id: id, state: state, footprint: footprint, viewCaches: viewCaches, purgeable: purgeable,
            lastActive: lastActive, backgroundModes: backgroundModes, oomScoreAdj: oomScoreAdj, swap: swap,
            pageTables: pageTables, priority: priority)
    }
}

/// The device's fields, collected as they arrive.
struct SnapshotDeviceFields {
    private var seen: UInt8 = 0
    private var memory: Bytes?
    private var reserved = Bytes.zero
    private var swap = Bytes.zero
    private var swapFree: Bytes?

    /// Takes the value of `key`; `false` if the strict reader would refuse it.
    mutating func set(_ key: SnapshotDeviceKey, _ value: SnapshotScalar) -> Bool {
        let bit: UInt8 = 1 << UInt8(key.rawValue)
        guard seen & bit == 0 else { return false }
        seen |= bit
        if case .null = value { return true }
        guard let bytes = SnapshotValue.size(value) else { return false }
        switch key {
        case .memory: memory = bytes
        case .reserved: reserved = bytes
        case .swap: swap = bytes
        case .swapFree: swapFree = bytes
        }
        return true
    }

    /// The device, or `nil` when `memory` is missing, the reserve is not below it, or more swap
    /// is free than there is.
    func device() -> Device? {
        guard let memory, reserved < memory else { return nil }
        if let swapFree, swapFree > swap { return nil }
        return Device(memory: memory, reserved: reserved, swap: swap, swapFree: swapFree)
    }
}

/// The apps of a snapshot, checked as they are added (one foreground app at most) and, once all
/// are in, for unique ids (``uniqueApps()``).
///
/// Unique ids are checked by sorting the ids' hashes (``RadixSort``) and comparing the ids only
/// where two hashes are equal: 8 bytes an app, against a set's table of the ids that, for a
/// million apps, held more memory than the apps themselves.
struct SnapshotAppList: SnapshotSink {
    private(set) var apps: [ResidentApp] = []
    private var hashes: [UInt64] = []
    private var hasForeground = false
    /// The device, once read.
    private(set) var device: Device?

    mutating func take(_ device: Device) -> Bool {
        self.device = device
        return true
    }

    /// Room for about `count` apps.
    mutating func reserve(_ count: Int) {
        apps.reserveCapacity(count)
        hashes.reserveCapacity(count)
    }

    /// Adds the app `fields` describe; `false` if it is incomplete, invalid or a second
    /// foreground app.
    mutating func add(_ fields: SnapshotAppFields) -> Bool {
        guard let app = fields.app() else { return false }
        if app.state.isForeground {
            guard !hasForeground else { return false }
            hasForeground = true
        }
        apps.append(app)
        hashes.append(UInt64(bitPattern: Int64(app.id.hashValue)))
        return true
    }

    /// The apps, or `nil` when two have the same id.
    ///
    /// - Complexity: O(n) for the sort, plus O(k²) id comparisons within each group of k equal hashes.
    func uniqueApps() -> [ResidentApp]? {
        let order = RadixSort.order(of: hashes)
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, hashes[Int(order[end])] == hashes[Int(order[start])] { end += 1 }
            if end - start > 1 {
                let ids = order[start..<end].map { apps[Int($0)].id }
                if Set(ids).count != ids.count { return nil }
            }
            start = end
        }
        return apps
    }
}
