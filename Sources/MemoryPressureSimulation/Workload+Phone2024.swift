import MemoryPressure
import MemoryPressureFormats

// The built-in `phone-2024` workload: the per-user model of `phone` (same people, same days) on a
// current Android phone with current app sizes. It is defined by a shipped workload file,
// Sources/MemoryPressureSimulation/Workloads/phone-2024.yaml (compiled in as ShippedWorkloads.swift),
// in which every parameter names its source or says it is an assumption.

extension Workload {
    /// One day of one person on a current Android phone (8 GiB, a Pixel 8's memory); each seed is
    /// another person.
    ///
    /// Loaded from the shipped file `phone-2024.yaml` (``shippedSource(_:)`` returns its text; `base:
    /// phone`), in which every value cites its source on its own line: app footprints and their
    /// growth in the first five minutes from Ariadne (HPCA 2025) Table 1, the hot resume from
    /// Fleet's (ASPLOS 2024) hot-launch measurements, the memory from the Pixel 8's specifications;
    /// the memory the system holds, the cold-launch cost and the kinds Ariadne did not measure are
    /// assumptions, said as such there. docs/phone-2024-sources.md has the research behind each line.
    public static let phone2024: Workload = {
        guard let text = ShippedWorkloads.sources["phone-2024"] else {
            preconditionFailure("the compiled-in workload phone-2024.yaml is missing")
        }
        do throws(InputError) {
            return try Workload(yaml: text, file: "phone-2024.yaml")
        } catch {
            preconditionFailure("the compiled-in workload phone-2024.yaml does not load: \(error)")
        }
    }()

    /// The names of the built-in workloads defined by a shipped workload file.
    public static let shippedNames = ["phone-2024"]

    /// The text of the shipped workload file `name` (a name of ``shippedNames``), comments included,
    /// or `nil`.
    ///
    /// - Complexity: O(1)
    public static func shippedSource(_ name: String) -> String? {
        guard shippedNames.contains(name) else { return nil }
        return ShippedWorkloads.sources[name]
    }
}

extension PhoneUser {
    /// The kinds of a 2024 catalogue (``Workload/phone2024``'s): the shares, sessions, time-of-day
    /// weights and background use of ``iOS4Kinds`` (the people did not change, the apps did), with
    /// current footprints and growth, each cited in `phone-2024.yaml`.
    public static var modernKinds: [AppKind] { modernUser.kinds }

    /// ``iOS4User`` with ``modernKinds``: the same calibrated habits (installed apps, popularity,
    /// sessions, hours), today's app sizes.
    public static var modernUser: PhoneUser {
        guard let user = Workload.phone2024.user else {
            preconditionFailure("the compiled-in workload phone-2024.yaml has no user")
        }
        return user
    }
}

extension LaunchCost {
    /// A current phone's launch cost (``Workload/phone2024``'s): 0.5 s + 3 ms per MiB cold (an
    /// assumption under Android vitals' 5 s), 0.2555 s warm (Fleet's median hot launch); each
    /// cited in `phone-2024.yaml`.
    public static var modernPhone: LaunchCost { Workload.phone2024.launchCost }
}
