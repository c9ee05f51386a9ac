// Where app code plugs in: application delegates, memory-warning observers, view-controller delegates.

extension PressureEngine {
    /// Attaches `delegate` to `app` (replacing any previous one); the engine holds it strongly.
    ///
    /// - Throws: ``EngineError/unknownApp(_:)`` if the app was never launched or added.
    /// - Complexity: O(1)
    public func setDelegate(_ delegate: (any ApplicationDelegate)?, for app: AppID) throws(EngineError) {
        delegates[Int32(try index(of: app))] = delegate
    }

    /// Registers `handler` to observe `app`'s memory-warning notification; it receives the level
    /// (1 or 2) and may answer `.releaseMore` to release more of the app's memory.
    ///
    /// - Throws: ``EngineError/unknownApp(_:)`` if the app was never launched or added.
    /// - Complexity: O(1)
    @discardableResult
    public func addMemoryWarningObserver(
        for app: AppID,
        _ handler: @escaping (_ level: Int) -> MemoryWarningResponse
    ) throws(EngineError) -> ObserverToken {
        let index = try index(of: app)
        observerSerial += 1
        observers[Int32(index), default: []].append((observerSerial, handler))
        return ObserverToken(app: index, serial: observerSerial)
    }

    /// Ends the observation `token` stands for.
    ///
    /// - Complexity: O(observers of that app)
    public func removeObserver(_ token: ObserverToken) {
        observers[Int32(token.app)]?.removeAll { $0.serial == token.serial }
    }

    /// Attaches `delegate` to the view controller `view` of `app`; it can keep its offscreen view
    /// on a warning (`.ignore`) and hears `viewDidUnload` and `viewDidLoad`.
    ///
    /// - Throws: ``EngineError/unknownApp(_:)`` if the app was never launched or added.
    /// - Complexity: O(1)
    public func setViewControllerDelegate(
        _ delegate: (any ViewControllerDelegate)?, for view: String, of app: AppID
    ) throws(EngineError) {
        viewDelegates[ViewKey(app: Int32(try index(of: app)), view: view)] = delegate
    }
}
