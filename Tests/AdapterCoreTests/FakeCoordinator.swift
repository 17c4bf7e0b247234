import AdapterCore

/// A stand-in for a `UIViewControllerTransitionCoordinator`: flags the test sets, and the handlers the adapter
/// registered, which the test runs when UIKit would.
final class FakeCoordinator {
    var from: FakeController
    var to: FakeController
    var isInteractive: Bool
    var isInterruptible: Bool
    var isCancelled = false
    var interactionHandlers: [@Sendable (TransitionContext<FakeController>) -> Void] = []
    var completionHandlers: [@Sendable (TransitionContext<FakeController>) -> Void] = []

    init(from: FakeController, to: FakeController, isInteractive: Bool, isInterruptible: Bool = false) {
        self.from = from
        self.to = to
        self.isInteractive = isInteractive
        self.isInterruptible = isInterruptible
    }

    var context: TransitionContext<FakeController> {
        TransitionContext(
            coordinator: ObjectIdentifier(self), from: from, to: to, isInteractive: isInteractive,
            isInterruptible: isInterruptible, isCancelled: isCancelled)
    }

    /// The finger lifts: interactive → non-interactive, reversed or not (Apple: the
    /// `notifyWhenInteractionChanges(_:)` handlers run).
    func fingerLifts(cancelled: Bool) {
        isInteractive = false
        isCancelled = cancelled
        for handler in interactionHandlers { handler(context) }
    }

    /// The transition ends (the completion of `animate(alongsideTransition:completion:)`).
    func complete() {
        let handlers = completionHandlers
        completionHandlers = []
        for handler in handlers { handler(context) }
    }
}
