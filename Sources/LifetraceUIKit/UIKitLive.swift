// Type-checked in CI against declaration-only UIKit/SwiftUI/ObjectiveC stubs (tools/check-uikit); never run there.
#if canImport(UIKit) && canImport(ObjectiveC)
import AdapterCore
import ObjectiveC
import Recorder
import TraceModel
import UIKit

/// `UIKitSurface` over the real UIKit: what `Adapter` reads from a `UIViewController`.
///
/// Every member but `isMainThread` is called by `Adapter` only after `isMainThread` returned `true`, so each
/// reads UIKit's main-actor state through `MainActor.assumeIsolated`, which would trap (never race) if that
/// ever did not hold.
struct UIKitLive: UIKitSurface, Sendable {
    typealias Controller = UIViewController

    var isMainThread: Bool { Thread.isMainThread }

    func typeName(of controller: UIViewController) -> String {
        String(describing: Self.declaredClass(of: controller))
    }

    /// The controller's class as the app declares it. Key-value observing an object replaces its class pointer
    /// with a subclass made at run time, `NSKVONotifying_` + the class's name (Apple, "Key-Value Observing
    /// Implementation Details": "the value of the isa pointer does not necessarily reflect the actual class of the
    /// instance"); `type(of:)` reads that pointer. Those subclasses are skipped (their superclass is the observed
    /// class), for the type name and for the class to instrument.
    static func declaredClass(of controller: UIViewController) -> AnyClass {
        var cls: AnyClass = type(of: controller)
        while String(describing: cls).hasPrefix("NSKVONotifying_"), let superclass = class_getSuperclass(cls) {
            cls = superclass
        }
        return cls
    }

    func parent(of controller: UIViewController) -> UIViewController? {
        MainActor.assumeIsolated { controller.parent }
    }

    func presentingController(of controller: UIViewController) -> UIViewController? {
        MainActor.assumeIsolated { controller.presentingViewController }
    }

    func presentedController(of controller: UIViewController) -> UIViewController? {
        MainActor.assumeIsolated { controller.presentedViewController }
    }

    func navigationStack(of controller: UIViewController) -> [UIViewController]? {
        MainActor.assumeIsolated { (controller as? UINavigationController)?.viewControllers }
    }

    func tabs(of controller: UIViewController) -> [UIViewController]? {
        MainActor.assumeIsolated { (controller as? UITabBarController)?.viewControllers }
    }

    func pages(of controller: UIViewController) -> [UIViewController]? {
        MainActor.assumeIsolated { (controller as? UIPageViewController)?.viewControllers }
    }

    func splitColumns(of controller: UIViewController) -> [UIViewController]? {
        MainActor.assumeIsolated { (controller as? UISplitViewController)?.viewControllers }
    }

    func modalStyle(of controller: UIViewController) -> ModalPresentationStyle {
        MainActor.assumeIsolated { ModalPresentationStyle(controller.modalPresentationStyle) ?? .custom }
    }

    func isBeingDismissed(_ controller: UIViewController) -> Bool {
        MainActor.assumeIsolated { controller.isBeingDismissed }
    }

    func popGestureState(of navigationController: UIViewController) -> GestureState {
        MainActor.assumeIsolated {
            switch (navigationController as? UINavigationController)?.interactivePopGestureRecognizer?.state {
            case .began?: .began
            case .changed?: .changed
            case .ended?, .cancelled?, .failed?: .ended
            default: .possible
            }
        }
    }

    func transition(of controller: UIViewController) -> TransitionContext<UIViewController>? {
        MainActor.assumeIsolated { () -> TransitionContext<UIViewController>? in
            guard let coordinator = controller.transitionCoordinator else { return nil }
            return Self.snapshot(coordinator, id: ObjectIdentifier(coordinator as AnyObject))
        }
    }

    func notifyWhenInteractionChanges(
        _ transition: TransitionContext<UIViewController>,
        _ handler: @escaping @Sendable (TransitionContext<UIViewController>) -> Void
    ) {
        MainActor.assumeIsolated {
            guard let coordinator = Self.coordinator(of: transition) else { return }
            let id = transition.coordinator
            coordinator.notifyWhenInteractionChanges { context in handler(Self.snapshot(context, id: id)) }
        }
    }

    func whenTransitionCompletes(
        _ transition: TransitionContext<UIViewController>,
        _ handler: @escaping @Sendable (TransitionContext<UIViewController>) -> Void
    ) {
        MainActor.assumeIsolated {
            guard let coordinator = Self.coordinator(of: transition) else { return }
            let id = transition.coordinator
            coordinator.animate(alongsideTransition: nil, completion: { context in handler(Self.snapshot(context, id: id)) })
        }
    }

    func didRegister(_ controller: UIViewController, as ref: ControllerRef) {
        MainActor.assumeIsolated {
            DeinitSentinel.attach(to: controller, ref: ref)
            Swizzler.instrumentSubclass(of: controller)
        }
    }

    /// The coordinator `transition` was taken from, found again through its controllers.
    @MainActor
    private static func coordinator(of transition: TransitionContext<UIViewController>) -> (any UIViewControllerTransitionCoordinator)? {
        for controller in [transition.from, transition.to] {
            if let coordinator = controller?.transitionCoordinator,
                ObjectIdentifier(coordinator as AnyObject) == transition.coordinator
            {
                return coordinator
            }
        }
        return nil
    }

    /// Apple, UIViewControllerTransitionCoordinatorContext: `isInteractive`, `isInterruptible`, `isCancelled`,
    /// `viewController(forKey:)`.
    @MainActor
    private static func snapshot(
        _ context: any UIViewControllerTransitionCoordinatorContext, id: ObjectIdentifier
    ) -> TransitionContext<UIViewController> {
        TransitionContext(
            coordinator: id, from: context.viewController(forKey: .from), to: context.viewController(forKey: .to),
            isInteractive: context.isInteractive, isInterruptible: context.isInterruptible,
            isCancelled: context.isCancelled)
    }
}

extension ModalPresentationStyle {
    /// The Lifetrace style for a UIKit style; `nil` for `.none` and styles Lifetrace does not distinguish.
    init?(_ style: UIModalPresentationStyle) {
        switch style {
        case .automatic: self = .automatic
        case .fullScreen: self = .fullScreen
        case .pageSheet: self = .pageSheet
        case .formSheet: self = .formSheet
        case .currentContext: self = .currentContext
        case .overFullScreen: self = .overFullScreen
        case .overCurrentContext: self = .overCurrentContext
        case .popover: self = .popover
        case .custom: self = .custom
        default: return nil
        }
    }
}
#endif
