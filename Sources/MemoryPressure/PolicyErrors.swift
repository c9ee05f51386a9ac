/// Every problem found in one policy file: loading checks the whole file and reports them all.
public struct PolicyErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, in the order of the file.
    public var problems: [InputError]

    /// The problems of one policy, in the order of the file.
    ///
    /// - Complexity: O(1)
    public init(problems: [InputError]) {
        self.problems = problems
    }

    /// One line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
