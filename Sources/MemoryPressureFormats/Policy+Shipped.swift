import MemoryPressure

extension Policy {
    /// The names of the policies shipped with the package (`policies/*.yaml`), default first.
    public static let shippedNames = [
        "ios4", "jetsam", "jetsam-compressor", "android-lmkd", "android-lmkd-zram", "android-lmkd-psi", "linux-oom",
        "earlyoom", "earlyoom-zram", "systemd-oomd", "lru", "relaunch-aware", "predictive",
    ]

    /// The shipped policy named `name`, parsed from the text compiled into the library.
    ///
    /// - Throws: `PolicyErrors` if no shipped policy has that name.
    ///
    /// - Complexity: O(length of the policy's text), parsed on every call
    public static func shipped(_ name: String) throws(PolicyErrors) -> Policy {
        guard let text = shippedSource(name) else {
            throw PolicyErrors(problems: [
                InputError(
                    file: "\(name).yaml", line: 0, column: 0, path: "",
                    message:
                        "no shipped policy named \"\(name)\"; expected one of \(shippedNames.joined(separator: ", "))")
            ])
        }
        return try Policy(yaml: text, file: "policies/\(name).yaml")
    }

    /// The text of the shipped policy file `name`, comments included, or `nil`.
    ///
    /// - Complexity: O(1)
    public static func shippedSource(_ name: String) -> String? {
        guard shippedNames.contains(name) else { return nil }
        return ShippedPolicies.sources[name]
    }

    /// The default policy, `policies/ios4.yaml`: the iOS 4 behaviour of docs/DESIGN.md.
    ///
    /// It is compiled into the library, and its text is checked by the tests, so this never fails.
    public static var ios4: Policy {
        guard let policy = bundledDefault else {
            preconditionFailure("the compiled-in default policy policies/ios4.yaml does not load")
        }
        return policy
    }

    /// `ios4.yaml`, loaded once.
    private static let bundledDefault: Policy? = try? shipped("ios4")
}
