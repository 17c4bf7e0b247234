// Type-checked in CI against declaration-only UIKit/SwiftUI/ObjectiveC stubs (tools/check-uikit); never run there.
#if canImport(UIKit) && canImport(ObjectiveC)
import ObjectiveC
import Recorder
import TraceModel
import UIKit

/// Replaces method implementations with recording wrappers that always call the implementation they replace.
///
/// Each replacement captures the original `IMP` of the very class it replaces, so an override that calls
/// `super` still reaches the superclass's (possibly also wrapped) implementation, and a class that does not
/// override a method is never given one (only methods in the class's own method list are replaced).
@MainActor
enum Swizzler {
    private static var instrumentedClasses: Set<ObjectIdentifier> = []

    typealias Plain = @convention(c) (UIViewController, Selector) -> Void
    typealias WithBool = @convention(c) (UIViewController, Selector, Bool) -> Void
    typealias WithParent = @convention(c) (UIViewController, Selector, UIViewController?) -> Void
    typealias WithSize = @convention(c) (UIViewController, Selector, CGSize, UIViewControllerTransitionCoordinator) -> Void

    // `#selector`, not selector strings, so the compiler checks each method exists with that Swift name and
    // derives its Objective-C selector (tools/check-uikit does it on Linux against tools/uikit-stubs).
    static let plainCallbacks: [(Selector, Callback)] = [
        (#selector(UIViewController.loadView), .loadView),
        (#selector(UIViewController.viewDidLoad), .viewDidLoad),
        (#selector(UIViewController.viewWillLayoutSubviews), .viewWillLayoutSubviews),
        (#selector(UIViewController.viewDidLayoutSubviews), .viewDidLayoutSubviews),
        (#selector(UIViewController.didReceiveMemoryWarning), .didReceiveMemoryWarning),
    ]
    static let animatedCallbacks: [(Selector, Callback)] = [
        (#selector(UIViewController.viewWillAppear(_:)), .viewWillAppear),
        (#selector(UIViewController.viewIsAppearing(_:)), .viewIsAppearing),
        (#selector(UIViewController.viewDidAppear(_:)), .viewDidAppear),
        (#selector(UIViewController.viewWillDisappear(_:)), .viewWillDisappear),
        (#selector(UIViewController.viewDidDisappear(_:)), .viewDidDisappear),
    ]
    static let parentCallbacks: [(Selector, Callback)] = [
        (#selector(UIViewController.willMove(toParent:)), .willMoveToParent),
        (#selector(UIViewController.didMove(toParent:)), .didMoveToParent),
    ]

    /// Swizzles UIViewController itself (lifecycle, presentation, containment) and the containers.
    static func instrumentBaseClasses() {
        instrumentLifecycle(of: UIViewController.self)
        ContainerSwizzler.instrument()
    }

    /// Swizzles the lifecycle overrides of `controllerClass` and of its superclasses up to UIViewController,
    /// once per class.
    static func instrumentSubclass(_ controllerClass: AnyClass) {
        var current: AnyClass? = controllerClass
        while let cls = current, cls != UIViewController.self {
            instrumentLifecycle(of: cls)
            current = class_getSuperclass(cls)
        }
    }

    private static func instrumentLifecycle(of cls: AnyClass) {
        guard instrumentedClasses.insert(ObjectIdentifier(cls)).inserted else { return }
        for (selector, callback) in plainCallbacks {
            replace(cls, selector) { (original: Plain, selector: Selector) -> Any in
                let block: @convention(block) (UIViewController) -> Void = { controller in
                    guard let state = LifetraceInstrumentation.shared.load() else { return original(controller, selector) }
                    state.wrap(controller, callback) { original(controller, selector) }
                }
                return block
            }
        }
        for (selector, callback) in animatedCallbacks {
            replace(cls, selector) { (original: WithBool, selector: Selector) -> Any in
                let block: @convention(block) (UIViewController, Bool) -> Void = { controller, animated in
                    guard let state = LifetraceInstrumentation.shared.load() else {
                        return original(controller, selector, animated)
                    }
                    if callback == .viewWillAppear || callback == .viewWillDisappear {
                        TransitionObserver.observe(controller, state: state)
                    }
                    state.wrap(controller, callback, animated: animated) { original(controller, selector, animated) }
                }
                return block
            }
        }
        for (selector, callback) in parentCallbacks {
            replace(cls, selector) { (original: WithParent, selector: Selector) -> Any in
                let block: @convention(block) (UIViewController, UIViewController?) -> Void = { controller, parent in
                    guard let state = LifetraceInstrumentation.shared.load() else {
                        return original(controller, selector, parent)
                    }
                    let argument: ParentArgument = parent.map { .controller(state.ref(for: $0)) } ?? .none
                    state.wrap(controller, callback, parent: argument) { original(controller, selector, parent) }
                }
                return block
            }
        }
        replace(cls, #selector(UIViewController.viewWillTransition(to:with:))) { (original: WithSize, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController, CGSize, UIViewControllerTransitionCoordinator) -> Void = {
                controller, size, coordinator in
                guard let state = LifetraceInstrumentation.shared.load() else {
                    return original(controller, selector, size, coordinator)
                }
                let points = Size(width: Double(size.width), height: Double(size.height))
                state.wrap(controller, .viewWillTransition, size: points) {
                    original(controller, selector, size, coordinator)
                }
            }
            return block
        }
    }

    /// Replaces `cls`'s own implementation of `selector` (if it has one) with the block `make` builds around
    /// the original implementation.
    static func replace<Function>(_ cls: AnyClass, _ selector: Selector, _ make: (Function, Selector) -> Any) {
        guard let method = ownMethod(of: cls, selector) else { return }
        let original = unsafeBitCast(method_getImplementation(method), to: Function.self)
        method_setImplementation(method, imp_implementationWithBlock(make(original, selector)))
    }

    private static func ownMethod(of cls: AnyClass, _ selector: Selector) -> Method? {
        var count: UInt32 = 0
        guard let list = withUnsafeMutablePointer(to: &count, { class_copyMethodList(cls, $0) }) else { return nil }
        defer {
            let array: UnsafeMutableRawPointer = UnsafeMutableRawPointer(list)
            free(array)  // class_copyMethodList's array is the caller's to free (Apple: "class_copyMethodList")
        }
        for index in 0..<Int(count) where method_getName(list[index]) == selector {
            return list[index]
        }
        return nil
    }
}

/// Records interactive transitions (swipe-back, interactive dismissal) and their outcome.
@MainActor
enum TransitionObserver {
    /// The association key marking a coordinator already observed (allocated once, never freed: a stable address).
    private static let observedKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

    /// If `controller` is taking part in an interactive transition not yet seen, records its begin and, once, its
    /// outcome (finished or cancelled).
    ///
    /// Apple, `notifyWhenInteractionChanges(_:)` (iOS 10+): the handler runs "any time the transition changes from
    /// interactive to noninteractive, including when the transition ends or is canceled", before UIKit's cancel
    /// callbacks; `isInteractive`: an interactive transition may have intermediate noninteractive segments;
    /// `wantsInteractiveStart`: only a transition with an interruptible animator (`isInterruptible`) becomes
    /// interactive again. So for a transition that is not interruptible the handler runs once and its
    /// `isCancelled` is the outcome, recorded there (before the callbacks it explains, as the simulator records
    /// it). An interruptible one can be grabbed again after the handler ran, and a second outcome would contradict
    /// the first: its outcome is recorded once, when the transition completes (the completion of
    /// `animate(alongsideTransition:completion:)`, whose context's `isCancelled` is final).
    static func observe(_ controller: UIViewController, state: InstrumentationState) {
        guard let coordinator = controller.transitionCoordinator, coordinator.isInteractive,
            let from = coordinator.viewController(forKey: .from), let to = coordinator.viewController(forKey: .to)
        else { return }
        let token = coordinator as AnyObject
        guard objc_getAssociatedObject(token, observedKey) == nil else { return }
        objc_setAssociatedObject(token, observedKey, NSNumber(value: true), .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        let fromRef = state.ref(for: from)
        let toRef = state.ref(for: to)
        let container = (from.navigationController ?? to.navigationController ?? from.parent).map { state.ref(for: $0) }
        let recorder = state.recorder
        recorder.interactiveTransitionBegan(from: fromRef, to: toRef, in: container)
        let outcome = { (context: any UIViewControllerTransitionCoordinatorContext) in
            if context.isCancelled {
                recorder.interactiveTransitionCancelled(from: fromRef, to: toRef, in: container)
            } else {
                recorder.interactiveTransitionFinished(from: fromRef, to: toRef, in: container)
            }
        }
        if coordinator.isInterruptible {
            coordinator.animate(alongsideTransition: nil, completion: outcome)
        } else {
            coordinator.notifyWhenInteractionChanges(outcome)
        }
    }
}
#endif
