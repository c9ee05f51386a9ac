/// How app code answers a memory warning.
public enum MemoryWarningResponse: Sendable, Hashable {
    /// Let the defaults happen: offscreen views and purgeable caches are released as the policy says.
    case comply
    /// Comply, and also release `Bytes` of the app's own (base) memory.
    case releaseMore(Bytes)
    /// Release nothing. An app whose handlers release nothing ignored the warning; a foreground
    /// app that ignored both the level-1 and the level-2 warning may be killed as the last resort.
    case ignore
}

/// App code that receives the application-delegate callbacks of one app. Every method is
/// optional (the defaults do nothing and comply with warnings).
public protocol ApplicationDelegate: AnyObject {
    /// A cold launch finished.
    func applicationDidFinishLaunching(_ app: AppID)
    /// The app became active.
    func applicationDidBecomeActive(_ app: AppID)
    /// The app is about to stop being active.
    func applicationWillResignActive(_ app: AppID)
    /// The app moved to the background.
    func applicationDidEnterBackground(_ app: AppID)
    /// The app is about to come back to the foreground.
    func applicationWillEnterForeground(_ app: AppID)
    /// The app is about to be terminated.
    func applicationWillTerminate(_ app: AppID)
    /// A memory warning of `level` (1 or 2).
    func applicationDidReceiveMemoryWarning(_ app: AppID, level: Int) -> MemoryWarningResponse
}

extension ApplicationDelegate {
    /// Does nothing.
    ///
    /// - Complexity: O(1)
    public func applicationDidFinishLaunching(_ app: AppID) {}
    /// Does nothing.
    ///
    /// - Complexity: O(1)
    public func applicationDidBecomeActive(_ app: AppID) {}
    /// Does nothing.
    ///
    /// - Complexity: O(1)
    public func applicationWillResignActive(_ app: AppID) {}
    /// Does nothing.
    ///
    /// - Complexity: O(1)
    public func applicationDidEnterBackground(_ app: AppID) {}
    /// Does nothing.
    ///
    /// - Complexity: O(1)
    public func applicationWillEnterForeground(_ app: AppID) {}
    /// Does nothing.
    ///
    /// - Complexity: O(1)
    public func applicationWillTerminate(_ app: AppID) {}
    /// Complies.
    ///
    /// - Complexity: O(1)
    public func applicationDidReceiveMemoryWarning(_ app: AppID, level: Int) -> MemoryWarningResponse { .comply }
}

/// App code attached to one view controller. Every method is optional.
public protocol ViewControllerDelegate: AnyObject {
    /// A memory warning reached the view controller; `.ignore` keeps its offscreen view loaded.
    func didReceiveMemoryWarning(_ view: String, of app: AppID, level: Int) -> MemoryWarningResponse
    /// The view was released.
    func viewDidUnload(_ view: String, of app: AppID)
    /// The view was loaded (again).
    func viewDidLoad(_ view: String, of app: AppID)
}

extension ViewControllerDelegate {
    /// Complies.
    ///
    /// - Complexity: O(1)
    public func didReceiveMemoryWarning(_ view: String, of app: AppID, level: Int) -> MemoryWarningResponse { .comply }
    /// Does nothing.
    ///
    /// - Complexity: O(1)
    public func viewDidUnload(_ view: String, of app: AppID) {}
    /// Does nothing.
    ///
    /// - Complexity: O(1)
    public func viewDidLoad(_ view: String, of app: AppID) {}
}

/// A registration made with ``PressureEngine/addMemoryWarningObserver(for:_:)``; pass it to
/// ``PressureEngine/removeObserver(_:)`` to end it.
public struct ObserverToken: Hashable, Sendable {
    let app: Int
    let serial: Int
}
