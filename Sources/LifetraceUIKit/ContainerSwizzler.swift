// Type-checked in CI against declaration-only UIKit/SwiftUI/ObjectiveC stubs (tools/check-uikit); never run there.
#if canImport(UIKit) && canImport(ObjectiveC)
import ObjectiveC
import Recorder
import TraceModel
import UIKit

/// Records container operations by wrapping the base implementations of UINavigationController,
/// UITabBarController and UIViewController presentation/containment methods. Each wrapper records the
/// operation, then calls the original (for pops, the popped controllers are computed from the stack first).
@MainActor
enum ContainerSwizzler {
    typealias Push = @convention(c) (UINavigationController, Selector, UIViewController, Bool) -> Void
    typealias Pop = @convention(c) (UINavigationController, Selector, Bool) -> UIViewController?
    typealias PopTo = @convention(c) (UINavigationController, Selector, UIViewController, Bool) -> NSArray?
    typealias PopToRoot = @convention(c) (UINavigationController, Selector, Bool) -> NSArray?
    typealias SetControllers = @convention(c) (UINavigationController, Selector, NSArray, Bool) -> Void
    typealias Present = @convention(c) (UIViewController, Selector, UIViewController, Bool, (@convention(block) () -> Void)?) -> Void
    typealias Dismiss = @convention(c) (UIViewController, Selector, Bool, (@convention(block) () -> Void)?) -> Void
    typealias AddChild = @convention(c) (UIViewController, Selector, UIViewController) -> Void
    typealias Remove = @convention(c) (UIViewController, Selector) -> Void
    typealias SelectTab = @convention(c) (UITabBarController, Selector, UIViewController?) -> Void
    typealias SelectTabIndex = @convention(c) (UITabBarController, Selector, Int) -> Void

    /// How many `selectedIndex` setters are running (main thread only). Apple documents both setters as
    /// selecting a tab (`selectedIndex`: "Setting this property changes the selected view controller to the one
    /// at the designated index in the viewControllers array") but not whether one calls the other: the tab is
    /// recorded by the outermost setter only, so that it is recorded once whichever way UIKit routes it.
    private static var selectingByIndex = 0

    static func instrument() {
        Swizzler.replace(
            UINavigationController.self, #selector(UINavigationController.pushViewController(_:animated:))
        ) { (original: Push, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, UIViewController, Bool) -> Void = { nav, pushed, animated in
                if let state = LifetraceInstrumentation.shared.load() {
                    state.recorder.pushViewController(state.ref(for: pushed), onto: state.ref(for: nav), animated: animated)
                }
                original(nav, selector, pushed, animated)
            }
            return block
        }
        Swizzler.replace(
            UINavigationController.self, #selector(UINavigationController.popViewController(animated:))
        ) { (original: Pop, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, Bool) -> UIViewController? = { nav, animated in
                if let state = LifetraceInstrumentation.shared.load(), nav.viewControllers.count > 1,
                    let top = nav.viewControllers.last
                {
                    state.recorder.popViewControllers([state.ref(for: top)], from: state.ref(for: nav), animated: animated)
                }
                return original(nav, selector, animated)
            }
            return block
        }
        Swizzler.replace(
            UINavigationController.self, #selector(UINavigationController.popToViewController(_:animated:))
        ) { (original: PopTo, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, UIViewController, Bool) -> NSArray? = { nav, target, animated in
                if let state = LifetraceInstrumentation.shared.load(), let index = nav.viewControllers.firstIndex(of: target) {
                    let popped = nav.viewControllers[(index + 1)...].reversed().map { state.ref(for: $0) }
                    if !popped.isEmpty {
                        state.recorder.popViewControllers(popped, from: state.ref(for: nav), animated: animated)
                    }
                }
                return original(nav, selector, target, animated)
            }
            return block
        }
        Swizzler.replace(
            UINavigationController.self, #selector(UINavigationController.popToRootViewController(animated:))
        ) { (original: PopToRoot, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, Bool) -> NSArray? = { nav, animated in
                if let state = LifetraceInstrumentation.shared.load(), nav.viewControllers.count > 1 {
                    let popped = nav.viewControllers.dropFirst().reversed().map { state.ref(for: $0) }
                    state.recorder.popViewControllers(popped, from: state.ref(for: nav), animated: animated)
                }
                return original(nav, selector, animated)
            }
            return block
        }
        Swizzler.replace(
            UINavigationController.self, #selector(UINavigationController.setViewControllers(_:animated:))
        ) { (original: SetControllers, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, NSArray, Bool) -> Void = { nav, controllers, animated in
                if let state = LifetraceInstrumentation.shared.load() {
                    let refs = controllers.compactMap { ($0 as? UIViewController).map { state.ref(for: $0) } }
                    state.recorder.setViewControllers(refs, in: state.ref(for: nav), animated: animated)
                }
                original(nav, selector, controllers, animated)
            }
            return block
        }
        Swizzler.replace(
            UIViewController.self, #selector(UIViewController.present(_:animated:completion:))
        ) { (original: Present, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController, UIViewController, Bool, (@convention(block) () -> Void)?) -> Void = {
                presenter, presented, animated, completion in
                if let state = LifetraceInstrumentation.shared.load() {
                    state.recorder.present(
                        state.ref(for: presented), from: state.ref(for: presenter),
                        style: ModalPresentationStyle(presented.modalPresentationStyle) ?? .custom, animated: animated)
                }
                original(presenter, selector, presented, animated, completion)
            }
            return block
        }
        Swizzler.replace(
            UIViewController.self, #selector(UIViewController.dismiss(animated:completion:))
        ) { (original: Dismiss, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController, Bool, (@convention(block) () -> Void)?) -> Void = {
                controller, animated, completion in
                if let state = LifetraceInstrumentation.shared.load() {
                    // UIKit: called on the presenter, dismisses what it presented; called on a presented
                    // controller, forwards to its presenter (Apple: "dismiss(animated:completion:)").
                    if let presented = controller.presentedViewController {
                        state.recorder.dismiss(state.ref(for: presented), from: state.ref(for: controller), animated: animated)
                    } else if let presenter = controller.presentingViewController {
                        state.recorder.dismiss(state.ref(for: controller), from: state.ref(for: presenter), animated: animated)
                    }
                }
                original(controller, selector, animated, completion)
            }
            return block
        }
        Swizzler.replace(
            UIViewController.self, #selector(UIViewController.addChild(_:))
        ) { (original: AddChild, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController, UIViewController) -> Void = { parent, child in
                if let state = LifetraceInstrumentation.shared.load() {
                    state.recorder.addChild(state.ref(for: child), to: state.ref(for: parent))
                }
                original(parent, selector, child)
            }
            return block
        }
        Swizzler.replace(
            UIViewController.self, #selector(UIViewController.removeFromParent)
        ) { (original: Remove, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController) -> Void = { child in
                if let state = LifetraceInstrumentation.shared.load() {
                    state.recorder.removeFromParent(state.ref(for: child), parent: child.parent.map { state.ref(for: $0) })
                }
                original(child, selector)
            }
            return block
        }
        Swizzler.replace(
            UITabBarController.self, #selector(setter: UITabBarController.selectedViewController)
        ) { (original: SelectTab, selector: Selector) -> Any in
            let block: @convention(block) (UITabBarController, UIViewController?) -> Void = { tabs, selected in
                if selectingByIndex == 0, let state = LifetraceInstrumentation.shared.load(), let selected,
                    let index = tabs.viewControllers?.firstIndex(of: selected)
                {
                    state.recorder.selectTab(state.ref(for: selected), at: index, in: state.ref(for: tabs))
                }
                original(tabs, selector, selected)
            }
            return block
        }
        Swizzler.replace(
            UITabBarController.self, #selector(setter: UITabBarController.selectedIndex)
        ) { (original: SelectTabIndex, selector: Selector) -> Any in
            let block: @convention(block) (UITabBarController, Int) -> Void = { tabs, index in
                if selectingByIndex == 0, let state = LifetraceInstrumentation.shared.load(), let controllers = tabs.viewControllers,
                    controllers.indices.contains(index)
                {
                    state.recorder.selectTab(state.ref(for: controllers[index]), at: index, in: state.ref(for: tabs))
                }
                selectingByIndex += 1
                defer { selectingByIndex -= 1 }
                original(tabs, selector, index)
            }
            return block
        }
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
