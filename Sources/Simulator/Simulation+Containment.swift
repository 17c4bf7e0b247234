import TraceModel

/// The window's root, child containment (and the orphan mistake), tab bar selection and page scrolling.
extension Simulation {
    /// `window.rootViewController = X` with the window visible: X (and its visible children) load and appear
    /// without animation; a previous root disappears and is released.
    func setRoot(_ spec: ControllerSpec) throws {
        let root = try instantiate(spec)
        let old = windowRoot
        if let old { try requireSteady(old) }
        container(.setRoot, nil, [root])
        if let old, isOnScreen(old) { willDisappear(old, false) }
        windowRoot = root
        controllers[root].isWindowRoot = true
        willAppear(root, false)
        settle(root, false)
        if let old, controllers[old].appearance == .disappearing { didDisappear(old, false) }
        didAppear(root, false)
        if let old {
            controllers[old].isWindowRoot = false
            releaseIfUnowned(old)
        }
    }

    /// `addChild(C)` (which calls `C.willMove(toParent: P)`), `P.view.addSubview(C.view)` (C's view loads;
    /// if P is on screen C appears without animation), then `C.didMove(toParent: P)` (docs/LIFECYCLE.md "child
    /// containment").
    func addChild(_ spec: ControllerSpec, to parentName: String) throws {
        let parent = try lookup(parentName)
        try requirePlainParent(parent, verb: "add-child")
        try requireSteady(parent)
        let child = try instantiate(spec)
        try requireNesting(child, under: parent)
        container(.addChild, parent, [child])
        adopt(child, by: parent)
        container(.attachView, parent, [child])
        loadViewIfNeeded(child)
        if isOnScreen(parent) { appear(child) }
        callback(child, .didMoveToParent, parent: .controller(controllers[parent].ref))
    }

    /// `C.willMove(toParent: nil)`, `C.view.removeFromSuperview()` (C disappears without animation if on
    /// screen), `C.removeFromParent()` (which calls `C.didMove(toParent: nil)`), then C is released.
    func removeChild(_ name: String) throws {
        let child = try lookup(name)
        guard let parent = controllers[child].parent else {
            throw illegal("cannot remove-child \(describe(child)): it has no parent (added without addChild?)")
        }
        try requirePlainParent(parent, verb: "remove-child")
        try requireSteady(child)
        callback(child, .willMoveToParent, parent: ParentArgument.none)
        if isOnScreen(child) {
            willDisappear(child, false)
            didDisappear(child, false)
        }
        container(.removeFromParent, parent, [child])
        disown(child)
        releaseIfUnowned(child)
    }

    /// The mistake: `P.view.addSubview(C.view)` without `addChild`. C's view loads and lays out with P's view,
    /// but C is orphaned from the controller tree: no willMove/didMove, and no appearance callbacks forwarded
    /// from P (docs/LIFECYCLE.md "child containment"; seed lesson: the view draws but the controller receives no
    /// lifecycle events). P's stored property keeps C alive.
    func addView(_ spec: ControllerSpec, to parentName: String) throws {
        let parent = try lookup(parentName)
        var depth = 1
        var current = parent
        while let next = controllers[current].orphanSuperview ?? controllers[current].parent {
            depth += 1
            current = next
        }
        if depth >= Self.maximumTreeDepth {
            throw illegal("views would nest deeper than \(Self.maximumTreeDepth) controllers")
        }
        let child = try instantiate(spec)
        container(.attachView, parent, [child])
        controllers[child].orphanSuperview = parent
        controllers[parent].orphans.append(child)
        loadViewIfNeeded(child)
        if isOnScreen(parent) { layoutPass(child) }
    }

    private func requirePlainParent(_ parent: Int, verb: String) throws {
        switch controllers[parent].kind {
        case .plain, .hosting: return
        case .navigation: throw illegal("\(verb) on \(describe(parent)): use push, pop or set-stack for a navigation controller")
        case .tabBar: throw illegal("\(verb) on \(describe(parent)): a tab bar controller's children are its tabs")
        case .page: throw illegal("\(verb) on \(describe(parent)): use scroll for a page view controller")
        }
    }

    /// Tab selection (docs/LIFECYCLE.md "tab switch A→B", real log 06): B.loadView and B.viewDidLoad the first
    /// time, B.viewWillAppear, A.viewWillDisappear, B.viewIsAppearing, B layout, A.viewDidDisappear,
    /// B.viewDidAppear — new before old, no animation.
    func selectTab(_ tabsName: String, _ selector: TabSelector) throws {
        let tabs = try lookup(tabsName, kind: .tabBar, for: "select a tab of")
        try requireSteady(tabs)
        let children = controllers[tabs].children
        let index: Int
        switch selector {
        case .index(let position):
            guard children.indices.contains(position) else {
                throw illegal("\(describe(tabs)) has \(children.count) tabs; index \(position) is out of range (tabs count from 0)")
            }
            index = position
        case .name(let name):
            let child = try lookup(name)
            guard let position = children.firstIndex(of: child) else {
                throw illegal("\(describe(child)) is not a tab of \(describe(tabs))")
            }
            index = position
        }
        let old = children[controllers[tabs].selectedIndex]
        let new = children[index]
        container(.selectTab, tabs, [new], index: index)
        guard new != old else { return }
        controllers[tabs].selectedIndex = index
        if isOnScreen(tabs) {
            willAppear(new, false)
            willDisappear(old, false)
            settle(new, false)
            didDisappear(old, false)
            didAppear(new, false)
        }
    }

    /// The user starts dragging a UIPageViewController to page N (docs/LIFECYCLE.md "UIPageViewController
    /// scroll"): N is added as a child, loads, N.viewWillAppear, C.viewWillDisappear, N.viewIsAppearing,
    /// N layout.
    func beginScroll(_ pagesName: String, to spec: ControllerSpec) throws {
        let pages = try lookup(pagesName, kind: .page, for: "scroll")
        try requireSteady(pages)
        guard isOnScreen(pages) else { throw illegal("cannot scroll \(describe(pages)): it is not on screen") }
        let current = controllers[pages].children[0]
        let next = try instantiate(spec)
        try requireNesting(next, under: pages)
        container(.interactiveTransitionBegin, pages, [current, next], animated: true)
        container(.addChild, pages, [next])
        adopt(next, by: pages)
        callback(next, .didMoveToParent, parent: .controller(controllers[pages].ref))
        willAppear(next, true)
        willDisappear(current, true)
        settle(next, true)
        controllers[pages].interactive = InteractiveTransition(from: current, to: next, line: line)
    }

    /// The page settles on N: N.viewDidAppear, C.viewDidDisappear; C is removed from the page controller and
    /// released.
    func finishScroll(_ pagesName: String) throws {
        let pages = try lookup(pagesName, kind: .page, for: "finish scrolling")
        let transition = try interactiveTransition(of: pages, verb: "finish-scroll")
        container(.interactiveTransitionFinish, pages, [transition.from, transition.to], animated: true)
        advance(by: options.completionDuration)
        didAppear(transition.to, true)
        didDisappear(transition.from, true)
        controllers[pages].interactive = nil
        removePage(transition.from, from: pages)
        controllers[pages].children = [transition.to]
    }

    /// The drag is cancelled (docs/LIFECYCLE.md, real log 07): C.viewWillAppear, C.viewIsAppearing, C layout,
    /// C.viewDidAppear, N.viewWillDisappear, N.viewDidDisappear (N never got viewDidAppear); N is removed and
    /// released.
    func cancelScroll(_ pagesName: String) throws {
        let pages = try lookup(pagesName, kind: .page, for: "cancel scrolling")
        let transition = try interactiveTransition(of: pages, verb: "cancel-scroll")
        container(.interactiveTransitionCancel, pages, [transition.from, transition.to], animated: true)
        advance(by: options.completionDuration)
        willAppear(transition.from, true)
        settle(transition.from, true)
        didAppear(transition.from, true)
        willDisappear(transition.to, true)
        didDisappear(transition.to, true)
        controllers[pages].interactive = nil
        removePage(transition.to, from: pages)
        controllers[pages].children = [transition.from]
    }

    private func removePage(_ page: Int, from pages: Int) {
        callback(page, .willMoveToParent, parent: ParentArgument.none)
        container(.removeFromParent, pages, [page])
        disown(page)
        releaseIfUnowned(page)
    }
}
