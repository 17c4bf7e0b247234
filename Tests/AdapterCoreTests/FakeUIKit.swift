import AdapterCore
import TraceModel

/// `UIKitSurface` over `FakeController`s, answering as UIKit's documentation says: `presentingViewController`
/// and `presentedViewController` of a child are those of its nearest presented/presenting ancestor, and a
/// child's `transitionCoordinator` is its container's.
/// `@unchecked Sendable`: the tests set `isMainThread` before the calls that read it, never while other threads read it.
final class FakeUIKit: UIKitSurface, @unchecked Sendable {
    typealias Controller = FakeController

    var isMainThread = true
    private(set) var registered: [String] = []

    func typeName(of controller: FakeController) -> String { controller.typeName }
    func parent(of controller: FakeController) -> FakeController? { controller.parent }

    func presentingController(of controller: FakeController) -> FakeController? {
        var current: FakeController? = controller
        while let c = current {
            if let presenting = c.presenting { return presenting }
            current = c.parent
        }
        return nil
    }

    func presentedController(of controller: FakeController) -> FakeController? {
        var current: FakeController? = controller
        while let c = current {
            if let presented = c.presented { return presented }
            current = c.parent
        }
        return nil
    }

    func navigationStack(of controller: FakeController) -> [FakeController]? { controller.stack }
    func tabs(of controller: FakeController) -> [FakeController]? { controller.tabs }
    func pages(of controller: FakeController) -> [FakeController]? { controller.pages }
    func splitColumns(of controller: FakeController) -> [FakeController]? { controller.columns }
    func modalStyle(of controller: FakeController) -> ModalPresentationStyle { controller.style }

    func isBeingDismissed(_ controller: FakeController) -> Bool {
        var current: FakeController? = controller
        while let c = current {
            if c.isBeingDismissed { return true }
            current = c.parent
        }
        return false
    }

    func popGestureState(of navigationController: FakeController) -> GestureState { navigationController.popGesture }

    func transition(of controller: FakeController) -> TransitionContext<FakeController>? {
        var current: FakeController? = controller
        while let c = current {
            if let coordinator = c.coordinator { return coordinator.context }
            current = c.parent
        }
        return nil
    }

    private func coordinator(_ context: TransitionContext<FakeController>) -> FakeCoordinator? {
        for c in [context.from, context.to].compactMap({ $0 }) {
            var current: FakeController? = c
            while let node = current {
                if let coordinator = node.coordinator, ObjectIdentifier(coordinator) == context.coordinator { return coordinator }
                current = node.parent
            }
        }
        return nil
    }

    func notifyWhenInteractionChanges(
        _ transition: TransitionContext<FakeController>, _ handler: @escaping @Sendable (TransitionContext<FakeController>) -> Void
    ) {
        coordinator(transition)?.interactionHandlers.append(handler)
    }

    func whenTransitionCompletes(
        _ transition: TransitionContext<FakeController>, _ handler: @escaping @Sendable (TransitionContext<FakeController>) -> Void
    ) {
        coordinator(transition)?.completionHandlers.append(handler)
    }

    func didRegister(_ controller: FakeController, as ref: ControllerRef) {
        registered.append(controller.typeName)
    }
}
