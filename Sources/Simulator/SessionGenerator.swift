import TraceModel

/// Generates long, realistic, legal sessions: a random mix of navigation (push, pop, pop to root, swipe-backs
/// finished and cancelled), presentation (sheets swiped down or dismissed, full-screen modals), tab switches,
/// containment, background/foreground, memory warnings, rotation, and app code marks (saves, edits, timers,
/// observers, requests, analytics, work).
///
/// Every step is legal for the simulator's model, so a generated trace obeys docs/LIFECYCLE.md (no anomalies); the
/// same seed and options give the same events. For benchmarks and property tests.
public struct SessionGenerator: Sendable {
    public var seed: UInt64
    public var options: SimulationOptions

    public init(seed: UInt64, options: SimulationOptions = SimulationOptions()) {
        self.seed = seed
        self.options = options
    }

    /// The events of a session of at least `count` events (it stops at the end of the step that reaches
    /// `count`, so intervals are closed), in memory.
    public func events(count: Int) -> [Event] {
        let collector = EventCollector()
        generate(count: count, into: collector)
        return collector.events
    }

    /// Streams a session of at least `count` events into `sink`.
    ///
    /// - Parameter isAbandoned: Checked before each step of the session: `true` ends it there, with fewer than
    ///   `count` events (the `lifetrace` command line stops printing a session nobody reads any more).
    /// - Returns: The number of events recorded.
    @discardableResult
    public func generate(count: Int, into sink: any LifecycleSink, until isAbandoned: () -> Bool = { false }) -> Int {
        var session = GeneratedSession(seed: seed, options: options, sink: sink)
        while session.simulation.eventCount < count, !isAbandoned() {
            session.step()
        }
        return session.simulation.eventCount
    }

    /// The classes a generated session uses, with their code. Built in so a session needs no scenario file.
    public static let classes: [String: ClassSpec] = {
        func mark(_ name: String, _ fields: [(String, FieldValue)]) -> Action {
            Action(.mark(name: name, fields: fields.map { MarkField($0.0, $0.1) }))
        }
        let list = ClassSpec(
            name: "FeedViewController", kind: .plain,
            hooks: [
                .callback(.viewDidLoad): [Action(.work(label: "configure", duration: 1_500_000))],
                .callback(.viewDidAppear): [mark(MarkName.analyticsScreen, [("name", .string("feed"))])],
            ])
        let detail = ClassSpec(
            name: "ArticleViewController", kind: .plain,
            hooks: [
                .callback(.viewDidLoad): [mark(MarkName.observerAdd, [("name", .string("contentSizeCategory"))])],
                .callback(.viewIsAppearing): [mark(MarkName.geometryRead, [])],
                .callback(.viewDidAppear): [mark(MarkName.timerStart, [("id", .string("progress"))])],
                .callback(.viewDidDisappear): [mark(MarkName.timerStop, [("id", .string("progress"))])],
                .callback(.deinitialize): [mark(MarkName.observerRemove, [("name", .string("contentSizeCategory"))])],
            ])
        let editor = ClassSpec(
            name: "ComposeViewController", kind: .plain,
            hooks: [
                .callback(.viewDidDisappear): [mark(MarkName.save, [("key", .string("draft")), ("critical", .bool(true))])],
                .app(.didEnterBackground): [mark(MarkName.save, [("key", .string("draft")), ("critical", .bool(true))])],
            ])
        let sheet = ClassSpec(
            name: "FilterSheetViewController", kind: .plain,
            hooks: [
                .callback(.viewDidLoad): [mark(MarkName.requestStart, [("id", .string("facets"))])],
                .callback(.viewWillDisappear): [mark(MarkName.requestCancel, [("id", .string("facets"))])],
            ])
        let child = ClassSpec(
            name: "BannerViewController", kind: .plain,
            hooks: [.callback(.viewDidLayoutSubviews): [Action(.work(label: "banner-layout", duration: 300_000))]])
        let host = ClassSpec(
            name: "SettingsHostingController", kind: .hosting(rootView: "SettingsView"),
            hooks: [.swiftUI(.onAppear): [mark(MarkName.analyticsScreen, [("name", .string("settings"))])]])
        return Dictionary(uniqueKeysWithValues: [list, detail, editor, sheet, child, host].map { ($0.name, $0) })
    }()
}

/// The state of one generated session: the simulation plus the generator's bookkeeping.
struct GeneratedSession {
    let simulation: Simulation
    var random: SplitMix64
    var serial = 0
    var navs: [String] = []
    var tabs = "tabs"
    var selectedTab = 0
    var swipingNav: String?
    var presented: [String] = []
    var isInBackground = false
    var children: [String: [String]] = [:]
    /// Steps the simulator refused; stays 0 unless the generator has a bug (property tests check it).
    var illegalSteps = 0

    init(seed: UInt64, options: SimulationOptions, sink: any LifecycleSink) {
        simulation = Simulation(classes: SessionGenerator.classes, sceneID: "main", options: options, sink: sink)
        random = SplitMix64(seed: seed)
        perform(.launch)
        navs = ["nav0", "nav1", "nav2"]
        let root = ControllerSpec(
            name: tabs, typeName: "UITabBarController",
            children: [
                ControllerSpec(name: "nav0", typeName: "UINavigationController", children: [ControllerSpec(name: "feed", typeName: "FeedViewController")]),
                ControllerSpec(name: "nav1", typeName: "UINavigationController", children: [ControllerSpec(name: "inbox", typeName: "FeedViewController")]),
                ControllerSpec(name: "nav2", typeName: "UINavigationController", children: [ControllerSpec(name: "settings", typeName: "SettingsHostingController")]),
            ])
        perform(.root(root))
    }

    mutating func perform(_ command: Command) {
        let delay = UInt64(300 + random.below(2700)) * 1_000_000
        do {
            try simulation.perform(Step(.after(delay), command))
        } catch {
            illegalSteps += 1
        }
    }

    mutating func newName() -> String {
        serial += 1
        return "c\(serial)"
    }

    var currentNav: String { navs[selectedTab] }

    func stackCount(_ nav: String) -> Int {
        simulation.names[nav].map { simulation.controllers[$0].children.count } ?? 0
    }

    func topName(_ nav: String) -> String? {
        guard let index = simulation.names[nav], let top = simulation.controllers[index].children.last else { return nil }
        return simulation.controllers[top].name
    }

    func typeName(of name: String) -> String? {
        simulation.names[name].map { simulation.controllers[$0].spec.name }
    }

    mutating func step() {
        if isInBackground {
            isInBackground = false
            perform(.foreground)
            return
        }
        if let nav = swipingNav {
            swipingNav = nil
            perform(random.chance(40) ? .cancelSwipeBack(nav) : .finishSwipeBack(nav))
            return
        }
        if let top = presented.last {
            stepWhilePresenting(top)
            return
        }
        let nav = currentNav
        let depth = stackCount(nav)
        let roll = random.below(100)
        switch roll {
        case ..<28 where depth < 8:
            let types = ["ArticleViewController", "ComposeViewController", "FeedViewController", "SettingsHostingController"]
            let type = types[random.below(types.count)]
            perform(.push(ControllerSpec(name: newName(), typeName: type), on: nav, animated: true))
        case ..<40 where depth >= 2:
            perform(.pop(nav, animated: true))
        case ..<48 where depth >= 2:
            swipingNav = nav
            perform(.beginSwipeBack(nav))
        case ..<51 where depth >= 3:
            perform(.popToRoot(nav, animated: true))
        case ..<60:
            if let top = topName(nav), typeName(of: top) == "ComposeViewController" {
                perform(.does(top, [Action(.mark(name: MarkName.edit, fields: [MarkField("key", .string("draft"))]))]))
            } else if let top = topName(nav) {
                perform(.does(top, [Action(.mark(name: "scroll", fields: [MarkField("offset", .int(Int64(random.below(4000))))]))]))
            }
        case ..<70:
            let sheetName = newName()
            let style: ModalPresentationStyle = random.chance(75) ? .pageSheet : .fullScreen
            if let top = topName(nav) {
                presented.append(sheetName)
                perform(.present(ControllerSpec(name: sheetName, typeName: "FilterSheetViewController"), from: top, style: style, animated: true))
            }
        case ..<78:
            let index = (selectedTab + 1 + random.below(navs.count - 1)) % navs.count
            selectedTab = index
            perform(.selectTab(tabs, .index(index)))
        case ..<86:
            guard let top = topName(nav), typeName(of: top) == "FeedViewController" else { return }
            if let existing = children[top]?.last, random.chance(50) {
                children[top]?.removeLast()
                perform(.removeChild(existing))
            } else {
                let child = newName()
                children[top, default: []].append(child)
                perform(.addChild(ControllerSpec(name: child, typeName: "BannerViewController"), to: top))
            }
        case ..<93:
            isInBackground = true
            perform(.background)
        case ..<96:
            perform(.memoryWarning)
        case ..<98:
            let size = simulation.windowSize
            perform(.rotate(Size(width: size.height, height: size.width)))
        default:
            if let top = topName(nav) { perform(.layout(top)) }
        }
    }

    private mutating func stepWhilePresenting(_ top: String) {
        guard let index = simulation.names[top] else { return }
        let style = simulation.controllers[index].presentationStyle ?? .pageSheet
        let roll = random.below(100)
        switch roll {
        case ..<35:
            presented.removeLast()
            perform(style == .fullScreen ? .dismiss(top, animated: true) : .swipeDown(top))
        case ..<55:
            presented.removeLast()
            perform(.dismiss(top, animated: true))
        case ..<75:
            perform(.does(top, [Action(.mark(name: "filter.toggle", fields: [MarkField("facet", .int(Int64(random.below(12))))]))]))
        case ..<85:
            isInBackground = true
            perform(.background)
        default:
            perform(.does(top, [Action(.mark(name: MarkName.geometryRead, fields: []))]))
        }
    }
}
