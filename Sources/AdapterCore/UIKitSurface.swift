import TraceModel

/// What the adapter reads from UIKit, and the two registrations it makes with a transition coordinator: the
/// whole of UIKit the adapter's decisions depend on.
///
/// `LifetraceUIKit` implements it over `UIViewController` (its `UIKitLive`); the Linux tests implement it over
/// fakes and drive `Adapter` in the call orders UIKit makes (docs/RECORDING.md, "Contract tests"). Every member
/// is read on the main thread only: `Adapter` checks `isMainThread` before it touches anything else.
public protocol UIKitSurface: Sendable {
    /// A view controller (`UIViewController`), compared by identity.
    associatedtype Controller: AnyObject

    /// `Thread.isMainThread`: UIKit calls these methods on the main thread; anything else is the app's bug, and
    /// the adapter then only calls the original implementation (see `Adapter`).
    var isMainThread: Bool { get }

    /// The controller's class name as the app declares it (the name recorded in its `ControllerRef`).
    func typeName(of controller: Controller) -> String

    /// `parent`.
    func parent(of controller: Controller) -> Controller?

    /// `presentingViewController`.
    func presentingController(of controller: Controller) -> Controller?

    /// `presentedViewController`.
    func presentedController(of controller: Controller) -> Controller?

    /// `viewControllers` of a `UINavigationController`, bottom first; `nil` for any other controller.
    func navigationStack(of controller: Controller) -> [Controller]?

    /// `viewControllers` of a `UITabBarController`, in tab order; `nil` for any other controller or no tabs.
    func tabs(of controller: Controller) -> [Controller]?

    /// `viewControllers` of a `UIPageViewController` (the pages on screen when no scroll is under way); `nil`
    /// for any other controller.
    func pages(of controller: Controller) -> [Controller]?

    /// `viewControllers` of a `UISplitViewController`; `nil` for any other controller.
    func splitColumns(of controller: Controller) -> [Controller]?

    /// `modalPresentationStyle`, in Lifetrace's terms.
    func modalStyle(of controller: Controller) -> ModalPresentationStyle

    /// `isBeingDismissed`.
    func isBeingDismissed(_ controller: Controller) -> Bool

    /// The state of `interactivePopGestureRecognizer` of a navigation controller (`.possible` when it has none).
    func popGestureState(of navigationController: Controller) -> GestureState

    /// The controller's `transitionCoordinator`, if a transition is under way.
    func transition(of controller: Controller) -> TransitionContext<Controller>?

    /// `notifyWhenInteractionChanges(_:)` of the coordinator `transition` came from: `handler` runs each time
    /// the transition goes from interactive to non-interactive (the finger lifts), with the context then.
    func notifyWhenInteractionChanges(
        _ transition: TransitionContext<Controller>, _ handler: @escaping @Sendable (TransitionContext<Controller>) -> Void)

    /// `animate(alongsideTransition: nil, completion:)` of that coordinator: `handler` runs once the transition
    /// has ended for good, with the final context.
    func whenTransitionCompletes(
        _ transition: TransitionContext<Controller>, _ handler: @escaping @Sendable (TransitionContext<Controller>) -> Void)

    /// Called once per controller, when the adapter first sees it and has registered it as `ref`: the Apple layer
    /// attaches the deinit sentinel and instruments the controller's class there (if `ClassFilter` allows).
    func didRegister(_ controller: Controller, as ref: ControllerRef)
}
