import MemoryPressure

/// One swept parameter of a ``SweepDefinition``: a name (`memory`, `hours`,
/// `policy.thresholds.warning.enter`…) and the values it takes, as the user wrote them.
///
/// Device parameters (`memory`, `reserved`) and policy parameters (`policy.…`) apply to every kind
/// of sample; workload parameters change how samples are generated, so they apply to seeds only.
public struct SweepParameter: Sendable, Hashable {
    /// What a parameter changes and how its values are read.
    public enum Kind: Sendable, Hashable {
        /// A device size (`memory`, `reserved`).
        case device
        /// A field of the workload: changes generated samples only.
        case workload
        /// A policy threshold, applied to every policy that has it.
        case policy
    }

    /// The parameter's name, as given.
    public var name: String
    /// Its values, as given (trimmed), in the order given.
    public var values: [String]

    /// What the parameter changes.
    public var kind: Kind {
        if name == "memory" || name == "reserved" { return .device }
        return name.hasPrefix("policy.") ? .policy : .workload
    }

    /// The supported parameter names and what each value must be.
    public static let supported: [(name: String, expected: String)] = [
        ("memory", "a size such as 512MiB"),
        ("reserved", "a size such as 96MiB"),
        ("hours", "hours above 0, at most 8760"),
        ("apps", "an integer from 1 to 1000000"),
        ("popularity", "a number ≥ 0"),
        ("switchesPerHour", "a number ≥ 0"),
        ("interruptionsPerHour", "a number ≥ 0"),
        ("locksPerHour", "a number ≥ 0"),
        ("viewSwitchesPerMinute", "a number ≥ 0"),
        ("growthPerMinute", "a size such as 2MiB"),
        ("backgroundTaskShare", "a share such as 10% or 0.1"),
        ("homeShare", "a share such as 20% or 0.2"),
        ("user.extraAppsPerSession", "a number from 0 to 20"),
        ("user.nightActivity", "a share such as 4% or 0.04"),
        ("user.homeBeforeLock", "a share such as 50% or 0.5"),
        ("policy.thresholds.warning.enter", "a size or a percentage such as 15%"),
        ("policy.thresholds.warning.clear", "a size or a percentage such as 20%"),
        ("policy.thresholds.urgent.enter", "a size or a percentage such as 10%"),
        ("policy.thresholds.urgent.clear", "a size or a percentage such as 15%"),
        ("policy.thresholds.critical.enter", "a size or a percentage such as 5%"),
        ("policy.thresholds.critical.clear", "a size or a percentage such as 10%"),
        ("policy.kill.target", "a size or a percentage such as 15%"),
        ("policy.compression.capacity", "a size or a percentage of memory such as 50%"),
        ("policy.compression.ratio", "a number from 1 to 100"),
        ("policy.compression.compressible", "a share such as 60% or 0.6"),
        ("policy.compression.zswapPool", "a size or a percentage of memory such as 20%"),
        ("policy.compression.zswapAcceptThresholdPercent", "a number from 0 to 100"),
    ]

    /// A parameter; every value is checked.
    ///
    /// - Throws: ``SweepError`` naming the parameter, the bad value and what was expected.
    /// - Complexity: O(supported names + total length of `values`)
    public init(name: String, values: [String]) throws(SweepError) {
        self.name = name
        self.values = values.map { $0.trimmingWhitespaceAndTabs() }
        guard let expected = Self.supported.first(where: { $0.name == name })?.expected else {
            throw SweepError(
                "unknown parameter \(name.quotedExcerpt()); expected one of "
                    + Self.supported.map(\.name).joined(separator: ", "))
        }
        guard !self.values.isEmpty else { throw SweepError("parameter \(name): expected at least one value") }
        var seen: Set<String> = []
        for value in self.values {
            guard Self.numeric(name: name, value) != nil else {
                throw SweepError("parameter \(name): expected \(expected), found \(value.quotedExcerpt())")
            }
            guard seen.insert(value).inserted else {
                throw SweepError("parameter \(name): the value \(value.quotedExcerpt()) appears twice")
            }
        }
    }

    /// Parses `NAME=v1,v2,…` (the `--param` flag).
    ///
    /// - Throws: ``SweepError`` if the text has no `=` or a value is bad.
    /// - Complexity: O(length of `text`)
    public init(parsing text: String) throws(SweepError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw SweepError("--param \(text.quotedExcerpt()): expected NAME=v1,v2,… such as memory=256MiB,512MiB")
        }
        let name = String(text[..<equals]).trimmingWhitespaceAndTabs()
        let values = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map(String.init)
        if values.contains(where: { $0.trimmingWhitespaceAndTabs().isEmpty }) {
            throw SweepError("--param \(name): expected values separated by single commas, found an empty value")
        }
        try self.init(name: name, values: values)
    }

    /// The value as a number for charts and checks: bytes for sizes, percent for percentages of
    /// memory (shares as fractions), `nil` if the text is not a value of this parameter.
    ///
    /// - Complexity: O(length of `text`)
    public static func numeric(name: String, _ text: String) -> Double? {
        switch name {
        case "memory", "reserved", "growthPerMinute":
            guard let bytes = Bytes(parsing: text), name != "memory" || bytes.value > 0 else { return nil }
            return Double(bytes.value)
        case "hours":
            guard let value = Double(text), value > 0, value <= 8760 else { return nil }
            return value
        case "apps":
            guard let value = Int(text), (1...1_000_000).contains(value) else { return nil }
            return Double(value)
        case "user.extraAppsPerSession":
            guard let value = Double(text), (0...20).contains(value) else { return nil }
            return value
        case "backgroundTaskShare", "homeShare", "user.nightActivity", "user.homeBeforeLock",
            "policy.compression.compressible":
            return share(text)
        case "policy.compression.ratio":
            guard let value = Double(text), (1...100).contains(value) else { return nil }
            return value
        case "policy.compression.zswapAcceptThresholdPercent":
            guard let value = Double(text), (0...100).contains(value) else { return nil }
            return value
        case _ where name.hasPrefix("policy."):
            guard let amount = MemoryAmount(parsing: text) else { return nil }
            switch amount {
            case .bytes(let bytes): return Double(bytes.value)
            case .percent(let percent): return percent
            }
        default:
            guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
            return value
        }
    }

    /// A share: `20%` or a fraction such as `0.2`.
    static func share(_ text: String) -> Double? {
        if text.hasSuffix("%") {
            guard let value = Double(text.dropLast()), (0...100).contains(value) else { return nil }
            return value / 100
        }
        guard let value = Double(text), (0...1).contains(value) else { return nil }
        return value
    }

    /// Sets `value` (one of ``values``) on the device of `workload`, on the workload itself or on
    /// every policy that has the threshold (or compressed memory, for `policy.compression.…`).
    func apply(_ value: String, to workload: inout Workload, policies: inout [Policy]) {
        let number = Self.numeric(name: name, value) ?? 0
        switch name {
        case "memory": workload.device.memory = Bytes(Int64(number))
        case "reserved": workload.device.reserved = Bytes(Int64(number))
        case "hours": workload.hours = number
        case "apps":
            workload.apps = Int(number)
            workload.preload = min(workload.preload, Int(number))
        case "popularity": workload.popularity = number
        case "switchesPerHour": workload.switchesPerHour = number
        case "interruptionsPerHour": workload.interruptionsPerHour = number
        case "locksPerHour": workload.locksPerHour = number
        case "viewSwitchesPerMinute": workload.viewSwitchesPerMinute = number
        case "growthPerMinute": workload.growthPerMinute = Bytes(Int64(number))
        case "backgroundTaskShare": workload.backgroundTaskShare = number
        case "homeShare": workload.homeShare = number
        case "user.extraAppsPerSession": workload.user?.extraAppsPerSession = number
        case "user.nightActivity": workload.user?.nightActivity = number
        case "user.homeBeforeLock": workload.user?.homeBeforeLockShare = number
        // Compression parameters apply to the policies that compress (docs/compression.md).
        case "policy.compression.ratio":
            // A swap file writes pages as they are: its ratio stays 1.
            for index in policies.indices where policies[index].compression?.mechanism != .swap {
                policies[index].compression?.ratio = number
            }
        case "policy.compression.compressible":
            for index in policies.indices { policies[index].compression?.compressible = number }
        case "policy.compression.capacity":
            guard let amount = MemoryAmount(parsing: value) else { return }
            for index in policies.indices { policies[index].compression?.capacity = amount }
        case "policy.compression.zswapPool":
            // Only zswap has a cache in front of its swap file.
            guard let amount = MemoryAmount(parsing: value) else { return }
            for index in policies.indices where policies[index].compression?.mechanism == .zswap {
                policies[index].compression?.zswapPool = amount
            }
        case "policy.compression.zswapAcceptThresholdPercent":
            for index in policies.indices where policies[index].compression?.mechanism == .zswap {
                policies[index].compression?.zswapAcceptThresholdPercent = number
            }
        default:
            guard let amount = MemoryAmount(parsing: value) else { return }
            let parts = name.split(separator: ".").map(String.init)
            for index in policies.indices {
                if parts == ["policy", "kill", "target"] {
                    policies[index].kills.target = amount
                    continue
                }
                guard parts.count == 4 else { continue }
                let set = { (threshold: inout LevelThreshold?) in
                    guard threshold != nil else { return }
                    if parts[3] == "enter" { threshold!.enter = amount } else { threshold!.clear = amount }
                }
                switch parts[2] {
                case "warning": set(&policies[index].thresholds.warning)
                case "urgent": set(&policies[index].thresholds.urgent)
                default: set(&policies[index].thresholds.critical)
                }
            }
        }
    }
}

/// A sweep that cannot be defined, run or merged; the message says what was expected.
public struct SweepError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and what was expected.
    public var message: String
    /// Whether the problem is in the command line (exit 64) rather than in the input (65).
    public var isUsage: Bool

    /// An error with `message`.
    ///
    /// - Complexity: O(1)
    public init(_ message: String, isUsage: Bool = true) {
        self.message = message
        self.isUsage = isUsage
    }

    /// The message.
    public var description: String { message }
}
