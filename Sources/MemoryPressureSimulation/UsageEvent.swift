/// An event type of an app-usage log, in each vocabulary the usage-log reader accepts
/// (docs/usage-logs.md):
///
/// - the common form and LSApp (Aliannejadi et al., ACM TOIS 2021): `Opened`, `Closed`,
///   `User Interaction` and `Broken`;
/// - Android's `UsageEvents.Event` as UsageStatsManager exports commonly write it, by name or by
///   the constant's value: `ACTIVITY_RESUMED` (1; `MOVE_TO_FOREGROUND` is its deprecated name),
///   `ACTIVITY_PAUSED` (2; `MOVE_TO_BACKGROUND`) and `ACTIVITY_STOPPED` (23). Source:
///   developer.android.com/reference/android/app/usage/UsageEvents.Event.
///
/// Any other event type (a screen turning on, a configuration change, a notification seen) is not
/// a move of an app to or from the foreground: the reader counts it and skips the row.
public enum UsageEvent: String, Sendable, Hashable, CaseIterable {
    /// The app was opened (brought to the foreground).
    case opened
    /// LSApp's `User Interaction`: the user is using the app, so it is in the foreground — an
    /// open if it is not already there.
    case userInteraction
    /// The app was closed (left the foreground).
    case closed
    /// LSApp's `Broken`: the app's session ended without a `Closed` row. Read as the app leaving
    /// the foreground at that time (the documented choice: nothing after it shows the app in use).
    case broken
    /// Android's `ACTIVITY_RESUMED` / `MOVE_TO_FOREGROUND` (1): an activity of the app came to
    /// the front.
    case activityResumed
    /// Android's `ACTIVITY_PAUSED` / `MOVE_TO_BACKGROUND` (2): an activity of the app left the
    /// front.
    case activityPaused
    /// Android's `ACTIVITY_STOPPED` (23): an activity of the app is no longer visible. It follows
    /// the `ACTIVITY_PAUSED` that already moved the app out of the foreground, or belongs to an
    /// old activity of an app whose new activity has resumed: the import reads it as nothing.
    case activityStopped

    /// The event type `text` names (letters in any case; `_`, `-` and spaces alike), or `nil` for
    /// one that is not a move to or from the foreground.
    ///
    /// - Complexity: O(length of `text`)
    public init?(_ text: String) {
        guard text.utf8.count <= 40 else { return nil }
        var key = ""
        for character in text.lowercased() {
            if character == "_" || character == "-" || character == " " { continue }
            key.append(character)
        }
        switch key {
        case "opened", "open": self = .opened
        case "userinteraction": self = .userInteraction
        case "closed", "close": self = .closed
        case "broken": self = .broken
        case "activityresumed", "movetoforeground", "1": self = .activityResumed
        case "activitypaused", "movetobackground", "2": self = .activityPaused
        case "activitystopped", "23": self = .activityStopped
        default: return nil
        }
    }

    /// Whether the event brings the app to the foreground.
    public var bringsToForeground: Bool {
        switch self {
        case .opened, .userInteraction, .activityResumed: true
        case .closed, .broken, .activityPaused, .activityStopped: false
        }
    }

    /// Whether the event is one of Android's activity events, whose pause and resume of the same
    /// app within ``UsageLogImport/activitySwitchSeconds`` is one activity handing over to another
    /// inside the app, not the user leaving it.
    public var isActivityEvent: Bool {
        switch self {
        case .activityResumed, .activityPaused, .activityStopped: true
        case .opened, .userInteraction, .closed, .broken: false
        }
    }
}
