import Replay
import TraceModel

/// `work_before_visible`: user-visible work started before the screen is visible, for a screen that then does not
/// become visible (in time, or at all).
struct WorkBeforeVisibleRule: AuditRule {
    static let id = "work_before_visible"

    /// The marks that count as user-visible work unless the configuration says otherwise. `playback.start` is not a
    /// standard mark; it is listed so an app that records one is covered.
    static let defaultMarks = [MarkName.timerStart, MarkName.requestStart, MarkName.animationStart, MarkName.analyticsScreen, "playback.start"]

    /// The callbacks that run before a controller's view is visible.
    static let earlyCallbacks: [Callback] = [.initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing]

    static let defaultGrace: UInt64 = 1_000_000_000

    static let rule = Rule(Self.self) { WorkBeforeVisibleRule(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "Work the user should see (a timer, a request, an animation, a screen-view analytics event, playback) starts in init, loadView, viewDidLoad, viewWillAppear or viewIsAppearing, and the controller then does not become visible: its appearance begins more than `grace` later, is cancelled, or never comes before it disappears or deinitializes.",
            defaultSeverity: .warning,
            severityNote: "inconclusive (the configuration's `inconclusive_severity`, a note by default) when the trace or the process ends while the controller could still appear in time",
            parameters: [
                RuleParameter(
                    name: "marks", kind: .names, defaultValue: .names(defaultMarks), unit: "mark names",
                    summary: "The marks that count as user-visible work (add your app's own, such as `video.play`)."
                ),
                RuleParameter(
                    name: "grace", kind: .duration, defaultValue: .duration(defaultGrace), unit: "s (trace clock)",
                    summary: "How long after work started in init, loadView or viewDidLoad the controller's viewWillAppear may begin."
                ),
            ],
            explanation: """
                viewDidLoad runs when the view is first loaded into memory (Apple, "viewDidLoad()"), which is \
                whenever something first reads `view`: a container preloading its tabs, code calling \
                loadViewIfNeeded(), a controller built and kept for later. It can run long before the screen is \
                shown, and for a screen that is never shown (docs/LIFECYCLE.md: a controller can die without ever \
                appearing). viewWillAppear and viewIsAppearing run before the view is on screen and before the \
                transition has finished; the transition can still be cancelled (an interactive pop or a page scroll \
                gives viewWillAppear then viewWillDisappear, no viewDidAppear; docs/LIFECYCLE.md). viewDidAppear is the \
                point where the view is in the window and the transition is over (Apple, "viewDidAppear(_:)"). \
                Work the user is meant to see or that is counted as seen — a refreshing timer, an image request, an \
                animation, an `analytics.screen` event, playback — started earlier is wasted, or counted, for a \
                screen that did not show. The rule takes the `marks` attributed to one of the controller's early \
                callbacks (see "Attribution" in docs/RULES.md) and reports, once per callback run, when the \
                controller's viewWillAppear begins more than `grace` after work started in init, loadView or \
                viewDidLoad, or when the controller gets viewWillDisappear, viewDidDisappear or deinit before any \
                viewDidAppear. Work started right before a normal appearance (viewDidLoad, then viewWillAppear and \
                viewDidAppear within the transition) is not reported. A controller whose view was added to another \
                controller's view without containment gets no appearance callbacks at all (`orphan_child` reports \
                that), so it is skipped.
                """,
            fix: """
                Start what the user should see, and count screen views, in viewDidAppear (stop it in \
                viewWillDisappear/viewDidDisappear); keep viewDidLoad for one-time setup of the view. If the data must \
                be ready early, prefetch it in a model object rather than from a view that may never show, and do \
                not load views ahead of time (loadViewIfNeeded, reading `view`) for screens that may not be shown.
                """,
            needs: defaultMarks.map { .mark($0) },
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let home = ExampleTrace.controller(1, "HomeViewController")
        let dashboard = ExampleTrace.controller(2, "DashboardViewController")
        let refresh = MarkEvent(MarkName.timerStart, controller: dashboard, fields: [MarkField("id", .string("refresh"))])
        let screen = MarkEvent(MarkName.analyticsScreen, controller: home, fields: [MarkField("name", .string("home"))])

        var preloaded = ExampleTrace()
        preloaded.callback(.initialize, dashboard)
        preloaded.interval(.viewDidLoad, dashboard) { $0.mark(refresh) }
        preloaded.wait(20)
        preloaded.callback(.viewWillAppear, dashboard)
        preloaded.callback(.viewDidAppear, dashboard)

        var onTime = ExampleTrace()
        onTime.callback(.initialize, dashboard)
        onTime.interval(.viewDidLoad, dashboard) { $0.mark(refresh) }
        onTime.callback(.viewWillAppear, dashboard)
        onTime.callback(.viewIsAppearing, dashboard)
        onTime.callback(.viewDidAppear, dashboard)

        // The list under a swipe-back: it gets viewWillAppear, the swipe-back is cancelled, it never appears.
        var cancelled = ExampleTrace()
        cancelled.appear(home)
        cancelled.callback(.viewWillDisappear, home)
        cancelled.callback(.viewDidDisappear, home)
        cancelled.interval(.viewWillAppear, home) { $0.mark(screen) }
        cancelled.callback(.viewWillDisappear, home)
        cancelled.callback(.viewDidDisappear, home)

        var counted = ExampleTrace()
        counted.appear(home)
        counted.callback(.viewWillDisappear, home)
        counted.callback(.viewDidDisappear, home)
        counted.callback(.viewWillAppear, home)
        counted.callback(.viewWillDisappear, home)
        counted.callback(.viewDidDisappear, home)
        counted.callback(.viewWillAppear, home)
        counted.interval(.viewDidAppear, home) { $0.mark(screen) }

        return [
            RuleExample(title: "refresh timer started in viewDidLoad of a preloaded tab shown 20 s later", events: preloaded.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "refresh timer started in viewDidLoad right before the screen appears", events: onTime.events, expectedFindings: 0),
            RuleExample(title: "screen view sent in viewWillAppear; the appearance is cancelled", events: cancelled.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "screen view sent in viewDidAppear; a cancelled appearance sends nothing", events: counted.events, expectedFindings: 0),
        ]
    }

    /// The work started in one run of one early callback of one controller.
    struct Batch {
        var controller: UInt32
        var name: String
        var callback: Callback
        /// The callback's begin (or instant).
        var callbackOrdinal: UInt64
        var callbackTime: UInt64
        var marks: [String]
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
        /// Started inside an appearance (viewWillAppear, viewIsAppearing) rather than at load time; a load-time
        /// batch becomes `appearing` when the controller's viewWillAppear begins within the grace period.
        var appearing: Bool
    }

    let settings: RuleSettings
    let marks: [String]
    let grace: UInt64
    let facts: [FactKind]
    var pending: [UInt32: [Batch]] = [:]

    init(settings: RuleSettings) {
        self.settings = settings
        marks = settings.names("marks", default: Self.defaultMarks)
        grace = settings.duration("grace", default: Self.defaultGrace)
        facts = marks.map { .mark($0) } + FactKind.callbacks(.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .deinitialize) + [.runStarted]
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .mark(let mark):
            guard let callback = mark.enclosingCallback, Self.earlyCallbacks.contains(callback), let owner = mark.enclosingController,
                  mark.owner == nil || mark.owner == owner, let enclosing = mark.enclosing else { return }
            start(mark.label, owner, callback, enclosing, replay)
        case .callback(let callback) where callback.isStart:
            guard let batches = pending[callback.controller] else { return }
            settle(batches, callback, replay, &findings)
        case .runStarted(_, let previous):
            guard !pending.isEmpty else { return }
            let end = previous ?? replay.timestamp
            let related = replay.related("a new recording run started at \(replay.time(replay.timestamp)): the previous process ended at \(replay.time(end))")
            reportAll(end: end, endText: "its process ended at \(replay.time(end)) (a new recording run started)", related: related, replay, &findings)
        default:
            break
        }
    }

    mutating func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        guard !pending.isEmpty else { return }
        reportAll(end: replay.timestamp, endText: "the trace ended at \(replay.time(replay.timestamp))", related: nil, replay, &findings)
    }

    /// A callback of a controller with work waiting: viewWillAppear within the grace makes it appearing,
    /// viewDidAppear clears it, anything else (or a late viewWillAppear) reports it.
    private mutating func settle(_ batches: [Batch], _ callback: CallbackFact, _ replay: ReplayView, _ findings: inout [Finding]) {
        let serial = callback.controller
        let now = replay.timestamp
        let name = replay.name(of: serial)
        switch callback.callback {
        case .viewWillAppear:
            var waiting: [Batch] = []
            for var batch in batches {
                if !batch.appearing, now - batch.timestamp > grace {
                    report(batch, "its appearance began only at \(replay.time(now)) (viewWillAppear, \(TimeText.duration(now - batch.timestamp)) later, beyond the \(TimeText.duration(grace)) grace)", replay.related("\(name) viewWillAppear at \(replay.time(now))"), .violation, replay, &findings)
                } else {
                    batch.appearing = true
                    waiting.append(batch)
                }
            }
            pending[serial] = waiting.isEmpty ? nil : waiting
        case .viewDidAppear:
            pending[serial] = nil
        default:
            pending[serial] = nil
            let what = switch callback.callback {
            case .viewWillDisappear: "it got viewWillDisappear at \(replay.time(now)) before any viewDidAppear: the appearance was cancelled"
            case .viewDidDisappear: "it got viewDidDisappear at \(replay.time(now)) without appearing"
            default: "it was deinitialized at \(replay.time(now)) before any viewDidAppear"
            }
            let related = replay.related("\(name) \(callback.callback.name) at \(replay.time(now))")
            for batch in batches { report(batch, what, related, .violation, replay, &findings) }
        }
    }

    /// Work (the mark labelled `label`) started in `callback` of `owner`, which began at `enclosing`.
    private mutating func start(_ label: String, _ owner: UInt32, _ callback: Callback, _ enclosing: ActiveCallback, _ replay: ReplayView) {
        if let index = pending[owner]?.lastIndex(where: { $0.callbackOrdinal == enclosing.ordinal }) {
            pending[owner]![index].marks.append(label)
            return
        }
        pending[owner, default: []].append(Batch(
            controller: owner, name: replay.name(of: owner), callback: callback, callbackOrdinal: enclosing.ordinal, callbackTime: enclosing.since,
            marks: [label], ordinal: replay.ordinal, timestamp: replay.timestamp, source: replay.source,
            appearing: callback == .viewWillAppear || callback == .viewIsAppearing))
    }

    /// The trace or the process ended with work pending: a load-time batch older than the grace is a violation
    /// (the screen did not start appearing in time), anything else is inconclusive.
    private mutating func reportAll(end: UInt64, endText: String, related: RelatedEvent?, _ replay: ReplayView, _ findings: inout [Finding]) {
        for serial in pending.keys.sorted() {
            for batch in pending[serial] ?? [] {
                let late = !batch.appearing && end - min(end, batch.timestamp) > grace
                let what = batch.appearing
                    ? "\(endText) while it was still appearing (no viewDidAppear)"
                    : "\(endText) and it had not started appearing (no viewWillAppear)"
                report(batch, what, related, late ? .violation : .inconclusive, replay, &findings)
            }
        }
        pending.removeAll()
    }

    private func report(_ batch: Batch, _ what: String, _ outcome: RelatedEvent?, _ verdict: Verdict, _ replay: ReplayView, _ findings: inout [Finding]) {
        // A view attached by hand to another controller's view, outside any containment, is visible without appearance callbacks.
        if replay.withController(batch.controller, { $0.viewAttachedTo != nil && $0.parent.serial == nil }) == true { return }
        let message = "\(batch.name) starts work in \(batch.callback.name) at \(replay.time(batch.timestamp)) (\(batch.marks.joined(separator: ", "))), before its view is visible, and \(what)."
        var related = [RelatedEvent(ordinal: batch.callbackOrdinal, timestamp: batch.callbackTime, message: "\(batch.name) \(batch.callback.name) at \(replay.time(batch.callbackTime))")]
        if let outcome { related.append(outcome) }
        findings.append(Finding(
            ruleID: Self.id, severity: verdict == .violation ? settings.severity : settings.inconclusiveSeverity, verdict: verdict,
            controller: batch.name, timestamp: batch.timestamp, ordinal: batch.ordinal, callback: batch.callback.name,
            message: message, related: related, source: batch.source))
    }
}
