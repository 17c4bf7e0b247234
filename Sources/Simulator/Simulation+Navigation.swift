import TraceModel

/// UINavigationController: push, pop, pop to root, set stack, and the interactive pop (swipe-back).
extension Simulation {
    /// Push (docs/LIFECYCLE.md "push A→B"): `B.willMove(toParent: nav)`, B.loadView, B.viewDidLoad,
    /// A.viewWillDisappear, B.viewWillAppear, B.viewIsAppearing, B layout, (animation), A.viewDidDisappear,
    /// B.viewDidAppear, `B.didMove(toParent: nav)`. Off screen, only the containment callbacks.
    func push(_ spec: ControllerSpec, on navName: String, animated: Bool) throws {
        let nav = try lookup(navName, kind: .navigation, for: "push onto")
        try requireSteady(nav)
        let pushed = try instantiate(spec)
        if controllers[pushed].kind == .navigation {
            throw illegal("cannot push \(describe(pushed)): UIKit does not support pushing a navigation controller")
        }
        try requireNesting(pushed, under: nav)
        let previous = controllers[nav].children.last
        container(.push, nav, [pushed], animated: animated)
        adopt(pushed, by: nav)
        if isOnScreen(nav) {
            loadViewIfNeeded(pushed)
            if let previous { willDisappear(previous, animated) }
            willAppear(pushed, animated)
            settle(pushed, animated)
            animate(animated)
            if let previous { didDisappear(previous, animated) }
            didAppear(pushed, animated)
        }
        callback(pushed, .didMoveToParent, parent: .controller(controllers[nav].ref))
    }

    /// Pop with the back button (docs/LIFECYCLE.md "pop B→A"): `B.willMove(toParent: nil)`, B.viewWillDisappear,
    /// A.viewWillAppear, A.viewIsAppearing, A layout, (animation), B.viewDidDisappear, A.viewDidAppear,
    /// `B.didMove(toParent: nil)`, B.deinit when nothing else retains B.
    func pop(_ navName: String, animated: Bool) throws {
        let nav = try lookup(navName, kind: .navigation, for: "pop")
        try requireSteady(nav)
        let stack = controllers[nav].children
        guard stack.count >= 2 else {
            throw illegal("cannot pop \(describe(nav)): it holds only its root view controller (UIKit returns nil)")
        }
        try popTo(nav, keeping: stack.count - 1, animated: animated)
    }

    /// Pop to root: every controller above the root gets `willMove(toParent: nil)` (top first), only the top
    /// and the root get appearance callbacks, then each gets `didMove(toParent: nil)` and is released.
    func popToRoot(_ navName: String, animated: Bool) throws {
        let nav = try lookup(navName, kind: .navigation, for: "pop to root")
        try requireSteady(nav)
        guard controllers[nav].children.count >= 2 else { return }
        try popTo(nav, keeping: 1, animated: animated)
    }

    private func popTo(_ nav: Int, keeping count: Int, animated: Bool) throws {
        let stack = controllers[nav].children
        let popped = Array(stack[count...].reversed())
        let top = stack[stack.count - 1]
        let revealed = stack[count - 1]
        container(.pop, nav, popped, animated: animated)
        for controller in popped { callback(controller, .willMoveToParent, parent: ParentArgument.none) }
        if isOnScreen(nav) {
            willDisappear(top, animated)
            controllers[nav].children = Array(stack[..<count])
            willAppear(revealed, animated)
            settle(revealed, animated)
            animate(animated)
            controllers[nav].children = stack
            didDisappear(top, animated)
            controllers[nav].children = Array(stack[..<count])
            didAppear(revealed, animated)
        }
        controllers[nav].children = stack
        for controller in popped { disown(controller) }
        for controller in popped { releaseIfUnowned(controller) }
    }

    /// `setViewControllers(_:animated:)`: added controllers get `willMove(toParent: nav)`, removed ones
    /// `willMove(toParent: nil)`; if the top changes on screen it transitions like a push; then the
    /// `didMove` calls, and removed controllers are released.
    func setStack(_ navName: String, _ specs: [ControllerSpec], animated: Bool) throws {
        let nav = try lookup(navName, kind: .navigation, for: "set the stack of")
        try requireSteady(nav)
        guard !specs.isEmpty else { throw illegal("set-stack needs at least one controller") }
        let old = controllers[nav].children
        var new: [Int] = []
        for spec in specs {
            let index: Int
            if spec.typeName == nil, let existing = names[spec.name], old.contains(existing) {
                index = existing
            } else {
                index = try instantiate(spec)
            }
            if new.contains(index) { throw illegal("'\(spec.name)' is given twice") }
            if controllers[index].kind == .navigation {
                throw illegal("cannot put \(describe(index)) on a navigation stack: UIKit does not support nesting navigation controllers")
            }
            try requireNesting(index, under: nav)
            new.append(index)
        }
        let added = new.filter { !old.contains($0) }
        let removed = old.filter { !new.contains($0) }
        container(.setViewControllers, nav, new, animated: animated)
        for controller in added {
            callback(controller, .willMoveToParent, parent: .controller(controllers[nav].ref)) {
                controllers[controller].parent = nav
            }
        }
        for controller in removed { callback(controller, .willMoveToParent, parent: ParentArgument.none) }
        let oldTop = old.last
        let newTop = new[new.count - 1]
        if isOnScreen(nav), oldTop != newTop {
            loadViewIfNeeded(newTop)
            if let oldTop { willDisappear(oldTop, animated) }
            controllers[nav].children = new
            willAppear(newTop, animated)
            settle(newTop, animated)
            animate(animated)
            if let oldTop { didDisappear(oldTop, animated) }
            didAppear(newTop, animated)
        }
        controllers[nav].children = new
        for controller in added { callback(controller, .didMoveToParent, parent: .controller(controllers[nav].ref)) }
        for controller in removed {
            callback(controller, .didMoveToParent, parent: ParentArgument.none) { controllers[controller].parent = nil }
        }
        for controller in removed { releaseIfUnowned(controller) }
    }

    /// The swipe-back gesture begins: `B.willMove(toParent: nil)`, B.viewWillDisappear, A.viewWillAppear,
    /// A.viewIsAppearing, A layout. The appearance order is docs/LIFECYCLE.md's; recording willMove(nil) here, as a
    /// back-button pop does first (real log 08), is an assumption: no source found says when UIKit calls it
    /// during an interactive pop (see docs/SCENARIOS.md, "Modelling choices").
    func beginSwipeBack(_ navName: String) throws {
        let nav = try lookup(navName, kind: .navigation, for: "swipe back in")
        try requireSteady(nav)
        let stack = controllers[nav].children
        guard stack.count >= 2 else {
            throw illegal("cannot swipe back in \(describe(nav)): it holds only its root view controller")
        }
        guard isOnScreen(nav) else { throw illegal("cannot swipe back in \(describe(nav)): it is not on screen") }
        let top = stack[stack.count - 1]
        let below = stack[stack.count - 2]
        container(.interactiveTransitionBegin, nav, [top, below], animated: true)
        callback(top, .willMoveToParent, parent: ParentArgument.none)
        willDisappear(top, true)
        controllers[nav].children.removeLast()
        willAppear(below, true)
        settle(below, true)
        controllers[nav].children.append(top)
        controllers[nav].interactive = InteractiveTransition(from: top, to: below, line: line)
    }

    /// The finger lifts past the threshold (docs/LIFECYCLE.md "interactive pop, finished"): after the remaining
    /// animation, B.viewDidDisappear, A.viewDidAppear, `B.didMove(toParent: nil)`, B.deinit.
    func finishSwipeBack(_ navName: String) throws {
        let nav = try lookup(navName, kind: .navigation, for: "finish a swipe-back in")
        let transition = try interactiveTransition(of: nav, verb: "finish-swipe-back")
        container(.interactiveTransitionFinish, nav, [transition.from, transition.to], animated: true)
        advance(by: options.completionDuration)
        didDisappear(transition.from, true)
        controllers[nav].children.removeLast()
        didAppear(transition.to, true)
        controllers[nav].children.append(transition.from)
        controllers[nav].interactive = nil
        disown(transition.from)
        releaseIfUnowned(transition.from)
    }

    /// The finger lifts before the threshold (docs/LIFECYCLE.md "interactive pop, cancelled"): A.viewWillDisappear,
    /// A.viewDidDisappear, B.viewWillAppear, B.viewIsAppearing, B layout, B.viewDidAppear. B never gets
    /// viewDidDisappear and A never gets viewDidAppear; B stays on the stack.
    func cancelSwipeBack(_ navName: String) throws {
        let nav = try lookup(navName, kind: .navigation, for: "cancel a swipe-back in")
        let transition = try interactiveTransition(of: nav, verb: "cancel-swipe-back")
        container(.interactiveTransitionCancel, nav, [transition.from, transition.to], animated: true)
        advance(by: options.completionDuration)
        controllers[nav].children.removeLast()
        willDisappear(transition.to, true)
        didDisappear(transition.to, true)
        controllers[nav].children.append(transition.from)
        willAppear(transition.from, true)
        settle(transition.from, true)
        didAppear(transition.from, true)
        controllers[nav].interactive = nil
    }

    func interactiveTransition(of index: Int, verb: String) throws -> InteractiveTransition {
        guard let transition = controllers[index].interactive else {
            throw illegal("\(verb): \(describe(index)) has no interactive transition in progress (begin one first)")
        }
        return transition
    }
}
