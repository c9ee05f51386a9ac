/// Why a comparison cannot run.
public enum ComparisonError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The ``Informed`` reference was asked for on samples without a generated user behind them.
    case informedNeedsUserModel(workload: String)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .informedNeedsUserModel(let workload):
            "the informed reference knows a generated user's app weights: it needs a workload with a user model "
                + "(phone, phone-2024), not \(workload)"
        }
    }
}
