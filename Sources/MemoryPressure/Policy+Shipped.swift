import Foundation

extension Policy {
    /// The names of the policies shipped with the package (`policies/*.yaml`), default first.
    public static let shippedNames = [
        "ios4", "jetsam", "android-lmkd", "linux-oom", "earlyoom", "lru", "relaunch-aware",
    ]

    /// The shipped policy named `name`, loaded from the package's bundled resources.
    ///
    /// - Throws: ``PolicyErrors`` if the bundled file is missing or invalid (a broken install).
    public static func shipped(_ name: String) throws(PolicyErrors) -> Policy {
        guard shippedNames.contains(name),
            let url = Bundle.module.url(forResource: name, withExtension: "yaml", subdirectory: "Policies"),
            let data = FileManager.default.contents(atPath: url.path)
        else {
            throw PolicyErrors(problems: [
                InputError(
                    file: "\(name).yaml", line: 0, column: 0, path: "",
                    message:
                        "no shipped policy named \"\(name)\"; expected one of \(shippedNames.joined(separator: ", "))")
            ])
        }
        return try Policy(yaml: String(decoding: data, as: UTF8.self), file: "policies/\(name).yaml")
    }

    /// The text of the shipped policy file `name`, comments included, or `nil`.
    public static func shippedSource(_ name: String) -> String? {
        guard shippedNames.contains(name),
            let url = Bundle.module.url(forResource: name, withExtension: "yaml", subdirectory: "Policies"),
            let data = FileManager.default.contents(atPath: url.path)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The default policy, `policies/ios4.yaml`: the iOS 4 behaviour of DESIGN.md.
    ///
    /// - Precondition: the package's bundled resources are installed (they are wherever the
    ///   package was built); use ``shipped(_:)`` to handle a broken install as an error.
    public static var ios4: Policy {
        guard let policy = bundledDefault else {
            preconditionFailure("the bundled default policy policies/ios4.yaml cannot be loaded")
        }
        return policy
    }

    /// `ios4.yaml`, loaded once.
    private static let bundledDefault: Policy? = try? shipped("ios4")
}
