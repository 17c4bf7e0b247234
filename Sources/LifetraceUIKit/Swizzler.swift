// Type-checked in CI against declaration-only UIKit/SwiftUI/ObjectiveC stubs (tools/check-uikit); never run there.
#if canImport(UIKit) && canImport(ObjectiveC)
import AdapterCore
import ObjectiveC
import Recorder
import TraceModel
import UIKit

/// Replaces method implementations with wrappers that call `Adapter`, which always calls the implementation
/// they replace.
///
/// Each replacement captures the original `IMP` of the very class it replaces, so an override that calls
/// `super` still reaches the superclass's (possibly also wrapped) implementation, and a class that does not
/// override a method is never given one (only methods in the class's own method list are replaced). The
/// wrappers are built outside the main actor (`nonisolated`): UIKit may call them on any thread, and each one
/// leaves the thread question to `Adapter`, which only calls the original off the main thread.
@MainActor
enum Swizzler {
    private static var instrumentedClasses: Set<ObjectIdentifier> = []

    typealias Plain = @convention(c) (UIViewController, Selector) -> Void
    typealias WithBool = @convention(c) (UIViewController, Selector, Bool) -> Void
    typealias WithParent = @convention(c) (UIViewController, Selector, UIViewController?) -> Void
    typealias WithSize = @convention(c) (UIViewController, Selector, CGSize, UIViewControllerTransitionCoordinator) -> Void
    /// `dealloc`: the object is passed as a raw pointer, never retained (it is being deallocated).
    typealias Dealloc = @convention(c) (UnsafeRawPointer, Selector) -> Void

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
        instrumentedClasses.insert(ObjectIdentifier(UIViewController.self))
        instrumentLifecycle(of: UIViewController.self, plainCallbacks, animatedCallbacks, parentCallbacks)
        ContainerSwizzler.instrument()
    }

    /// Swizzles the lifecycle overrides and `dealloc` of the controller's declared class and of its superclasses
    /// up to UIViewController, once per class, for the classes `Adapter.classFilter` instruments.
    static func instrumentSubclass(of controller: UIViewController) {
        guard let adapter = LifetraceInstrumentation.shared.load() else { return }
        var current: AnyClass? = UIKitLive.declaredClass(of: controller)
        while let cls = current, cls != UIViewController.self {
            if instrumentedClasses.insert(ObjectIdentifier(cls)).inserted,
                adapter.classFilter.instruments(className: String(describing: cls))
            {
                instrumentLifecycle(of: cls, plainCallbacks, animatedCallbacks, parentCallbacks)
                instrumentDealloc(of: cls)
            }
            current = class_getSuperclass(cls)
        }
    }

    /// The selector tables are passed in: this function (and so every wrapper it builds) is not main-actor isolated.
    private nonisolated static func instrumentLifecycle(
        of cls: AnyClass, _ plainCallbacks: [(Selector, Callback)], _ animatedCallbacks: [(Selector, Callback)],
        _ parentCallbacks: [(Selector, Callback)]
    ) {
        for (selector, callback) in plainCallbacks {
            replace(cls, selector) { (original: Plain, selector: Selector) -> Any in
                let block: @convention(block) (UIViewController) -> Void = { controller in
                    guard let adapter = LifetraceInstrumentation.shared.load() else { return original(controller, selector) }
                    adapter.callback(controller, callback) { original(controller, selector) }
                }
                return block
            }
        }
        for (selector, callback) in animatedCallbacks {
            replace(cls, selector) { (original: WithBool, selector: Selector) -> Any in
                let block: @convention(block) (UIViewController, Bool) -> Void = { controller, animated in
                    guard let adapter = LifetraceInstrumentation.shared.load() else {
                        return original(controller, selector, animated)
                    }
                    adapter.callback(controller, callback, animated: animated) { original(controller, selector, animated) }
                }
                return block
            }
        }
        for (selector, callback) in parentCallbacks {
            replace(cls, selector) { (original: WithParent, selector: Selector) -> Any in
                let block: @convention(block) (UIViewController, UIViewController?) -> Void = { controller, parent in
                    guard let adapter = LifetraceInstrumentation.shared.load() else {
                        return original(controller, selector, parent)
                    }
                    adapter.move(controller, callback, toParent: parent) { original(controller, selector, parent) }
                }
                return block
            }
        }
        replace(cls, #selector(UIViewController.viewWillTransition(to:with:))) { (original: WithSize, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController, CGSize, UIViewControllerTransitionCoordinator) -> Void = {
                controller, size, coordinator in
                guard let adapter = LifetraceInstrumentation.shared.load() else {
                    return original(controller, selector, size, coordinator)
                }
                let points = Size(width: Double(size.width), height: Double(size.height))
                adapter.callback(controller, .viewWillTransition, size: points) {
                    original(controller, selector, size, coordinator)
                }
            }
            return block
        }
    }

    /// A Swift class's `deinit` body runs from its Objective-C `dealloc`, before `super`'s: wrapping the class's
    /// own `dealloc` puts the recorded `deinit` interval around that body (`Adapter.deallocate(_:original:)`).
    /// The object reaches the wrapper as a raw pointer, never as a reference (retaining an object under
    /// deallocation is not allowed); its identity is the pointer's bits, as `ObjectIdentifier` keeps them.
    private nonisolated static func instrumentDealloc(of cls: AnyClass) {
        replace(cls, NSSelectorFromString("dealloc")) { (original: Dealloc, selector: Selector) -> Any in
            let block: @convention(block) (UnsafeRawPointer) -> Void = { object in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(object, selector) }
                adapter.deallocate(unsafeBitCast(object, to: ObjectIdentifier.self)) { original(object, selector) }
            }
            return block
        }
    }

    /// Replaces `cls`'s own implementation of `selector` (if it has one) with the block `make` builds around
    /// the original implementation.
    nonisolated static func replace<Function>(_ cls: AnyClass, _ selector: Selector, _ make: (Function, Selector) -> Any) {
        guard let method = ownMethod(of: cls, selector) else { return }
        let original = unsafeBitCast(method_getImplementation(method), to: Function.self)
        method_setImplementation(method, imp_implementationWithBlock(make(original, selector)))
    }

    private nonisolated static func ownMethod(of cls: AnyClass, _ selector: Selector) -> Method? {
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
#endif
