/// A regular expression over app ids that runs in linear time: a policy's `names` and
/// `preferences` patterns are matched by this Thompson-NFA simulation, never by a backtracking
/// engine, so no pattern can hang the tool (`^(a+)+$` against a long id costs what `^a+$` does).
///
/// The syntax is the common subset of POSIX extended and Perl-style expressions:
/// - literal characters, and `\` before any punctuation for the character itself (`\.`, `\[`);
/// - `.` (any character), classes `[abc]`, `[a-z0-9_]`, `[^…]`, and `\d`, `\w`, `\s` (and
///   `\D`, `\W`, `\S`) inside or outside classes;
/// - `^` and `$` (the start and end of the id), groups `( )` and `(?: )`, alternation `|`;
/// - quantifiers `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (counts up to 100), each optionally
///   followed by `?` (lazy; the same ids match).
///
/// Backreferences, lookaround, named groups and inline flags are refused when the policy is
/// loaded. A pattern matches when it matches anywhere in the id (anchor it with `^…$` for the
/// whole id). Patterns are at most ``maximumLength`` characters and compile to at most
/// ``maximumProgramSize`` steps.
public struct NamePattern: Sendable, Hashable {
    /// The longest pattern, in characters.
    public static let maximumLength = 1000
    /// The most steps a compiled pattern may have (counted repetitions are expanded).
    public static let maximumProgramSize = 10_000
    /// The largest count in `{n,m}`.
    public static let maximumRepetition = 100

    /// Why a pattern was refused.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, and where (a 1-based character offset).
        public var message: String
        /// What is wrong.
        public var description: String { message }
    }

    /// The pattern as written.
    public let source: String
    private let program: [Instruction]

    /// Compiles `source`.
    ///
    /// - Throws: ``SyntaxError`` naming the unsupported or malformed part.
    /// - Complexity: O(length of `source` + the compiled program)
    public init(_ source: String) throws(SyntaxError) {
        self.source = source
        guard source.count <= Self.maximumLength else {
            throw SyntaxError(message: "a pattern of more than \(Self.maximumLength) characters")
        }
        var parser = Parser(Array(source.unicodeScalars))
        let tree = try parser.parseAll()
        var compiler = Compiler()
        try compiler.emit(tree)
        compiler.program.append(.match)
        program = compiler.program
    }

    /// Whether the pattern matches anywhere in `text`.
    ///
    /// - Complexity: O(length of `text` × size of the compiled pattern), whatever the pattern.
    public func isFound(in text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        let count = program.count
        var current = StateSet(capacity: count)
        var next = StateSet(capacity: count)
        var stack: [Int] = []
        stack.reserveCapacity(count)
        for position in 0...scalars.count {
            // A new thread starts at every position: the pattern may match anywhere.
            if addThread(0, at: position, of: scalars.count, to: &current, stack: &stack) { return true }
            guard position < scalars.count else { break }
            let scalar = scalars[position]
            next.clear()
            for index in current.members {
                if case .character(let predicate) = program[index], predicate.matches(scalar) {
                    if addThread(index + 1, at: position + 1, of: scalars.count, to: &next, stack: &stack) {
                        return true
                    }
                }
            }
            swap(&current, &next)
        }
        return false
    }

    /// Adds `start` and every step reachable from it without reading a character; true when
    /// one of them is the final match.
    private func addThread(_ start: Int, at position: Int, of length: Int, to set: inout StateSet, stack: inout [Int])
        -> Bool
    {
        stack.append(start)
        while let index = stack.popLast() {
            guard set.insert(index) else { continue }
            switch program[index] {
            case .match:
                stack.removeAll(keepingCapacity: true)
                return true
            case .character: break
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assertStart: if position == 0 { stack.append(index + 1) }
            case .assertEnd: if position == length { stack.append(index + 1) }
            }
        }
        return false
    }

    /// Two patterns are equal when they were written alike.
    ///
    /// - Complexity: O(length of the sources)
    public static func == (lhs: NamePattern, rhs: NamePattern) -> Bool { lhs.source == rhs.source }
    /// Hashes the source.
    ///
    /// - Complexity: O(length of the source)
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

extension NamePattern {
    /// One step of the compiled program.
    fileprivate enum Instruction: Sendable {
        case character(Predicate)
        case split(Int, Int)
        case jump(Int)
        case assertStart
        case assertEnd
        case match
    }

    /// What one character must be.
    fileprivate enum Predicate: Sendable, Hashable {
        case any
        case scalar(Unicode.Scalar)
        case set(ranges: [ClosedRange<UInt32>], classes: [Shorthand], negated: Bool)

        func matches(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .any: return true
            case .scalar(let expected): return scalar == expected
            case .set(let ranges, let classes, let negated):
                let inside = ranges.contains { $0.contains(scalar.value) } || classes.contains { $0.matches(scalar) }
                return inside != negated
            }
        }
    }

    /// `\d`, `\w`, `\s` and their negations.
    fileprivate enum Shorthand: Sendable, Hashable {
        case digit, word, space
        case notDigit, notWord, notSpace

        func matches(_ scalar: Unicode.Scalar) -> Bool {
            let properties = scalar.properties
            switch self {
            case .digit: return properties.numericType == .decimal
            case .word: return scalar == "_" || properties.isAlphabetic || properties.numericType == .decimal
            case .space: return properties.isWhitespace
            case .notDigit: return !Shorthand.digit.matches(scalar)
            case .notWord: return !Shorthand.word.matches(scalar)
            case .notSpace: return !Shorthand.space.matches(scalar)
            }
        }
    }

    /// The parsed pattern.
    fileprivate indirect enum Node {
        case empty
        case character(Predicate)
        case start
        case end
        case sequence([Node])
        case alternatives([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    /// A set of program steps with O(1) insert and clear (a generation-stamped array).
    fileprivate struct StateSet {
        private var stamps: [UInt32]
        private var generation: UInt32 = 1
        private(set) var members: [Int] = []

        init(capacity: Int) {
            stamps = Array(repeating: 0, count: capacity)
            members.reserveCapacity(capacity)
        }

        /// Adds `index`; false if it was already there.
        mutating func insert(_ index: Int) -> Bool {
            guard stamps[index] != generation else { return false }
            stamps[index] = generation
            members.append(index)
            return true
        }

        mutating func clear() {
            members.removeAll(keepingCapacity: true)
            generation &+= 1
            if generation == 0 {
                for index in stamps.indices { stamps[index] = 0 }
                generation = 1
            }
        }
    }

    /// A recursive-descent parser of the syntax above.
    fileprivate struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0
        var depth = 0

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        func error(_ message: String, at offset: Int? = nil) -> SyntaxError {
            SyntaxError(message: "\(message) at character \((offset ?? position) + 1)")
        }

        var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        mutating func parseAll() throws(SyntaxError) -> Node {
            let node = try parseAlternatives()
            if position < scalars.count {
                throw error("an unmatched ')'")
            }
            return node
        }

        mutating func parseAlternatives() throws(SyntaxError) -> Node {
            var branches = [try parseSequence()]
            while peek == "|" {
                position += 1
                branches.append(try parseSequence())
            }
            return branches.count == 1 ? branches[0] : .alternatives(branches)
        }

        mutating func parseSequence() throws(SyntaxError) -> Node {
            var items: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                var atom = try parseAtom()
                var isQuantified = false
                while let quantifier = peek, "*+?{".unicodeScalars.contains(quantifier) {
                    let quantifierStart = position
                    guard let (low, high) = try parseQuantifier() else { break }
                    guard !isQuantified else {
                        throw error("a quantifier right after another one (write a group: (a*)*)", at: quantifierStart)
                    }
                    switch atom {
                    case .start, .end, .empty:
                        throw error("nothing to repeat before this quantifier", at: quantifierStart)
                    default: break
                    }
                    isQuantified = true
                    atom = .repeated(atom, min: low, max: high)
                    if peek == "?" { position += 1 }  // lazy: the same ids match
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .sequence(items))
        }

        /// `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}`; `nil` for a `{` that starts no count (a literal).
        mutating func parseQuantifier() throws(SyntaxError) -> (Int, Int?)? {
            let start = position
            switch scalars[position] {
            case "*": position += 1; return (0, nil)
            case "+": position += 1; return (1, nil)
            case "?": position += 1; return (0, 1)
            default: break
            }
            position += 1  // "{"
            guard let low = parseNumber() else {
                position = start
                return nil
            }
            var high: Int? = low
            if peek == "," {
                position += 1
                high = parseNumber()
            }
            guard peek == "}" else {
                position = start
                return nil
            }
            position += 1
            guard low <= Self.maximumRepetition, (high ?? 0) <= Self.maximumRepetition else {
                throw error("a repetition count above \(Self.maximumRepetition)", at: start)
            }
            if let high, high < low { throw error("a repetition {\(low),\(high)} with max below min", at: start) }
            return (low, high)
        }

        static var maximumRepetition: Int { NamePattern.maximumRepetition }

        mutating func parseNumber() -> Int? {
            var value = 0
            var digits = 0
            while let scalar = peek, ("0"..."9").contains(scalar), digits < 6 {
                value = value * 10 + Int(scalar.value - 48)
                digits += 1
                position += 1
            }
            return digits > 0 ? value : nil
        }

        mutating func parseAtom() throws(SyntaxError) -> Node {
            let scalar = scalars[position]
            switch scalar {
            case "(":
                let open = position
                position += 1
                if peek == "?" {
                    guard position + 1 < scalars.count, scalars[position + 1] == ":" else {
                        throw error(
                            "an unsupported group (lookaround, named groups and flags are not supported; use ( ) or (?: ))",
                            at: open)
                    }
                    position += 2
                }
                depth += 1
                guard depth <= 100 else { throw error("groups nested more than 100 deep", at: open) }
                let inner = try parseAlternatives()
                depth -= 1
                guard peek == ")" else { throw error("a '(' that is never closed", at: open) }
                position += 1
                return inner
            case "[":
                return .character(try parseClass())
            case ".":
                position += 1
                return .character(.any)
            case "^":
                position += 1
                return .start
            case "$":
                position += 1
                return .end
            case "\\":
                position += 1
                return .character(try parseEscape(inClass: false).predicate)
            case "*", "+", "?":
                throw error("nothing to repeat before '\(scalar)'")
            default:
                position += 1
                return .character(.scalar(scalar))
            }
        }

        /// What follows a `\`: a shorthand class or a literal character.
        mutating func parseEscape(inClass: Bool) throws(SyntaxError) -> (predicate: Predicate, literal: Unicode.Scalar?)
        {
            guard let scalar = peek else { throw error("a '\\' at the end of the pattern") }
            position += 1
            let shorthand: Shorthand? =
                switch scalar {
                case "d": .digit
                case "w": .word
                case "s": .space
                case "D": .notDigit
                case "W": .notWord
                case "S": .notSpace
                default: nil
                }
            if let shorthand { return (.set(ranges: [], classes: [shorthand], negated: false), nil) }
            if scalar == "t" { return (.scalar("\t"), "\t") }
            if ("1"..."9").contains(scalar) {
                throw error("a backreference (\\\(scalar)) is not supported", at: position - 2)
            }
            guard scalar.value < 128, !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else {
                throw error("an unsupported escape \\\(scalar)", at: position - 2)
            }
            return (.scalar(scalar), scalar)
        }

        mutating func parseClass() throws(SyntaxError) -> Predicate {
            let open = position
            position += 1
            var negated = false
            if peek == "^" {
                negated = true
                position += 1
            }
            var ranges: [ClosedRange<UInt32>] = []
            var classes: [Shorthand] = []
            var first = true
            while true {
                guard let scalar = peek else { throw error("a '[' that is never closed", at: open) }
                if scalar == "]" && !first {
                    position += 1
                    break
                }
                first = false
                var low: Unicode.Scalar
                if scalar == "\\" {
                    position += 1
                    let escaped = try parseEscape(inClass: true)
                    guard let literal = escaped.literal else {
                        if case .set(_, let shorthand, _) = escaped.predicate { classes += shorthand }
                        continue
                    }
                    low = literal
                } else {
                    if scalar == "[", position + 1 < scalars.count, scalars[position + 1] == ":" {
                        throw error("POSIX classes such as [:alpha:] are not supported; use a-z or \\w")
                    }
                    low = scalar
                    position += 1
                }
                if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    var high = scalars[position]
                    if high == "\\" {
                        position += 1
                        guard let literal = try parseEscape(inClass: true).literal else {
                            throw error("a range that ends in a class such as \\d")
                        }
                        high = literal
                    } else {
                        position += 1
                    }
                    guard low.value <= high.value else { throw error("an inverted range \(low)-\(high)") }
                    ranges.append(low.value...high.value)
                } else {
                    ranges.append(low.value...low.value)
                }
            }
            return .set(ranges: ranges, classes: classes, negated: negated)
        }
    }

    /// Turns the parsed pattern into program steps, expanding counted repetitions.
    fileprivate struct Compiler {
        var program: [Instruction] = []

        mutating func append(_ instruction: Instruction) throws(SyntaxError) {
            guard program.count < NamePattern.maximumProgramSize else {
                throw SyntaxError(
                    message: "a pattern that compiles to more than \(NamePattern.maximumProgramSize) steps "
                        + "(fewer or smaller repetition counts)")
            }
            program.append(instruction)
        }

        mutating func emit(_ node: Node) throws(SyntaxError) {
            switch node {
            case .empty: break
            case .character(let predicate): try append(.character(predicate))
            case .start: try append(.assertStart)
            case .end: try append(.assertEnd)
            case .sequence(let items): for item in items { try emit(item) }
            case .alternatives(let branches):
                var jumps: [Int] = []
                for (offset, branch) in branches.enumerated() {
                    if offset < branches.count - 1 {
                        let split = program.count
                        try append(.split(split + 1, 0))
                        try emit(branch)
                        jumps.append(program.count)
                        try append(.jump(0))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repeated(let body, let low, let high):
                for _ in 0..<low { try emit(body) }
                if let high {
                    var splits: [Int] = []
                    for _ in low..<high {
                        splits.append(program.count)
                        try append(.split(program.count + 1, 0))
                        try emit(body)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let loop = program.count
                    try append(.split(loop + 1, 0))
                    try emit(body)
                    try append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}
