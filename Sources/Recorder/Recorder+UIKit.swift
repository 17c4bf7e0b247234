import TraceModel

// The instrumentation entry points: what to call when UIKit calls a controller, a container or the app
// delegate. Named after the UIKit methods they stand for, so the Apple adapters (`LifetraceUIKit`) and the
// simulator drive exactly the same code. Each scoped form records `begin`, runs `body` (the original UIKit
// implementation and the app's override) and records `end`, even if `body` throws.
extension Recorder {
    // MARK: Controller identity

    /// A controller was initialized: registers `object` (see `ControllerRegistry.register(_:)`) and records an
    /// `init` instant. Returns its reference; calling it again for a live object returns the same one.
    @discardableResult
    public func controllerDidInitialize(_ object: AnyObject) -> ControllerRef {
        let ref = registry.register(object)
        record(.initialize, .instant, ref)
        return ref
    }

    /// Records a `deinit` instant for `controller`. Call it from the deinit (for a UIKit controller: from the
    /// associated-object sentinel's deinit), with the key it was registered under so the registry forgets it.
    public func controllerDeinit(_ controller: ControllerRef, key: ObjectIdentifier? = nil) {
        if let key { registry.release(key) }
        record(.deinitialize, .instant, controller)
    }

    // MARK: View lifecycle (UIViewController)

    /// `loadView()`.
    public func loadView<R>(_ controller: ControllerRef, body: () throws -> R) rethrows -> R {
        try withCallback(.loadView, controller, body: body)
    }

    /// `viewDidLoad()`.
    public func viewDidLoad<R>(_ controller: ControllerRef, body: () throws -> R) rethrows -> R {
        try withCallback(.viewDidLoad, controller, body: body)
    }

    /// `viewWillAppear(_:)`.
    public func viewWillAppear<R>(_ controller: ControllerRef, animated: Bool, body: () throws -> R) rethrows -> R {
        try withCallback(.viewWillAppear, controller, animated: animated, body: body)
    }

    /// `viewIsAppearing(_:)` (iOS 17, back-deployed to iOS 13).
    public func viewIsAppearing<R>(_ controller: ControllerRef, animated: Bool, body: () throws -> R) rethrows -> R {
        try withCallback(.viewIsAppearing, controller, animated: animated, body: body)
    }

    /// `viewWillLayoutSubviews()`.
    public func viewWillLayoutSubviews<R>(_ controller: ControllerRef, body: () throws -> R) rethrows -> R {
        try withCallback(.viewWillLayoutSubviews, controller, body: body)
    }

    /// `viewDidLayoutSubviews()`.
    public func viewDidLayoutSubviews<R>(_ controller: ControllerRef, body: () throws -> R) rethrows -> R {
        try withCallback(.viewDidLayoutSubviews, controller, body: body)
    }

    /// `viewDidAppear(_:)`.
    public func viewDidAppear<R>(_ controller: ControllerRef, animated: Bool, body: () throws -> R) rethrows -> R {
        try withCallback(.viewDidAppear, controller, animated: animated, body: body)
    }

    /// `viewWillDisappear(_:)`. Not a safe place for a critical save: an interactive pop can be cancelled after
    /// it (docs/LIFECYCLE.md).
    public func viewWillDisappear<R>(_ controller: ControllerRef, animated: Bool, body: () throws -> R) rethrows -> R {
        try withCallback(.viewWillDisappear, controller, animated: animated, body: body)
    }

    /// `viewDidDisappear(_:)`.
    public func viewDidDisappear<R>(_ controller: ControllerRef, animated: Bool, body: () throws -> R) rethrows -> R {
        try withCallback(.viewDidDisappear, controller, animated: animated, body: body)
    }

    /// `didReceiveMemoryWarning()`.
    public func didReceiveMemoryWarning<R>(_ controller: ControllerRef, body: () throws -> R) rethrows -> R {
        try withCallback(.didReceiveMemoryWarning, controller, body: body)
    }

    /// `viewWillTransition(to:with:)`, `size` in points.
    public func viewWillTransition<R>(_ controller: ControllerRef, to size: Size, body: () throws -> R) rethrows -> R {
        try withCallback(.viewWillTransition, controller, size: size, body: body)
    }

    /// `willMove(toParent:)`; `parent == nil` means removal (UIKit passes `nil`).
    public func willMove<R>(_ controller: ControllerRef, toParent parent: ControllerRef?, body: () throws -> R) rethrows -> R {
        try withCallback(.willMoveToParent, controller, parent: parent.map { .controller($0) } ?? ParentArgument.none, body: body)
    }

    /// `didMove(toParent:)`; `parent == nil` means removal.
    public func didMove<R>(_ controller: ControllerRef, toParent parent: ControllerRef?, body: () throws -> R) rethrows -> R {
        try withCallback(.didMoveToParent, controller, parent: parent.map { .controller($0) } ?? ParentArgument.none, body: body)
    }

    // MARK: Containers

    /// The window's `rootViewController` was set to `root`.
    public func setRoot(_ root: ControllerRef) {
        container(.setRoot, container: nil, root)
    }

    /// `pushViewController(_:animated:)` on `navigationController`.
    public func pushViewController(_ pushed: ControllerRef, onto navigationController: ControllerRef, animated: Bool) {
        container(.push, container: navigationController, pushed, animated: animated)
    }

    /// `popViewController(animated:)` (one controller) or `popToViewController`/`popToRoot` (top first).
    public func popViewControllers(_ popped: [ControllerRef], from navigationController: ControllerRef, animated: Bool) {
        container(.pop, container: navigationController, controllers: popped, animated: animated)
    }

    /// `setViewControllers(_:animated:)` on a navigation, tab bar or page controller (bottom/first first).
    public func setViewControllers(_ controllers: [ControllerRef], in container: ControllerRef, animated: Bool) {
        self.container(.setViewControllers, container: container, controllers: controllers, animated: animated)
    }

    /// An interactive transition (swipe-back, page scroll) from `from` to `to` began in `container`.
    public func interactiveTransitionBegan(from: ControllerRef, to: ControllerRef, in container: ControllerRef?) {
        self.container(.interactiveTransitionBegin, container: container, from, to, animated: true)
    }

    /// The user cancelled the interactive transition (the finger lifted without completing it); reported by
    /// `UIViewControllerTransitionCoordinator.notifyWhenInteractionChanges` with `isCancelled == true`.
    /// `from` stays on screen; it will get viewWillAppear/viewDidAppear again, `to` gets viewWillDisappear/
    /// viewDidDisappear without ever having got viewDidAppear (docs/LIFECYCLE.md).
    public func interactiveTransitionCancelled(from: ControllerRef, to: ControllerRef, in container: ControllerRef?) {
        self.container(.interactiveTransitionCancel, container: container, from, to, animated: true)
    }

    /// The interactive transition completed (the finger lifted past the threshold).
    public func interactiveTransitionFinished(from: ControllerRef, to: ControllerRef, in container: ControllerRef?) {
        self.container(.interactiveTransitionFinish, container: container, from, to, animated: true)
    }

    /// `present(_:animated:completion:)` of `presented` by `presenter` with its `modalPresentationStyle`.
    public func present(_ presented: ControllerRef, from presenter: ControllerRef, style: ModalPresentationStyle, animated: Bool) {
        container(.present, container: presenter, presented, animated: animated, style: style)
    }

    /// `dismiss(animated:completion:)` of `presented`.
    public func dismiss(_ presented: ControllerRef, from presenter: ControllerRef?, animated: Bool) {
        container(.dismiss, container: presenter, presented, animated: animated)
    }

    /// A UIAdaptivePresentationControllerDelegate callback for a sheet swipe-down of `presented`:
    /// `presentationControllerShouldDismiss`, `…WillDismiss`, `…DidDismiss` or `…DidAttemptToDismiss`.
    public func presentationController(_ operation: ContainerOperation, presented: ControllerRef, presenter: ControllerRef?) {
        container(operation, container: presenter, presented)
    }

    /// `addChild(_:)` of `child` to `parent` (UIKit calls the child's willMove(toParent:) itself).
    public func addChild(_ child: ControllerRef, to parent: ControllerRef) {
        container(.addChild, container: parent, child)
    }

    /// `removeFromParent()` of `child` (UIKit calls its didMove(toParent: nil) itself).
    public func removeFromParent(_ child: ControllerRef, parent: ControllerRef?) {
        container(.removeFromParent, container: parent, child)
    }

    /// A tab bar controller selected `selected` at `index`.
    public func selectTab(_ selected: ControllerRef, at index: Int, in tabBarController: ControllerRef) {
        container(.selectTab, container: tabBarController, selected, index: index)
    }

    /// `controller`'s view was added as a subview of `parent`'s view (with or without `addChild`).
    public func attachView(of controller: ControllerRef, to parent: ControllerRef) {
        container(.attachView, container: parent, controller)
    }

    // MARK: App and scene delegate

    /// `application(_:didFinishLaunchingWithOptions:)`.
    public func applicationDidFinishLaunching() { app(.didFinishLaunching) }
    /// `applicationWillEnterForeground(_:)`.
    public func applicationWillEnterForeground() { app(.willEnterForeground) }
    /// `applicationDidBecomeActive(_:)`.
    public func applicationDidBecomeActive() { app(.didBecomeActive) }
    /// `applicationWillResignActive(_:)`: also asks the background thread to write.
    public func applicationWillResignActive() { app(.willResignActive) }
    /// `applicationDidEnterBackground(_:)`: also writes and fsyncs (see `app(_:_:scene:)`).
    public func applicationDidEnterBackground() { app(.didEnterBackground) }
    /// `applicationWillTerminate(_:)`: also writes and fsyncs.
    public func applicationWillTerminate() { app(.willTerminate) }

    /// `scene(_:willConnectTo:options:)` for the scene with persistent identifier `scene`.
    public func sceneWillConnect(_ scene: String) { app(.willConnect, scene: scene) }
    /// `sceneWillEnterForeground(_:)`.
    public func sceneWillEnterForeground(_ scene: String) { app(.willEnterForeground, scene: scene) }
    /// `sceneDidBecomeActive(_:)`.
    public func sceneDidBecomeActive(_ scene: String) { app(.didBecomeActive, scene: scene) }
    /// `sceneWillResignActive(_:)`: also asks the background thread to write.
    public func sceneWillResignActive(_ scene: String) { app(.willResignActive, scene: scene) }
    /// `sceneDidEnterBackground(_:)`: also writes and fsyncs.
    public func sceneDidEnterBackground(_ scene: String) { app(.didEnterBackground, scene: scene) }
    /// `sceneDidDisconnect(_:)`.
    public func sceneDidDisconnect(_ scene: String) { app(.didDisconnect, scene: scene) }

    // MARK: SwiftUI

    /// A SwiftUI view's `onAppear` action ran (`view`: its type name).
    public func onAppear(view: String, host: ControllerRef?) { swiftUI(.onAppear, view: view, host: host) }
    /// A SwiftUI view's `onDisappear` action ran.
    public func onDisappear(view: String, host: ControllerRef?) { swiftUI(.onDisappear, view: view, host: host) }
}
