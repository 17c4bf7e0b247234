import TraceModel

/// Appearance callbacks with automatic forwarding: a container gets each callback before the children
/// that appear with it (Apple: "Implementing a container view controller"; docs/LIFECYCLE.md).
extension Simulation {
    /// Loads the view if needed, then `viewWillAppear` on `index` and its visible children.
    func willAppear(_ index: Int, _ animated: Bool) {
        loadViewIfNeeded(index)
        callback(index, .viewWillAppear, animated: animated) { controllers[index].appearance = .appearing }
        for child in visibleChildren(index) { willAppear(child, animated) }
    }

    /// The view is in the window with valid geometry: `viewIsAppearing` (iOS 17, back-deployed to iOS 13;
    /// after viewWillAppear, before the layout pass and viewDidAppear), a layout pass, and — for a hosting
    /// controller — SwiftUI `onAppear` as its root view joins the render tree. Then the visible children.
    func settle(_ index: Int, _ animated: Bool) {
        callback(index, .viewIsAppearing, animated: animated) { controllers[index].bounds = windowSize }
        layoutPass(index)
        if case .hosting(let rootView) = controllers[index].kind, !controllers[index].isInRenderTree {
            controllers[index].isInRenderTree = true
            swiftUI(.onAppear, rootView, host: index)
        }
        for child in visibleChildren(index) { settle(child, animated) }
    }

    func didAppear(_ index: Int, _ animated: Bool) {
        callback(index, .viewDidAppear, animated: animated) { controllers[index].appearance = .appeared }
        for child in visibleChildren(index) { didAppear(child, animated) }
    }

    func willDisappear(_ index: Int, _ animated: Bool) {
        callback(index, .viewWillDisappear, animated: animated) { controllers[index].appearance = .disappearing }
        for child in visibleChildren(index) { willDisappear(child, animated) }
    }

    /// `viewDidDisappear`; a hosting controller's root view then leaves the render tree (SwiftUI `onDisappear`).
    func didDisappear(_ index: Int, _ animated: Bool) {
        callback(index, .viewDidDisappear, animated: animated) { controllers[index].appearance = .disappeared }
        if case .hosting(let rootView) = controllers[index].kind, controllers[index].isInRenderTree {
            controllers[index].isInRenderTree = false
            swiftUI(.onDisappear, rootView, host: index)
        }
        for child in visibleChildren(index) { didDisappear(child, animated) }
    }

    /// A full appearance with no animation (a root set, a child added to an on-screen parent).
    func appear(_ index: Int) {
        willAppear(index, false)
        settle(index, false)
        didAppear(index, false)
    }

    /// One layout pass of `index`'s view: `viewWillLayoutSubviews`, `viewDidLayoutSubviews`; views added
    /// without containment lay out with it (layout follows the view tree, not the controller tree).
    func layoutPass(_ index: Int) {
        callback(index, .viewWillLayoutSubviews) { controllers[index].bounds = windowSize }
        callback(index, .viewDidLayoutSubviews)
        for orphan in controllers[index].orphans where controllers[orphan].isAlive {
            layoutPass(orphan)
        }
    }

    /// A layout pass of `index` and its visible children.
    func layoutCascade(_ index: Int) {
        layoutPass(index)
        for child in visibleChildren(index) { layoutCascade(child) }
    }

    func swiftUI(_ action: SwiftUIEvent.Action, _ view: String, host: Int) {
        emit(.swiftUI(SwiftUIEvent(action, view: view, host: controllers[host].ref)))
        run(controllers[host].spec.hooks[.swiftUI(action)] ?? [], in: host)
    }
}
