import TraceModel

/// App and scene life cycle, memory warnings and rotation.
///
/// Going to the background gives controllers no viewWillDisappear/viewDidDisappear (docs/LIFECYCLE.md "app to
/// background"; Apple: "Managing your app's life cycle"). Code that observes a transition's notification is a
/// class hook on the transition (`didEnterBackground: save key=draft critical=true`); it runs inside the
/// transition's interval for every live instance, in creation order.
extension Simulation {
    /// didFinishLaunching; with a scene: `scene(_:willConnectTo:options:)`, `sceneWillEnterForeground`,
    /// `sceneDidBecomeActive`; without: `applicationDidBecomeActive`.
    func launch() throws {
        guard appState == .notLaunched else { throw illegal("the app is already launched") }
        app(.didFinishLaunching, scene: nil)
        if let sceneID {
            app(.willConnect, scene: sceneID)
            app(.willEnterForeground, scene: sceneID)
        }
        app(.didBecomeActive, scene: sceneID)
        appState = .active
    }

    func resignActive() throws {
        guard appState == .active else { throw illegal("resign-active: the app is not active (\(appState))") }
        app(.willResignActive, scene: sceneID)
        appState = .inactive
    }

    func becomeActive() throws {
        guard appState == .inactive else { throw illegal("become-active: the app is not inactive (\(appState))") }
        app(.didBecomeActive, scene: sceneID)
        appState = .active
    }

    /// willResignActive (when active), then didEnterBackground.
    func enterBackground() throws {
        switch appState {
        case .active:
            app(.willResignActive, scene: sceneID)
        case .inactive:
            break
        default:
            throw illegal("background: the app is not in the foreground (\(appState))")
        }
        app(.didEnterBackground, scene: sceneID)
        appState = .background
    }

    /// willEnterForeground, then didBecomeActive.
    func enterForeground() throws {
        guard appState == .background else { throw illegal("foreground: the app is not in the background (\(appState))") }
        app(.willEnterForeground, scene: sceneID)
        app(.didBecomeActive, scene: sceneID)
        appState = .active
    }

    /// `applicationWillTerminate`. No controller callbacks and no deinits follow: the process ends.
    func terminate() throws {
        guard appState != .notLaunched else { throw illegal("terminate: the app was never launched") }
        app(.willTerminate, scene: nil)
        appState = .terminated
        terminatedLine = line
    }

    /// `applicationDidReceiveMemoryWarning`, then `didReceiveMemoryWarning` on every live controller whose
    /// view is loaded, in creation order.
    func memoryWarning() {
        app(.didReceiveMemoryWarning, scene: nil)
        for index in controllers.indices where controllers[index].isAlive && controllers[index].isViewLoaded {
            callback(index, .didReceiveMemoryWarning)
        }
    }

    /// Rotation to `size`: `viewWillTransition(to:with:)` down the on-screen tree (each presentation level,
    /// container before children), the rotation animation, then a layout pass of every on-screen controller
    /// with the new bounds.
    func rotate(to size: Size) {
        windowSize = size
        let levels = presentationLevels()
        for level in levels { transitionCascade(level, size) }
        animate(true)
        for level in levels where isOnScreen(level) { layoutCascade(level) }
    }

    /// The window's root and each presented controller above it, bottom first.
    func presentationLevels() -> [Int] {
        guard let root = windowRoot else { return [] }
        var levels = [root]
        var visited: Set<Int> = [root]
        var frontier = [root]
        while let current = frontier.popLast() {
            var subtree = [current]
            while let node = subtree.popLast() {
                if let presented = controllers[node].presented, visited.insert(presented).inserted {
                    levels.append(presented)
                    frontier.append(presented)
                }
                subtree.append(contentsOf: controllers[node].children)
            }
        }
        return levels
    }

    private func transitionCascade(_ index: Int, _ size: Size) {
        callback(index, .viewWillTransition, size: size)
        for child in visibleChildren(index) { transitionCascade(child, size) }
    }

    /// Records an app/scene transition as an interval with the observing classes' code inside.
    func app(_ transition: AppTransition, scene: String?) {
        emit(.app(AppEvent(transition, .begin, scene: scene)))
        for index in controllers.indices where controllers[index].isAlive {
            if let actions = controllers[index].spec.hooks[.app(transition)] { run(actions, in: index) }
        }
        emit(.app(AppEvent(transition, .end, scene: scene)))
    }
}
