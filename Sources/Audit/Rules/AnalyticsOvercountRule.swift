import Replay
import TraceModel

/// `analytics_overcount`: a controller sends more screen views than it completes appearances.
struct AnalyticsOvercountRule: AuditRule {
    static let id = "analytics_overcount"

    static let rule = Rule(Self.self) { AnalyticsOvercountRule(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A screen view (analytics.screen) is sent for an appearance that never completes (no viewDidAppear), while the screen is not appearing, or more than once per appearance, typically from a SwiftUI onAppear.",
            defaultSeverity: .warning,
            parameters: [
                RuleParameter(
                    name: "screen_marks", kind: .names, defaultValue: .names([MarkName.analyticsScreen]), unit: "mark names",
                    summary: "Marks that send a screen view; screen views are counted per controller and per the mark's `name` field."
                ),
            ],
            explanation: """
                A screen view means "the user saw this screen", and UIKit's signal for that is viewDidAppear: it \
                comes once per completed appearance, after the transition ends, and never for an appearance that \
                is cancelled (an interactive pop or page scroll that is abandoned gives viewWillAppear, then \
                viewWillDisappear/viewDidDisappear, and no viewDidAppear; docs/LIFECYCLE.md). SwiftUI's onAppear has \
                other semantics: it runs before the view's first rendered frame, at a moment that depends on the \
                view type (Apple, "onAppear(perform:)"), following the view's membership in the render tree, not \
                visibility (docs/LIFECYCLE.md, "SwiftUI in UIHostingController": "analytics in onAppear over-counts"): \
                the screen revealed by a swipe-back that is then cancelled gets onAppear although it never \
                appeared, and views in lazy containers or with changing identity get it again while the screen \
                stays. The rule counts the screen-view marks (`screen_marks`) of each controller (the mark's \
                controller, else the one whose callback encloses it, else the host of a SwiftUI onAppear recorded \
                just before) against its appearance cycles, from viewWillAppear to the next \
                viewWillDisappear (or deinit): a cycle allows one screen view per `name`, and only if \
                it reaches viewDidAppear; a screen view while the controller is disappearing or disappeared counts \
                for nothing. A screen view sent inside init, loadView, viewDidLoad, viewWillAppear or viewIsAppearing for an \
                appearance that is then cancelled is left to `work_before_visible`, which reports work started \
                there for a screen that does not show. Returning from the background (willEnterForeground) opens a new allowance, since \
                apps commonly re-send the screen view there. One finding per controller type and screen name, at \
                its first extra screen view, with the totals of the trace over every instance of the type.
                """,
            fix: """
                Send screen views from the hosting controller's viewDidAppear (subclass UIHostingController), the \
                point where the screen has really appeared, and keep SwiftUI's onAppear for view-level work such \
                as starting a load with `task`. If the event must come from SwiftUI, deduplicate it against the \
                host's appearances.
                """,
            needs: [.mark(MarkName.analyticsScreen), .swiftUI],
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let nav = ExampleTrace.controller(1, "UINavigationController")
        let feed = ExampleTrace.controller(2, "FeedHostingController")
        let post = ExampleTrace.controller(3, "PostViewController")
        let view = MarkEvent(MarkName.analyticsScreen, controller: feed, fields: [MarkField("name", .string("feed"))])

        func session(_ trace: inout ExampleTrace, fromOnAppear: Bool) {
            trace.callback(.initialize, feed)
            trace.callback(.viewDidLoad, feed)
            trace.interval(.viewWillAppear, feed) { _ in }
            if fromOnAppear {
                trace.swiftUI(.onAppear, view: "FeedView", host: feed)
                trace.mark(view)
                trace.callback(.viewDidAppear, feed)
            } else {
                trace.interval(.viewDidAppear, feed) { $0.mark(view) }
            }
            trace.push(post, over: feed, navigation: nav)
            if fromOnAppear { trace.swiftUI(.onDisappear, view: "FeedView", host: feed) }
            // A swipe-back that peeks at the feed and is cancelled.
            trace.container(.interactiveTransitionBegin, nav, [post, feed])
            trace.callback(.viewWillDisappear, post)
            trace.interval(.viewWillAppear, feed) { _ in }
            if fromOnAppear {
                trace.swiftUI(.onAppear, view: "FeedView", host: feed)
                trace.mark(view)
            }
            trace.container(.interactiveTransitionCancel, nav, [post, feed])
            trace.callback(.viewWillDisappear, feed)
            trace.callback(.viewDidDisappear, feed)
            if fromOnAppear { trace.swiftUI(.onDisappear, view: "FeedView", host: feed) }
            trace.callback(.viewWillAppear, post)
            trace.callback(.viewDidAppear, post)
        }
        var overcounted = ExampleTrace()
        session(&overcounted, fromOnAppear: true)
        var counted = ExampleTrace()
        session(&counted, fromOnAppear: false)
        return [
            RuleExample(title: "screen view sent from onAppear; a cancelled swipe-back peeks at the feed and sends another", events: overcounted.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "screen view sent from the host's viewDidAppear: the cancelled swipe-back sends none", events: counted.events, expectedFindings: 0),
        ]
    }

    /// One screen view.
    struct View {
        var name: String
        var ordinal: UInt64
        var time: UInt64
        var source: EventSource?
        /// The callback (or SwiftUI onAppear) it was sent from, by name.
        var sentFrom: String?
        var enclosing: Callback?
    }

    /// Why a screen view counted for no completed appearance.
    enum Extra {
        case cancelled(appearingSince: UInt64, closedBy: RelatedEvent?)
        case notAppearing(String)
        case duplicate
    }

    struct Example {
        var view: View
        var why: Extra
        var controller: String
    }

    /// A controller that sent a screen view, from then to its deinit: its current appearance cycle's views.
    struct Tracked {
        var controller: String
        var typeName: String
        var cycle: [View] = []
        /// The cycle reached viewDidAppear.
        var confirmed = false
        var cycleStart: UInt64?
    }

    struct NameTotals {
        var views = 0
        var extra = 0
        var first: [Example] = []
    }

    /// The totals of one controller type.
    struct TypeTotals {
        var instances = 0
        var appearances = 0
        /// Screen names in first-seen order, and their totals.
        var names: [String] = []
        var totals: [String: NameTotals] = [:]
    }

    /// The callbacks where `work_before_visible` judges work (a screen view included) started for an appearance
    /// that does not complete; not reported twice.
    static let beforeVisible: Set<Callback> = [.initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing]

    let severity: Severity
    let screenMarks: [String]
    let facts: [FactKind]
    var tracked: [UInt32: Tracked] = [:]
    var types: [String: TypeTotals] = [:]
    /// The last SwiftUI onAppear: its ordinal, host and view.
    var lastOnAppear: (ordinal: UInt64, host: ControllerRef?, view: String)?

    init(settings: RuleSettings) {
        severity = settings.severity
        screenMarks = settings.names("screen_marks", default: [MarkName.analyticsScreen])
        facts = screenMarks.map { .mark($0) } + FactKind.callbacks(.viewDidAppear, .viewWillDisappear, .deinitialize) + [.swiftUI, .app, .runStarted]
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .callback(let callback) where callback.isStart:
            guard var entry = tracked[callback.controller] else { return }
            let closer = { (why: String) in replay.related("\(replay.name(of: callback.controller)) \(callback.callback.name) at \(replay.time(replay.timestamp))\(why)") }
            switch callback.callback {
            case .viewDidAppear:
                if !entry.confirmed {
                    types[entry.typeName, default: TypeTotals()].appearances += 1
                    entry.confirmed = true
                }
                tracked[callback.controller] = entry
            case .viewWillDisappear:
                close(&entry) { closer(": the appearance ended without viewDidAppear") }
                tracked[callback.controller] = entry
            default:
                close(&entry) { closer("") }
                tracked[callback.controller] = nil
            }
        case .swiftUI(let swiftUI) where swiftUI.action == .onAppear:
            lastOnAppear = (replay.ordinal, swiftUI.host, swiftUI.view)
        case .app(let app) where app.transition == .willEnterForeground && app.phase != .end:
            // Back from the background: apps commonly send the screen view again, so a new allowance opens.
            for (serial, var entry) in tracked where entry.confirmed {
                close(&entry) { nil }
                entry.confirmed = true
                tracked[serial] = entry
            }
        case .mark(let mark) where mark.phase != .end:
            screenView(mark, replay)
        case .runStarted:
            closeAll()
        default:
            break
        }
    }

    mutating func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        closeAll()
        for (typeName, totals) in types { report(typeName, totals, replay, &findings) }
    }

    private mutating func screenView(_ mark: MarkFact, _ replay: ReplayView) {
        // The owner: the mark's controller, else the one whose callback encloses it, else the host of a SwiftUI
        // onAppear recorded just before.
        let owner: ControllerRef
        if let serial = mark.controller {
            guard let ref = replay.ref(of: serial) else { return }
            owner = ref
        } else if let onAppear = lastOnAppear, onAppear.ordinal + 1 == replay.ordinal, let host = onAppear.host {
            owner = host
        } else {
            return
        }
        guard let seen = replay.withController(owner.serial, { (appearance: $0.appearance, since: $0.appearanceSince) }), seen.appearance != .unknown else { return }
        let appearance = seen.appearance
        let appearanceSince = seen.since
        var sentFrom: String?
        var enclosing: Callback?
        var inAppearing = true
        if let active = replay.enclosingCallback(of: owner.serial) {
            sentFrom = ReplayView.methodName(of: active)
            enclosing = active.callback
            inAppearing = [.viewWillAppear, .viewIsAppearing, .viewDidLayoutSubviews].contains(active.callback)
        }
        if let onAppear = lastOnAppear, onAppear.host?.serial == owner.serial, inAppearing { sentFrom = "\(onAppear.view).onAppear" }
        var entry = tracked[owner.serial] ?? start(owner, appearance: appearance, at: replay.timestamp)
        // A serial named with another type here counts under that type.
        let typeName = owner.typeName == entry.typeName ? entry.typeName : owner.typeName
        let name = (mark[field: "id"] ?? mark[field: "name"])?.description ?? ""
        if types[typeName]?.totals[name] == nil { types[typeName, default: TypeTotals()].names.append(name) }
        types[typeName, default: TypeTotals()].totals[name, default: NameTotals()].views += 1
        let view = View(name: name, ordinal: replay.ordinal, time: replay.timestamp, source: replay.source, sentFrom: sentFrom, enclosing: enclosing)
        switch appearance {
        case .appearing, .appeared:
            if entry.cycle.isEmpty, appearance == .appearing { entry.cycleStart = appearanceSince ?? replay.timestamp }
            entry.cycle.append(view)
        case .disappearing, .disappeared, .unknown:
            count(view, .notAppearing(appearance.name), in: entry)
        }
        tracked[owner.serial] = entry
    }

    private mutating func start(_ controller: ControllerRef, appearance: Appearance, at time: UInt64) -> Tracked {
        types[controller.typeName, default: TypeTotals()].instances += 1
        if appearance == .appeared { types[controller.typeName, default: TypeTotals()].appearances += 1 }
        return Tracked(controller: controller.displayName, typeName: controller.typeName, confirmed: appearance == .appeared, cycleStart: time)
    }

    private mutating func closeAll() {
        for serial in tracked.keys.sorted() {
            var entry = tracked[serial]!
            close(&entry) { nil }
        }
        tracked.removeAll()
    }

    /// Ends an appearance cycle: without viewDidAppear every view in it (but those `work_before_visible` judges)
    /// counted for nothing; with it, every view after the first of its name.
    private mutating func close(_ entry: inout Tracked, by closer: () -> RelatedEvent?) {
        for (index, view) in entry.cycle.enumerated() {
            if !entry.confirmed {
                if let callback = view.enclosing, Self.beforeVisible.contains(callback) { continue }
                count(view, .cancelled(appearingSince: entry.cycleStart ?? view.time, closedBy: closer()), in: entry)
            } else if entry.cycle[..<index].contains(where: { $0.name == view.name }) {
                count(view, .duplicate, in: entry)
            }
        }
        entry.cycle.removeAll()
        entry.confirmed = false
        entry.cycleStart = nil
    }

    private mutating func count(_ view: View, _ why: Extra, in entry: Tracked) {
        if types[entry.typeName]?.totals[view.name] == nil { types[entry.typeName, default: TypeTotals()].names.append(view.name) }
        var totals = types[entry.typeName]?.totals[view.name] ?? NameTotals()
        totals.extra += 1
        if totals.first.count < 3 { totals.first.append(Example(view: view, why: why, controller: entry.controller)) }
        types[entry.typeName, default: TypeTotals()].totals[view.name] = totals
    }

    private func report(_ typeName: String, _ type: TypeTotals, _ replay: ReplayView, _ findings: inout [Finding]) {
        for name in type.names {
            guard let total = type.totals[name], total.extra > 0, let first = total.first.first else { continue }
            let several = type.instances > 1
            let who = several ? "\(typeName) (\(type.instances) instances)" : first.controller
            let label = name.isEmpty ? "screen view" : "screen view '\(name)'"
            var message = "\(who) sent \(label) \(total.views) time\(total.views == 1 ? "" : "s") but completed \(type.appearances) appearance\(type.appearances == 1 ? "" : "s") (viewDidAppear); \(total.extra) counted for no completed appearance: "
            message += total.first.map { example in
                let view = example.view
                let place = (several ? " in \(example.controller)" : "") + (view.sentFrom.map { " from \($0)" } ?? "")
                return switch example.why {
                case .cancelled(let since, _): "at \(replay.time(view.time))\(place), in an appearance begun at \(replay.time(since)) and cancelled (viewWillDisappear, no viewDidAppear)"
                case .notAppearing(let state): "at \(replay.time(view.time))\(place), while \(example.controller) was \(state)"
                case .duplicate: "at \(replay.time(view.time))\(place), a second time in the same appearance"
                }
            }.joined(separator: "; ")
            message += (total.extra > total.first.count ? "; …" : "") + "."
            var related: [RelatedEvent] = []
            for (number, example) in total.first.enumerated() {
                if number > 0 {
                    related.append(RelatedEvent(ordinal: example.view.ordinal, timestamp: example.view.time, message: "\(label) at \(replay.time(example.view.time))\(example.view.sentFrom.map { " from \($0)" } ?? "")", source: example.view.source))
                }
                if case .cancelled(_, let closer?) = example.why { related.append(closer) }
            }
            findings.append(Finding(
                ruleID: Self.id, severity: severity, controller: first.controller, timestamp: first.view.time, ordinal: first.view.ordinal,
                callback: first.view.sentFrom, message: message, related: related, source: first.view.source))
        }
    }
}
