import TraceModel

// Navigation, window root, tab bar, page and split view controller lists.
extension Adapter {
    /// `UINavigationController.pushViewController(_:animated:)`: records the push, then calls the original.
    public func push(_ navigationController: UI.Controller, _ pushed: UI.Controller, animated: Bool, original: () -> Void) {
        guard admit("pushViewController(_:animated:)") else { return original() }
        noteActivity()
        recorder.pushViewController(ref(for: pushed), onto: ref(for: navigationController), animated: animated)
        original()
    }

    /// `popViewController(animated:)`: records the pop of the top controller (when there is one to pop: UIKit
    /// never pops the root), then calls the original.
    ///
    /// UIKit calls this method as soon as the edge swipe of `interactivePopGestureRecognizer` is recognised, and
    /// the pop is only provisional until the popped controller's viewDidDisappear: the swipe can still be
    /// cancelled (MLeaksFinder marks a controller popped here and checks for a leak only after its
    /// viewDidDisappear, for that reason: Tencent/MLeaksFinder, UIViewController+MemoryLeak.m). So when that
    /// gesture is active (`.began`/`.changed`) the interactive transition's begin is recorded **before** the pop,
    /// and the replay then holds the pop until the transition finishes; the coordinator later seen in
    /// viewWillDisappear is taken to be this transition's, not a new one.
    public func pop<R>(_ navigationController: UI.Controller, animated: Bool, original: () -> R) -> R {
        guard admit("popViewController(animated:)") else { return original() }
        guard let stack = ui.navigationStack(of: navigationController), stack.count > 1 else { return original() }
        noteActivity()
        let nav = ref(for: navigationController)
        let top = stack[stack.count - 1]
        let topRef = ref(for: top)
        if ui.popGestureState(of: navigationController).isActive {
            recorder.interactiveTransitionBegan(from: topRef, to: ref(for: stack[stack.count - 2]), in: nav)
            pendingInteractivePops[ObjectIdentifier(navigationController)] = ObjectIdentifier(top)
        }
        recorder.popViewControllers([topRef], from: nav, animated: animated)
        let result = original()
        // The coordinator exists once the original has started the transition.
        observeTransition(of: navigationController)
        return result
    }

    /// The controllers `popToViewController(target, …)` pops from `stack`, top first: everything above `target`;
    /// none when `target` is not on the stack (UIKit then pops nothing).
    public static func popped(by target: UI.Controller, from stack: [UI.Controller]) -> [UI.Controller] {
        guard let index = stack.firstIndex(where: { $0 === target }) else { return [] }
        return Array(stack[(index + 1)...].reversed())
    }

    /// `popToViewController(_:animated:)`: records the pop of every controller above `target`, top first (the
    /// back button's long-press menu pops this way), then calls the original.
    public func popTo<R>(_ navigationController: UI.Controller, _ target: UI.Controller, animated: Bool, original: () -> R) -> R {
        guard admit("popToViewController(_:animated:)") else { return original() }
        if let stack = ui.navigationStack(of: navigationController) {
            let popped = Self.popped(by: target, from: stack)
            if !popped.isEmpty {
                noteActivity()
                recorder.popViewControllers(popped.map { ref(for: $0) }, from: ref(for: navigationController), animated: animated)
            }
        }
        return original()
    }

    /// `popToRootViewController(animated:)`: records the pop of everything above the root, top first.
    public func popToRoot<R>(_ navigationController: UI.Controller, animated: Bool, original: () -> R) -> R {
        guard admit("popToRootViewController(animated:)") else { return original() }
        if let stack = ui.navigationStack(of: navigationController), let root = stack.first {
            let popped = Self.popped(by: root, from: stack)
            if !popped.isEmpty {
                noteActivity()
                recorder.popViewControllers(popped.map { ref(for: $0) }, from: ref(for: navigationController), animated: animated)
            }
        }
        return original()
    }

    /// `setViewControllers(_:animated:)` of a navigation or tab bar controller, or
    /// `setViewControllers(_:direction:animated:completion:)` of a page controller, or the `viewControllers`
    /// setter of a split view controller: records the new list (bottom/first first), then calls the original.
    /// No page scroll is inferred from the appearance callbacks it causes.
    public func setViewControllers(
        _ container: UI.Controller, _ list: [UI.Controller], animated: Bool, original: () -> Void
    ) {
        guard admit("setViewControllers") else { return original() }
        noteActivity()
        recorder.setViewControllers(list.map { ref(for: $0) }, in: ref(for: container), animated: animated)
        let key = ObjectIdentifier(container)
        settingPages[key, default: 0] += 1
        defer {
            settingPages[key]! -= 1
            if settingPages[key] == 0 { settingPages[key] = nil }
        }
        original()
    }

    /// `UISplitViewController.setViewController(_:for:)` or `show(_:)` (iOS 14 column style): calls the
    /// original, then records the split view controller's `viewControllers` as UIKit then reports them (the
    /// recorder has no column-by-column entry point).
    public func splitColumnsChanged(_ split: UI.Controller, original: () -> Void) {
        guard admit("UISplitViewController column change") else { return original() }
        original()
        guard let columns = ui.splitColumns(of: split) else { return }
        noteActivity()
        recorder.setViewControllers(columns.map { ref(for: $0) }, in: ref(for: split), animated: false)
    }

    /// `UIWindow.rootViewController`'s setter: records `setRoot`, then calls the original.
    public func setRoot(_ root: UI.Controller?, original: () -> Void) {
        guard admit("UIWindow.rootViewController") else { return original() }
        if let root {
            noteActivity()
            recorder.setRoot(ref(for: root))
        }
        original()
    }

    /// The `selectedViewController` setter of a tab bar controller.
    ///
    /// Apple documents both selection setters (`selectedViewController`, `selectedIndex`) but not whether one
    /// calls the other, so each records only when no selection setter is already running on the main thread:
    /// one selection is recorded once whichever setter UIKit routes it through, both ways round.
    public func selectTab(_ tabBarController: UI.Controller, _ selected: UI.Controller?, original: () -> Void) {
        guard admit("selectedViewController") else { return original() }
        if selectingTab == 0, let selected, let index = ui.tabs(of: tabBarController)?.firstIndex(where: { $0 === selected }) {
            noteActivity()
            recorder.selectTab(ref(for: selected), at: index, in: ref(for: tabBarController))
        }
        selectingTab += 1
        defer { selectingTab -= 1 }
        original()
    }

    /// The `selectedIndex` setter of a tab bar controller (see `selectTab(_:_:original:)`).
    public func selectTab(_ tabBarController: UI.Controller, index: Int, original: () -> Void) {
        guard admit("selectedIndex") else { return original() }
        if selectingTab == 0, let tabs = ui.tabs(of: tabBarController), tabs.indices.contains(index) {
            noteActivity()
            recorder.selectTab(ref(for: tabs[index]), at: index, in: ref(for: tabBarController))
        }
        selectingTab += 1
        defer { selectingTab -= 1 }
        original()
    }

    /// `addChild(_:)`: records it, then calls the original (which calls the child's willMove(toParent:)).
    public func addChild(_ parent: UI.Controller, _ child: UI.Controller, original: () -> Void) {
        guard admit("addChild(_:)") else { return original() }
        noteActivity()
        recorder.addChild(ref(for: child), to: ref(for: parent))
        original()
    }

    /// `removeFromParent()`: records it with the parent UIKit reports, then calls the original.
    public func removeFromParent(_ child: UI.Controller, original: () -> Void) {
        guard admit("removeFromParent()") else { return original() }
        noteActivity()
        recorder.removeFromParent(ref(for: child), parent: ui.parent(of: child).map { ref(for: $0) })
        original()
    }
}
