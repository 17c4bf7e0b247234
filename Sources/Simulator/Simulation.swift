import TraceModel

/// A running model of UIKit's container semantics that reports every callback it makes to a `LifecycleSink`.
///
/// The orders follow docs/LIFECYCLE.md (observed orders) and Apple's UIViewController, UINavigationController,
/// UITabBarController, UIPageViewController and UIAdaptivePresentationControllerDelegate documentation; each
/// operation's doc comment names the order it produces. Steps UIKit would refuse (popping a root, presenting
/// from a controller that is already presenting) throw `ScenarioError` with code `.illegalStep` and leave
/// everything recorded so far in the sink.
///
/// Not `Sendable`: one simulation runs on one thread.
public final class Simulation {
    public let sink: any LifecycleSink
    public let options: SimulationOptions
    /// The simulated time of the next event, in nanoseconds.
    public internal(set) var now: UInt64
    /// Events recorded so far.
    public private(set) var eventCount = 0

    var classes: [String: ClassSpec]
    var controllers: [SimulatedController] = []
    var names: [String: Int] = [:]
    var windowRoot: Int?
    var windowSize: Size
    let sceneID: String?
    var appState = AppState.notLaunched
    /// The line of the step being performed, for error messages.
    var line = 0
    /// The start time of the previous step.
    var previousStepStart: UInt64 = 0
    var terminatedLine = 0

    enum AppState: Sendable, Hashable {
        case notLaunched, active, inactive, background, terminated
    }

    /// - Parameters:
    ///   - classes: The declared classes by name; undeclared type names get no code (see
    ///     `ControllerKind(builtinTypeName:)`).
    ///   - sceneID: Record app transitions as UIScene callbacks with this scene id; `nil` for app-delegate ones.
    ///   - start: The simulated time of the first event, in nanoseconds.
    public init(
        classes: [String: ClassSpec] = [:],
        sceneID: String? = nil,
        options: SimulationOptions = SimulationOptions(),
        start: UInt64 = 0,
        sink: any LifecycleSink
    ) {
        self.classes = classes
        self.sceneID = sceneID
        self.options = options
        self.windowSize = options.windowSize
        self.now = start
        self.previousStepStart = start
        self.sink = sink
    }

    /// Performs one step at its time.
    ///
    /// A step whose time falls inside the previous step's callbacks or animation starts when they end.
    /// - Throws: `ScenarioError` (`.illegalStep`, with the step's line) when the step is earlier than the
    ///   previous one or UIKit would not allow it in the current state.
    public func perform(_ step: Step) throws {
        line = step.line
        switch step.timing {
        case .at(let time):
            guard time >= previousStepStart else {
                throw illegal(
                    "this step is at \(TimeText.seconds(time)), before the previous step (\(TimeText.seconds(previousStepStart))); steps must be in time order"
                )
            }
            now = max(now, time)
        case .after(let delay):
            advance(by: delay)
        }
        previousStepStart = now
        try perform(step.command)
    }

    /// Performs `command` now. See `Command` and docs/SCENARIOS.md.
    public func perform(_ command: Command) throws {
        if appState == .terminated {
            throw illegal("the app was terminated (line \(terminatedLine)); nothing can happen after that")
        }
        switch command {
        case .launch: try launch()
        case .root(let spec): try setRoot(spec)
        case .create(let spec):
            let index = try instantiate(spec)
            controllers[index].isHeld = true
        case .release(let name):
            let index = try lookup(name)
            controllers[index].isHeld = false
            releaseIfUnowned(index)
        case .push(let spec, let nav, let animated): try push(spec, on: nav, animated: animated)
        case .pop(let nav, let animated): try pop(nav, animated: animated)
        case .popToRoot(let nav, let animated): try popToRoot(nav, animated: animated)
        case .setStack(let nav, let specs, let animated): try setStack(nav, specs, animated: animated)
        case .beginSwipeBack(let nav): try beginSwipeBack(nav)
        case .finishSwipeBack(let nav): try finishSwipeBack(nav)
        case .cancelSwipeBack(let nav): try cancelSwipeBack(nav)
        case .present(let spec, let from, let style, let animated):
            try present(spec, from: from, style: style, animated: animated)
        case .dismiss(let name, let animated): try dismiss(name, animated: animated)
        case .swipeDown(let name): try swipeDown(name)
        case .selectTab(let tabs, let selector): try selectTab(tabs, selector)
        case .scroll(let pages, let spec):
            try beginScroll(pages, to: spec)
            advance(by: options.animationDuration)
            try finishScroll(pages)
        case .beginScroll(let pages, let spec): try beginScroll(pages, to: spec)
        case .finishScroll(let pages): try finishScroll(pages)
        case .cancelScroll(let pages): try cancelScroll(pages)
        case .addChild(let spec, let parent): try addChild(spec, to: parent)
        case .removeChild(let name): try removeChild(name)
        case .addView(let spec, let parent): try addView(spec, to: parent)
        case .does(let name, let actions):
            let index = try lookup(name)
            run(actions, in: index)
        case .background: try enterBackground()
        case .foreground: try enterForeground()
        case .resignActive: try resignActive()
        case .becomeActive: try becomeActive()
        case .terminate: try terminate()
        case .memoryWarning: memoryWarning()
        case .rotate(let size): rotate(to: size)
        case .layout(let name):
            let index = try lookup(name)
            layoutCascade(index)
        }
    }

    // MARK: - Recording

    func emit(_ payload: EventPayload) {
        sink.record(Event(timestamp: now, payload))
        advance(by: options.tick)
        eventCount += 1
    }

    func container(
        _ operation: ContainerOperation,
        _ container: Int?,
        _ subjects: [Int],
        animated: Bool? = nil,
        style: ModalPresentationStyle? = nil,
        index: Int? = nil
    ) {
        emit(
            .container(
                ContainerEvent(
                    operation,
                    container: container.map { controllers[$0].ref },
                    controllers: subjects.map { controllers[$0].ref },
                    animated: animated,
                    style: style,
                    index: index
                )
            )
        )
    }

    /// Records `callback` on controller `index` as a begin/end interval; `update` changes the model as UIKit
    /// does before the override runs, then the class's code for the callback runs between begin and end.
    func callback(
        _ index: Int,
        _ callback: Callback,
        animated: Bool? = nil,
        parent: ParentArgument? = nil,
        size: Size? = nil,
        update: () -> Void = {}
    ) {
        let ref = controllers[index].ref
        emit(.callback(CallbackEvent(callback, .begin, controller: ref, animated: animated, parent: parent, size: size)))
        update()
        run(controllers[index].spec.hooks[.callback(callback)] ?? [], in: index)
        emit(.callback(CallbackEvent(callback, .end, controller: ref, animated: animated, parent: parent, size: size)))
    }

    /// Runs a class's code as controller `index`.
    func run(_ actions: [Action], in index: Int) {
        let ref = controllers[index].ref
        for action in actions {
            switch action.kind {
            case .mark(let name, var fields):
                if name == MarkName.geometryRead, fields.isEmpty {
                    let bounds = controllers[index].bounds
                    fields = [MarkField("width", .double(bounds.width)), MarkField("height", .double(bounds.height))]
                }
                emit(.mark(MarkEvent(name, .instant, controller: ref, fields: fields)))
            case .work(let label, let duration):
                let fields = [MarkField("label", .string(label))]
                emit(.mark(MarkEvent(MarkName.work, .begin, controller: ref, fields: fields)))
                advance(by: duration)
                emit(.mark(MarkEvent(MarkName.work, .end, controller: ref, fields: fields)))
            case .touchView:
                loadViewIfNeeded(index)
            case .captureSelf:
                controllers[index].isCapturedBySelf = true
            }
        }
    }

    /// Moves the simulated clock forward, saturating at `UInt64.max` (times never wrap around).
    func advance(by nanoseconds: UInt64) {
        let (sum, overflow) = now.addingReportingOverflow(nanoseconds)
        now = overflow ? .max : sum
    }

    func animate(_ animated: Bool) {
        if animated { advance(by: options.animationDuration) }
    }

    // MARK: - Controllers

    func illegal(_ message: String) -> ScenarioError {
        ScenarioError(.illegalStep, message, line: line)
    }

    /// `'editor' (NoteEditorViewController#3)`
    func describe(_ index: Int) -> String {
        "'\(controllers[index].name)' (\(controllers[index].ref.displayName))"
    }

    func lookup(_ name: String) throws -> Int {
        guard let index = names[name] else {
            throw illegal("unknown controller '\(name)'; introduce it as '\(name): TypeName' the first time it is used")
        }
        guard controllers[index].isAlive else {
            throw illegal("\(describe(index)) was already deinitialized")
        }
        return index
    }

    /// Looks up a controller of `kind`.
    func lookup(_ name: String, kind expected: ControllerKind, for verb: String) throws -> Int {
        let index = try lookup(name)
        let kind = controllers[index].kind
        let matches: Bool
        switch (kind, expected) {
        case (.hosting, .hosting): matches = true
        default: matches = kind == expected
        }
        guard matches else {
            throw illegal("cannot \(verb) \(describe(index)): it is a \(kind.noun), not a \(expected.noun)")
        }
        return index
    }

    /// The controller `spec` names: a new one (`name: Type(children…)`) or an existing one that is in no
    /// container, not presented and not the window's root.
    func instantiate(_ spec: ControllerSpec) throws -> Int {
        guard let typeName = spec.typeName else {
            let index = try lookup(spec.name)
            let c = controllers[index]
            if let parent = c.parent {
                throw illegal("\(describe(index)) is already a child of \(describe(parent))")
            }
            if let presenting = c.presenting {
                throw illegal("\(describe(index)) is already presented by \(describe(presenting))")
            }
            if c.isWindowRoot { throw illegal("\(describe(index)) is the window's root view controller") }
            if let superview = c.orphanSuperview {
                throw illegal("\(describe(index))'s view is already in \(describe(superview))'s view")
            }
            return index
        }
        if let existing = names[spec.name] {
            throw illegal("'\(spec.name)' already names \(controllers[existing].ref.displayName) (line \(controllers[existing].line))")
        }
        let classSpec = classes[typeName] ?? ClassSpec(name: typeName, kind: ControllerKind(builtinTypeName: typeName))
        switch classSpec.kind {
        case .plain, .hosting:
            if !spec.children.isEmpty {
                throw illegal("'\(spec.name)' is a \(classSpec.kind.noun); only containers take children in parentheses (use add-child)")
            }
        case .navigation, .tabBar:
            if spec.children.isEmpty {
                throw illegal("'\(spec.name)' is a \(classSpec.kind.noun); give its children in parentheses: \(spec.name): \(typeName)(first: FirstViewController)")
            }
        case .page:
            if spec.children.count != 1 {
                throw illegal("'\(spec.name)' is a page view controller; give exactly one initial page in parentheses")
            }
        }
        // Arguments are evaluated first: the children exist before the container's initializer runs.
        var children: [Int] = []
        for child in spec.children {
            let index = try instantiate(child)
            if children.contains(index) { throw illegal("'\(child.name)' is given twice") }
            children.append(index)
        }
        for child in children where !spec.children.isEmpty {
            var height = 0
            var level = [child]
            while !level.isEmpty {
                height += 1
                level = level.flatMap { controllers[$0].children }
            }
            if height + 1 > Self.maximumTreeDepth {
                throw illegal("the controller tree would nest deeper than \(Self.maximumTreeDepth) levels")
            }
        }
        let ref = sink.registerController(typeName: typeName, at: now)
        let index = controllers.count
        controllers.append(
            SimulatedController(ref: ref, name: spec.name, spec: classSpec, bounds: options.designSize, line: line)
        )
        names[spec.name] = index
        callback(index, .initialize)
        if !children.isEmpty {
            // init(rootViewController:) / viewControllers = […] adds each as a child (Apple: UINavigationController,
            // UITabBarController, UIPageViewController.setViewControllers).
            container(.setViewControllers, index, children, animated: false)
            for child in children {
                adopt(child, by: index)
                callback(child, .didMoveToParent, parent: .controller(ref))
            }
            if classSpec.kind == .tabBar {
                // Setting viewControllers selects the first tab (Apple: UITabBarController.viewControllers);
                // recorded so a replay knows the container is a tab bar and which tab is selected.
                container(.selectTab, index, [children[0]], index: 0)
            }
        }
        return index
    }

    /// How deep the controller tree may grow (appearance forwarding recurses down it; real apps nest a few
    /// levels).
    static let maximumTreeDepth = 64

    /// Throws unless adding `child` (with its subtree) under `parent` keeps the tree within
    /// `maximumTreeDepth` levels.
    func requireNesting(_ child: Int, under parent: Int) throws {
        var depth = 1
        var current = parent
        while let next = controllers[current].parent {
            depth += 1
            current = next
        }
        var height = 0
        var level = [child]
        while !level.isEmpty {
            height += 1
            level = level.flatMap { controllers[$0].children }
        }
        if depth + height > Self.maximumTreeDepth {
            throw illegal("the controller tree would nest deeper than \(Self.maximumTreeDepth) levels")
        }
    }

    /// `willMove(toParent:)` as `addChild` calls it, and the link.
    func adopt(_ child: Int, by parent: Int) {
        callback(child, .willMoveToParent, parent: .controller(controllers[parent].ref)) {
            controllers[child].parent = parent
            controllers[parent].children.append(child)
        }
    }

    /// `didMove(toParent: nil)` as `removeFromParent` calls it, and the unlink.
    func disown(_ child: Int) {
        callback(child, .didMoveToParent, parent: ParentArgument.none) {
            if let parent = controllers[child].parent {
                controllers[parent].children.removeAll { $0 == child }
            }
            controllers[child].parent = nil
        }
    }

    func loadViewIfNeeded(_ index: Int) {
        guard !controllers[index].isViewLoaded else { return }
        callback(index, .loadView) { controllers[index].isViewLoaded = true }
        callback(index, .viewDidLoad)
    }

    /// Deinitializes controller `index` when nothing owns it any more: no parent, presenter, window, outside
    /// reference or retain cycle. Its children, presented controller and orphaned subview controllers are
    /// released after its deinit (ARC releases stored properties after `deinit` runs).
    func releaseIfUnowned(_ index: Int) {
        let c = controllers[index]
        guard c.isAlive, !c.isCapturedBySelf, !c.isHeld, !c.isWindowRoot, c.parent == nil, c.presenting == nil,
            c.orphanSuperview == nil
        else { return }
        callback(index, .deinitialize) { controllers[index].isAlive = false }
        for child in c.children {
            controllers[child].parent = nil
            releaseIfUnowned(child)
        }
        controllers[index].children = []
        if let presented = c.presented {
            controllers[presented].presenting = nil
            releaseIfUnowned(presented)
        }
        for orphan in c.orphans {
            controllers[orphan].orphanSuperview = nil
            releaseIfUnowned(orphan)
        }
        controllers[index].orphans = []
    }

    /// The children that appear and disappear with `index` (docs/LIFECYCLE.md; Apple: automatic appearance
    /// forwarding of container view controllers).
    func visibleChildren(_ index: Int) -> [Int] {
        let c = controllers[index]
        switch c.kind {
        case .navigation: return c.children.last.map { [$0] } ?? []
        case .tabBar: return c.children.indices.contains(c.selectedIndex) ? [c.children[c.selectedIndex]] : []
        case .page: return c.children.first.map { [$0] } ?? []
        case .plain, .hosting: return c.children
        }
    }

    /// The controller whose view fills a presentation level: climb parents to the window's root or to a
    /// presented controller.
    func levelRoot(_ index: Int) -> Int {
        var current = index
        while let parent = controllers[current].parent { current = parent }
        return current
    }

    /// Throws unless `index` is steady: on or off screen, with no interactive transition in progress.
    func requireSteady(_ index: Int) throws {
        if let transition = controllers[index].interactive {
            throw illegal("\(describe(index)) has an interactive transition in progress (begun at line \(transition.line)); finish or cancel it first")
        }
        let state = controllers[index].appearance
        if state == .appearing || state == .disappearing {
            throw illegal("\(describe(index)) is in the middle of an appearance transition")
        }
    }

    func isOnScreen(_ index: Int) -> Bool {
        controllers[index].appearance == .appeared
    }
}

@available(*, unavailable)
extension Simulation: Sendable {}
