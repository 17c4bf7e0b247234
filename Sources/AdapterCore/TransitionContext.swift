/// A snapshot of a `UIViewControllerTransitionCoordinator` (or of the context its handlers receive).
///
/// Source: Apple, `UIViewControllerTransitionCoordinatorContext`: `isInteractive`, `isInterruptible`,
/// `isCancelled`, `viewController(forKey:)` with `.from` and `.to`.
public struct TransitionContext<Controller: AnyObject> {
    /// The coordinator's identity: the same for every snapshot of one transition.
    public var coordinator: ObjectIdentifier
    /// `viewController(forKey: .from)`: the controller leaving (a pop's top, a push's old top, a dismissed sheet).
    public var from: Controller?
    /// `viewController(forKey: .to)`: the controller arriving.
    public var to: Controller?
    /// `isInteractive`: a finger drives the transition now.
    public var isInteractive: Bool
    /// `isInterruptible`: the animator can be grabbed again after the finger lifted (iOS 18 zoom transitions
    /// are; the system swipe-back is not).
    public var isInterruptible: Bool
    /// `isCancelled`: the transition is being (or was) reversed.
    public var isCancelled: Bool

    public init(
        coordinator: ObjectIdentifier, from: Controller?, to: Controller?, isInteractive: Bool,
        isInterruptible: Bool, isCancelled: Bool
    ) {
        self.coordinator = coordinator
        self.from = from
        self.to = to
        self.isInteractive = isInteractive
        self.isInterruptible = isInterruptible
        self.isCancelled = isCancelled
    }
}

extension TransitionContext: Sendable where Controller: Sendable {}
