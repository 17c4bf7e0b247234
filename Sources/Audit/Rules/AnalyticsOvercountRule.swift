import Replay
import TraceLog
import TraceModel

/// `analytics_overcount`: a controller sends more screen views than it completes appearances.
enum AnalyticsOvercountRule {
    static let id = "analytics_overcount"

    static let rule = Rule(descriptor) { AnalyticsOvercountMonitor(settings: $0) }

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
                viewWillDisappear/viewDidDisappear, and no viewDidAppear; DESIGN.md §2). SwiftUI's onAppear has \
                other semantics: it runs before the view's first rendered frame, at a moment that depends on the \
                view type (Apple, "onAppear(perform:)"), following the view's membership in the render tree, not \
                visibility (DESIGN.md §2, "SwiftUI in UIHostingController": "analytics in onAppear over-counts"): \
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
}

/// The monitor of `analytics_overcount`.
final class AnalyticsOvercountMonitor: RuleMonitor {
    let interests: EventInterests = [.callbacks, .marks, .swiftUI, .app, .recorder]
    /// viewWillDisappear ends every appearance cycle, completed or cancelled (DESIGN.md §2), so viewWillAppear
    /// and viewDidDisappear are not needed: fewer callbacks to look at.
    let callbackFilter = CallbackSet([.viewDidAppear, .viewWillDisappear, .deinitialize], ends: false)
    /// Only willEnterForeground (not its end) closes confirmed cycles.
    let appFilter = AppTransitionSet([.willEnterForeground], ends: false)
    /// Callbacks, SwiftUI and app events read nothing of the replayed state (screen marks do: the owner's
    /// appearance and the attribution).
    let stateFreeCallbacks = CallbackSet.all
    let stateFreeRecords: EventInterests = [.swiftUI, .app]

    /// One screen view: where it was sent.
    private struct View {
        var name: String
        var ordinal: UInt64
        var time: UInt64
        /// The mark's source (boxed: a view is copied as its cycle grows and is counted).
        var source: SourceBox?
        /// `FeedView.onAppear` when a SwiftUI onAppear of the controller came just before, else the enclosing
        /// callback's name.
        var sentFrom: SentFrom?
        /// The UIKit callback of the controller the screen view was attributed to (`CallbackAttribution`), if any.
        var enclosing: Callback?
    }

    /// Where a screen view was sent from: its text is built only for a finding.
    private enum SentFrom {
        /// The enclosing callback's name.
        case callback(String)
        /// Just after a SwiftUI onAppear of the view named.
        case onAppear(String)

        /// E.g. `viewDidAppear`, `FeedView.onAppear`.
        var text: String {
            switch self {
            case .callback(let name): name
            case .onAppear(let view): "\(view).onAppear"
            }
        }
    }

    /// Why a screen view counted for nothing.
    private enum Extra {
        case cancelled(appearingSince: UInt64, closedBy: RelatedEvent?)
        case notAppearing(String)
        case duplicate
    }

    /// A controller's open appearance cycle.
    private struct Tracked {
        var controller: ControllerRef
        /// The position of `controller.typeName` in `types`.
        var type: Int
        /// Screen views of the current cycle, and whether it reached viewDidAppear.
        var cycle: [View] = []
        var confirmed = false
        var cycleStart: UInt64?
    }

    /// Screen views of one name by the controllers of one type: how many, how many extra, the first extras.
    private struct NameTotals {
        var views = 0
        var extra = 0
        var first: [(view: View, why: Extra, controller: ControllerRef)] = []
    }

    /// The totals of one controller type, over every instance that sent a screen view.
    private struct TypeTotals {
        var name: String
        var instances = 0
        /// viewDidAppear callbacks of those instances since their first screen view.
        var appearances = 0
        /// The screen view names in first-seen order, and their totals (`totals[i]` is of `names[i]`): a type
        /// sends few names, so a scan of `==` beats hashing the name per screen view.
        var names: [String] = []
        var totals: [NameTotals] = []

        /// The position of `name` in `names`.
        func index(of name: String) -> Int? {
            names.firstIndex(of: name)
        }
    }

    /// The callbacks whose cancelled screen views `work_before_visible` reports.
    static let beforeVisible: Set<Callback> = [.initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing]

    private let severity: Severity
    private let screenMarks: [String]
    var markFilter: MarkFilter { MarkFilter(screenMarks) }
    @exclusivity(unchecked) private var tracked = SerialMap<Tracked>()
    /// The types in first-seen order (the order findings are reported in), and their positions by name.
    @exclusivity(unchecked) private var types: [TypeTotals] = []
    @exclusivity(unchecked) private var typeIndex: [String: Int] = [:]
    /// The last SwiftUI onAppear: its ordinal, host and view name.
    /// The last SwiftUI onAppear, when `hasOnAppear`: its ordinal, host and view name (fields apart, so that a
    /// screen view reads the host's serial without copying the host's and the view's names).
    @exclusivity(unchecked) private var hasOnAppear = false
    @exclusivity(unchecked) private var onAppearOrdinal: UInt64 = 0
    @exclusivity(unchecked) private var onAppearHost: ControllerRef?
    @exclusivity(unchecked) private var onAppearView = ""

    init(settings: RuleSettings) {
        severity = settings.severity
        screenMarks = settings.names("screen_marks", default: [MarkName.analyticsScreen])
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.phase != .end, let position = tracked.position(of: record.controller) else { return }
        // The related event naming the end of an unconfirmed cycle is built only when a screen view needs it.
        func closer(_ why: String) -> () -> RelatedEvent {
            { context.related(record, "\(context.controller(of: record).displayName) \(record.callback.name) at \(context.time(record.timestamp))\(why)") }
        }
        switch record.callback {
        case .viewDidAppear:
            if !tracked[at: position].confirmed {
                types[tracked[at: position].type].appearances += 1
                tracked[at: position].confirmed = true
            }
        case .viewWillDisappear:
            if tracked[at: position].cycle.isEmpty {
                Self.resetEmpty(&tracked[at: position])
            } else {
                close(&tracked[at: position], by: closer(": the appearance ended without viewDidAppear"))
            }
        case .deinitialize:
            if !tracked[at: position].cycle.isEmpty { close(&tracked[at: position], by: closer("")) }
            tracked.removeValue(forKey: record.controller)
        default:
            break
        }
    }

    /// Reads screen marks from the record (their name code, controller and `id`/`name` field: no `Event` is built
    /// for them), and passes over, without building their `Event`, the SwiftUI events other than onAppear.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        switch record.kind {
        case .swiftUI:
            // As the `Event`'s `SwiftUIEvent` (host and view) says, read from the record.
            guard record.swiftUIAction == .onAppear else { return }
            hasOnAppear = true
            onAppearOrdinal = context.ordinal
            onAppearHost = record.hasController ? context.controller(of: record) : nil
            onAppearView = context.string(of: record) ?? ""
        case .mark:
            if record.phase != .end, isScreenMark(record, context) { observeScreenView(record, context) }
        case .app:
            guard record.appTransition == .willEnterForeground, record.phase != .end else { return }
            closeConfirmed()
        default:
            context.withEvent(of: record) { observe($0, context, &findings) }
        }
    }

    /// Whether the mark `record` is one of `screen_marks`: by its name code, or by its string for a custom name.
    private func isScreenMark(_ record: EventRecord, _ context: EventContext) -> Bool {
        if let code = record.markName, let string = code.string { return screenMarks.contains(string) }
        guard let name = context.string(of: record) else { return false }
        return screenMarks.contains(name)
    }

    /// One screen view, the mark `record`: counted in its owner's appearance cycle.
    private func observeScreenView(_ record: EventRecord, _ context: EventContext) {
        // The owner as `MarkOwner.of(_:_:)` finds it, from the record.
        var owner = record.hasController ? context.controller(of: record) : context.attribution.enclosing(of: nil)?.controller
        if owner == nil, hasOnAppear, onAppearOrdinal + 1 == context.ordinal { owner = onAppearHost }
        guard let owner else { return }
        // Two fields of the owner's record, read in place (`context.state[owner]` copied the whole record).
        let (appearance, appearanceSince) = context.state.controllers.appearance(of: owner.serial) ?? (.unknown, nil)
        if appearance == .unknown { return }
        let enclosing = context.attribution.enclosing(of: owner)
        let enclosingName = enclosing?.name
        var sentFrom = enclosingName.map(SentFrom.callback)
        if hasOnAppear, onAppearHost?.serial == owner.serial, enclosingName == nil || enclosingName == Callback.viewWillAppear.name || enclosingName == Callback.viewIsAppearing.name || enclosingName == Callback.viewDidLayoutSubviews.name {
            sentFrom = .onAppear(onAppearView)
        }
        // The identifier as `MarkOwner.identifier(_:)` reads it: the `id` field, else the `name` field.
        let name = (context.field(.id, of: record) ?? context.field(.name, of: record))?.description ?? ""
        let view = View(name: name, ordinal: context.ordinal, time: record.timestamp, source: context.source.map(SourceBox.init), sentFrom: sentFrom, enclosing: enclosing?.callback)
        // The entry is changed in place (copying it out and back copied its cycle's array on append).
        let position: Int
        if let found = tracked.position(of: owner.serial) {
            position = found
        } else {
            tracked[owner.serial] = start(owner, appearance: appearance, at: record.timestamp)
            position = tracked.count - 1  // a new entry is stored last (`SerialMap`)
        }
        // The owner's type: the tracked entry's, unless the owner is named with another type here (one serial under
        // two names), then looked up by name as for a new entry.
        let type = owner.typeName == tracked[at: position].controller.typeName ? tracked[at: position].type : typeIndex[owner.typeName]!
        Self.countView(view.name, in: &types[type])
        switch appearance {
        case .appearing, .appeared:
            if tracked[at: position].cycle.isEmpty, appearance == .appearing { tracked[at: position].cycleStart = appearanceSince ?? record.timestamp }
            tracked[at: position].cycle.append(view)
        case .disappearing, .disappeared, .unknown:
            count(view, .notAppearing(appearance.name), in: &tracked[at: position])
        }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        switch event.payload {
        case .recorder(.runStarted) where context.ordinal > 0:
            for serial in tracked.keys.sorted() { close(&tracked[serial]!) }
            tracked.removeAll()
        default:
            break
        }
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        for serial in tracked.keys.sorted() { close(&tracked[serial]!) }
        tracked.removeAll()
        for type in types.indices { report(type, end.time, &findings) }
    }

    /// willEnterForeground: the confirmed cycles close (and stay confirmed).
    private func closeConfirmed() {
        for position in 0..<tracked.count where tracked[at: position].confirmed {
            close(&tracked[at: position])
            tracked[at: position].confirmed = true
        }
    }

    /// Counts a screen view named `name` in `type`.
    private static func countView(_ name: String, in type: inout TypeTotals) {
        if let index = type.index(of: name) {
            type.totals[index].views += 1
        } else {
            type.names.append(name)
            type.totals.append(NameTotals(views: 1))
        }
    }

    /// What `close` does to an entry whose cycle is empty.
    @inline(__always)
    private static func resetEmpty(_ entry: inout Tracked) {
        entry.confirmed = false
        entry.cycleStart = nil
    }

    /// Starts tracking `controller` at its first screen view, in the middle of its current cycle.
    private func start(_ controller: ControllerRef, appearance: Appearance, at time: UInt64) -> Tracked {
        let type: Int
        if let known = typeIndex[controller.typeName] {
            type = known
        } else {
            type = types.count
            types.append(TypeTotals(name: controller.typeName))
            typeIndex[controller.typeName] = type
        }
        var entry = Tracked(controller: controller, type: type)
        entry.confirmed = appearance == .appeared
        entry.cycleStart = time
        types[type].instances += 1
        if appearance == .appeared { types[type].appearances += 1 }
        return entry
    }

    /// Ends the current appearance cycle: one screen view per name counts if it reached viewDidAppear.
    private func close(_ entry: inout Tracked, by closer: (() -> RelatedEvent)? = nil) {
        guard !entry.cycle.isEmpty else {
            Self.resetEmpty(&entry)
            return
        }
        // The names seen in this cycle so far: views before `index` (a cycle holds few views).
        for index in entry.cycle.indices {
            let view = entry.cycle[index]
            if !entry.confirmed {
                // `work_before_visible` reports work (a screen view included) started in these callbacks for an
                // appearance that does not complete; it is not reported twice.
                if let callback = view.enclosing, Self.beforeVisible.contains(callback) { continue }
                count(view, .cancelled(appearingSince: entry.cycleStart ?? view.time, closedBy: closer?()), in: &entry)
            } else if entry.cycle[..<index].contains(where: { $0.name == view.name }) {
                count(view, .duplicate, in: &entry)
            }
        }
        // The cycle's storage is kept for the next one (few views each; freed with the entry at deinit).
        entry.cycle.removeAll(keepingCapacity: true)
        entry.confirmed = false
        entry.cycleStart = nil
    }

    private func count(_ view: View, _ why: Extra, in entry: inout Tracked) {
        let type = entry.type
        let index = types[type].index(of: view.name)!
        types[type].totals[index].extra += 1
        if types[type].totals[index].first.count < 3 { types[type].totals[index].first.append((view, why, entry.controller)) }
    }

    private func report(_ position: Int, _ clock: (UInt64) -> String, _ findings: inout [Finding]) {
        let type = types[position]
        let typeName = type.name
        for (name, total) in zip(type.names, type.totals) {
            guard total.extra > 0, let first = total.first.first else { continue }
            let several = type.instances > 1
            let who = several ? "\(typeName) (\(type.instances) instances)" : first.controller.displayName
            let label = name.isEmpty ? "screen view" : "screen view '\(name)'"
            var message = "\(who) sent \(label) \(total.views) time\(total.views == 1 ? "" : "s") but completed \(type.appearances) appearance\(type.appearances == 1 ? "" : "s") (viewDidAppear); \(total.extra) counted for no completed appearance: "
            message += total.first.map { view, why, controller in
                let place = (several ? " in \(controller.displayName)" : "") + (view.sentFrom.map { " from \($0.text)" } ?? "")
                return switch why {
                case .cancelled(let since, _): "at \(clock(view.time))\(place), in an appearance begun at \(clock(since)) and cancelled (viewWillDisappear, no viewDidAppear)"
                case .notAppearing(let state): "at \(clock(view.time))\(place), while \(controller.displayName) was \(state)"
                case .duplicate: "at \(clock(view.time))\(place), a second time in the same appearance"
                }
            }.joined(separator: "; ") + (total.extra > total.first.count ? "; …" : "") + "."
            var related: [RelatedEvent] = []
            for (index, entry) in total.first.enumerated() {
                if index > 0 {
                    related.append(RelatedEvent(ordinal: entry.view.ordinal, timestamp: entry.view.time, message: "\(label) at \(clock(entry.view.time))\(entry.view.sentFrom.map { " from \($0.text)" } ?? "")", source: entry.view.source?.source))
                }
                if case .cancelled(_, let closer?) = entry.why { related.append(closer) }
            }
            findings.append(Finding(
                ruleID: AnalyticsOvercountRule.id, severity: severity, controller: first.controller.displayName,
                timestamp: first.view.time, ordinal: first.view.ordinal, callback: first.view.sentFrom?.text,
                message: message, related: related, source: first.view.source?.source
            ))
        }
    }
}
