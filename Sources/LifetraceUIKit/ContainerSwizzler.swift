// Type-checked in CI against declaration-only UIKit/SwiftUI/ObjectiveC stubs (tools/check-uikit); never run there.
#if canImport(UIKit) && canImport(ObjectiveC)
import AdapterCore
import ObjectiveC
import Recorder
import TraceModel
import UIKit

/// Wraps the base implementations of UINavigationController, UITabBarController, UIPageViewController,
/// UISplitViewController, UIWindow and UIViewController presentation/containment methods; each wrapper calls
/// the matching `Adapter` entry point, which records and calls the original (built `nonisolated`, like
/// `Swizzler`'s).
enum ContainerSwizzler {
    typealias Push = @convention(c) (UINavigationController, Selector, UIViewController, Bool) -> Void
    typealias Pop = @convention(c) (UINavigationController, Selector, Bool) -> UIViewController?
    typealias PopTo = @convention(c) (UINavigationController, Selector, UIViewController, Bool) -> NSArray?
    typealias PopToRoot = @convention(c) (UINavigationController, Selector, Bool) -> NSArray?
    typealias SetControllers = @convention(c) (UINavigationController, Selector, NSArray, Bool) -> Void
    typealias SetTabs = @convention(c) (UITabBarController, Selector, NSArray?, Bool) -> Void
    typealias SetPages = @convention(c) (
        UIPageViewController, Selector, NSArray?, UIPageViewController.NavigationDirection, Bool,
        (@convention(block) (Bool) -> Void)?
    ) -> Void
    typealias SetSplitControllers = @convention(c) (UISplitViewController, Selector, NSArray) -> Void
    typealias SetSplitColumn = @convention(c) (UISplitViewController, Selector, UIViewController?, UISplitViewController.Column) -> Void
    typealias SetRoot = @convention(c) (UIWindow, Selector, UIViewController?) -> Void
    typealias Present = @convention(c) (UIViewController, Selector, UIViewController, Bool, (@convention(block) () -> Void)?) -> Void
    typealias Dismiss = @convention(c) (UIViewController, Selector, Bool, (@convention(block) () -> Void)?) -> Void
    typealias AddChild = @convention(c) (UIViewController, Selector, UIViewController) -> Void
    typealias Remove = @convention(c) (UIViewController, Selector) -> Void
    typealias SelectTab = @convention(c) (UITabBarController, Selector, UIViewController?) -> Void
    typealias SelectTabIndex = @convention(c) (UITabBarController, Selector, Int) -> Void

    /// The controllers of an `NSArray` UIKit passed (non-controllers, which UIKit would reject, are skipped).
    static func controllers(_ array: NSArray?) -> [UIViewController] {
        array?.compactMap { $0 as? UIViewController } ?? []
    }

    static func instrument() {
        instrumentNavigation()
        instrumentOtherContainers()
        instrumentPresentation()
    }

    private static func instrumentNavigation() {
        Swizzler.replace(UINavigationController.self, #selector(UINavigationController.pushViewController(_:animated:))) {
            (original: Push, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, UIViewController, Bool) -> Void = { nav, pushed, animated in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(nav, selector, pushed, animated) }
                adapter.push(nav, pushed, animated: animated) { original(nav, selector, pushed, animated) }
            }
            return block
        }
        Swizzler.replace(UINavigationController.self, #selector(UINavigationController.popViewController(animated:))) {
            (original: Pop, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, Bool) -> UIViewController? = { nav, animated in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(nav, selector, animated) }
                return adapter.pop(nav, animated: animated) { original(nav, selector, animated) }
            }
            return block
        }
        Swizzler.replace(UINavigationController.self, #selector(UINavigationController.popToViewController(_:animated:))) {
            (original: PopTo, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, UIViewController, Bool) -> NSArray? = { nav, target, animated in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(nav, selector, target, animated) }
                return adapter.popTo(nav, target, animated: animated) { original(nav, selector, target, animated) }
            }
            return block
        }
        Swizzler.replace(UINavigationController.self, #selector(UINavigationController.popToRootViewController(animated:))) {
            (original: PopToRoot, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, Bool) -> NSArray? = { nav, animated in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(nav, selector, animated) }
                return adapter.popToRoot(nav, animated: animated) { original(nav, selector, animated) }
            }
            return block
        }
        Swizzler.replace(UINavigationController.self, #selector(UINavigationController.setViewControllers(_:animated:))) {
            (original: SetControllers, selector: Selector) -> Any in
            let block: @convention(block) (UINavigationController, NSArray, Bool) -> Void = { nav, list, animated in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(nav, selector, list, animated) }
                adapter.setViewControllers(nav, controllers(list), animated: animated) { original(nav, selector, list, animated) }
            }
            return block
        }
    }

    private static func instrumentOtherContainers() {
        Swizzler.replace(UIWindow.self, #selector(setter: UIWindow.rootViewController)) { (original: SetRoot, selector: Selector) -> Any in
            let block: @convention(block) (UIWindow, UIViewController?) -> Void = { window, root in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(window, selector, root) }
                adapter.setRoot(root) { original(window, selector, root) }
            }
            return block
        }
        Swizzler.replace(UITabBarController.self, #selector(UITabBarController.setViewControllers(_:animated:))) {
            (original: SetTabs, selector: Selector) -> Any in
            let block: @convention(block) (UITabBarController, NSArray?, Bool) -> Void = { tabs, list, animated in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(tabs, selector, list, animated) }
                adapter.setViewControllers(tabs, controllers(list), animated: animated) { original(tabs, selector, list, animated) }
            }
            return block
        }
        Swizzler.replace(UITabBarController.self, #selector(setter: UITabBarController.selectedViewController)) {
            (original: SelectTab, selector: Selector) -> Any in
            let block: @convention(block) (UITabBarController, UIViewController?) -> Void = { tabs, selected in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(tabs, selector, selected) }
                adapter.selectTab(tabs, selected) { original(tabs, selector, selected) }
            }
            return block
        }
        Swizzler.replace(UITabBarController.self, #selector(setter: UITabBarController.selectedIndex)) {
            (original: SelectTabIndex, selector: Selector) -> Any in
            let block: @convention(block) (UITabBarController, Int) -> Void = { tabs, index in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(tabs, selector, index) }
                adapter.selectTab(tabs, index: index) { original(tabs, selector, index) }
            }
            return block
        }
        Swizzler.replace(
            UIPageViewController.self, #selector(UIPageViewController.setViewControllers(_:direction:animated:completion:))
        ) { (original: SetPages, selector: Selector) -> Any in
            let block: @convention(block) (
                UIPageViewController, NSArray?, UIPageViewController.NavigationDirection, Bool, (@convention(block) (Bool) -> Void)?
            ) -> Void = { pages, list, direction, animated, completion in
                guard let adapter = LifetraceInstrumentation.shared.load() else {
                    return original(pages, selector, list, direction, animated, completion)
                }
                adapter.setViewControllers(pages, controllers(list), animated: animated) {
                    original(pages, selector, list, direction, animated, completion)
                }
            }
            return block
        }
        Swizzler.replace(UISplitViewController.self, #selector(setter: UISplitViewController.viewControllers)) {
            (original: SetSplitControllers, selector: Selector) -> Any in
            let block: @convention(block) (UISplitViewController, NSArray) -> Void = { split, list in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(split, selector, list) }
                adapter.setViewControllers(split, controllers(list), animated: false) { original(split, selector, list) }
            }
            return block
        }
        Swizzler.replace(UISplitViewController.self, #selector(UISplitViewController.setViewController(_:for:))) {
            (original: SetSplitColumn, selector: Selector) -> Any in
            let block: @convention(block) (UISplitViewController, UIViewController?, UISplitViewController.Column) -> Void = {
                split, controller, column in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(split, selector, controller, column) }
                adapter.splitColumnsChanged(split) { original(split, selector, controller, column) }
            }
            return block
        }
    }

    private static func instrumentPresentation() {
        Swizzler.replace(UIViewController.self, #selector(UIViewController.present(_:animated:completion:))) {
            (original: Present, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController, UIViewController, Bool, (@convention(block) () -> Void)?) -> Void = {
                presenter, presented, animated, completion in
                guard let adapter = LifetraceInstrumentation.shared.load() else {
                    return original(presenter, selector, presented, animated, completion)
                }
                if Thread.isMainThread {
                    MainActor.assumeIsolated { PresentationDelegateSwizzler.instrumentDelegate(of: presented) }
                }
                adapter.present(presenter, presented, animated: animated) { original(presenter, selector, presented, animated, completion) }
            }
            return block
        }
        Swizzler.replace(UIViewController.self, #selector(UIViewController.dismiss(animated:completion:))) {
            (original: Dismiss, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController, Bool, (@convention(block) () -> Void)?) -> Void = {
                controller, animated, completion in
                guard let adapter = LifetraceInstrumentation.shared.load() else {
                    return original(controller, selector, animated, completion)
                }
                adapter.dismiss(controller, animated: animated) { original(controller, selector, animated, completion) }
            }
            return block
        }
        Swizzler.replace(UIViewController.self, #selector(UIViewController.addChild(_:))) { (original: AddChild, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController, UIViewController) -> Void = { parent, child in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(parent, selector, child) }
                adapter.addChild(parent, child) { original(parent, selector, child) }
            }
            return block
        }
        Swizzler.replace(UIViewController.self, #selector(UIViewController.removeFromParent)) { (original: Remove, selector: Selector) -> Any in
            let block: @convention(block) (UIViewController) -> Void = { child in
                guard let adapter = LifetraceInstrumentation.shared.load() else { return original(child, selector) }
                adapter.removeFromParent(child) { original(child, selector) }
            }
            return block
        }
    }
}
#endif
