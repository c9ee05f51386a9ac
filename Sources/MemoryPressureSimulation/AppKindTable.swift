/// What an app name of a usage log stands for in a workload: one of the workload's app kinds
/// (``PhoneUser/AppKind``, by name), or the home screen.
public enum AppRole: Sendable, Hashable, CustomStringConvertible {
    /// An app of the kind with this name (`messaging`, `game`, …).
    case kind(String)
    /// Not an app: the launcher, System UI, a keyboard, the collecting app. Bringing it to the
    /// front is the user going home.
    case home

    /// The role `text` names: `home`, or any other word as a kind's name.
    ///
    /// - Complexity: O(length of `text`)
    public init(_ text: String) { self = text == "home" ? .home : .kind(text) }

    /// `home`, or the kind's name.
    public var description: String {
        switch self {
        case .kind(let name): name
        case .home: "home"
        }
    }
}

/// Maps the app names of a usage log (Android package names such as `com.whatsapp`, or the
/// display names an "App Usage" export writes, such as `WhatsApp`) to a role in the workload: an
/// app kind, whose footprint distribution sizes the app, or the home screen.
///
/// A table is a list of entries, each a name or a pattern with `*` (any run of characters, dots
/// included: `*.game.*`, `com.supercell.*`). Names are compared without regard to case, with
/// no-break spaces read as spaces and spaces around trimmed. A name is looked up in the
/// overriding entries (a workload file's `appKinds`) first, then in the built-in ones; within
/// each, an exact name before a pattern, and patterns in their order. ``builtIn`` is the
/// documented table, each entry citing its source (`AppKindTable+BuiltIn.swift`).
public struct AppKindTable: Sendable, Hashable {
    /// One name or pattern and its role.
    public struct Entry: Sendable, Hashable {
        /// A name, or a pattern with `*`.
        public var pattern: String
        /// The role of the names it matches.
        public var role: AppRole

        /// `pattern` has `role`.
        ///
        /// - Complexity: O(1)
        public init(_ pattern: String, _ role: AppRole) {
            self.pattern = pattern
            self.role = role
        }
    }

    /// One layer of the table: exact names by their key, and patterns in order.
    struct Layer: Sendable, Hashable {
        var exact: [String: AppRole] = [:]
        var patterns: [[Substring]] = []
        var patternRoles: [AppRole] = []

        init(_ entries: [Entry]) {
            for entry in entries {
                let key = AppKindTable.key(entry.pattern)
                if key.contains("*") {
                    patterns.append(key.split(separator: "*", omittingEmptySubsequences: false))
                    patternRoles.append(entry.role)
                } else if exact[key] == nil {
                    exact[key] = entry.role
                }
            }
        }

        func role(of key: String) -> AppRole? {
            if let role = exact[key] { return role }
            for (index, parts) in patterns.enumerated() where AppKindTable.matches(key, parts) {
                return patternRoles[index]
            }
            return nil
        }
    }

    /// The entries that override the rest (a workload file's), in order.
    public private(set) var overrides: [Entry]
    /// The entries of the table below the overrides, in order.
    public private(set) var entries: [Entry]
    private var layers: [Layer]

    /// A table of `entries`, in their order.
    ///
    /// - Complexity: O(total length of the entries)
    public init(_ entries: [Entry]) {
        self.entries = entries
        overrides = []
        layers = [Layer(entries)]
    }

    /// This table with `entries` looked up before its own.
    ///
    /// - Complexity: O(total length of `entries`)
    public func overridden(by entries: [Entry]) -> AppKindTable {
        var table = self
        table.overrides = entries + overrides
        table.layers = [Layer(table.overrides), Layer(self.entries)]
        return table
    }

    /// The role of the app `name`, or `nil` when no entry matches it.
    ///
    /// - Complexity: O(length of `name`) for an exact name, plus O(patterns × length of `name`)
    ///   when none matches exactly.
    public func role(of name: String) -> AppRole? {
        let key = Self.key(name)
        for layer in layers {
            if let role = layer.role(of: key) { return role }
        }
        return nil
    }

    /// The form names are compared in: lowercased, no-break and other spaces as one space,
    /// trimmed.
    static func key(_ name: String) -> String {
        var key = ""
        var pendingSpace = false
        for scalar in name.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !key.isEmpty
                continue
            }
            if pendingSpace {
                key.append(" ")
                pendingSpace = false
            }
            key.unicodeScalars.append(scalar)
        }
        return key.lowercased()
    }

    /// Whether `key` matches the pattern split at its `*`s into `parts`.
    static func matches(_ key: String, _ parts: [Substring]) -> Bool {
        guard let first = parts.first, key.hasPrefix(first) else { return false }
        var rest = key.dropFirst(first.count)
        for (index, part) in parts.enumerated().dropFirst() {
            if index == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard !part.isEmpty else { continue }
            guard let range = rest.firstRange(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.isEmpty
    }
}
