import Replay
import TraceLog
import TraceModel

/// `work_before_visible`: user-visible work started before the screen is visible, for a screen that then does not
/// become visible (in time, or at all).
enum WorkBeforeVisibleRule {
    static let id = "work_before_visible"

    /// The marks that count as user-visible work unless the configuration says otherwise. `playback.start` is not a
    /// standard mark; it is listed so an app that records one is covered.
    static let defaultMarks = [MarkName.timerStart, MarkName.requestStart, MarkName.animationStart, MarkName.analyticsScreen, "playback.start"]

    /// The callbacks that run before a controller's view is visible.
    static let earlyCallbacks: [Callback] = [.initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing]

    static let defaultGrace: UInt64 = 1_000_000_000

    static let rule = Rule(descriptor) { WorkBeforeVisibleMonitor(settings: $0) }

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
                shown, and for a screen that is never shown (DESIGN.md §2: a controller can die without ever \
                appearing). viewWillAppear and viewIsAppearing run before the view is on screen and before the \
                transition has finished; the transition can still be cancelled (an interactive pop or a page scroll \
                gives viewWillAppear then viewWillDisappear, no viewDidAppear; DESIGN.md §2). viewDidAppear is the \
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
}

/// The monitor of `work_before_visible`.
final class WorkBeforeVisibleMonitor: RuleMonitor {
    /// The work started in one run of one early callback of one controller.
    struct Batch {
        var controller: ControllerRef
        var callback: Callback
        /// The ordinal and timestamp of the callback's begin (or instant).
        var callbackOrdinal: UInt64
        var callbackTime: UInt64
        /// The work's marks; their labels' text is only built when a finding is made.
        var marks: [MarkLabel]
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
        /// Started inside an appearance (viewWillAppear, viewIsAppearing) rather than at load time; a load-time
        /// batch becomes `appearing` when the controller's viewWillAppear begins within the grace period.
        var appearing: Bool
    }

    let interests: EventInterests = [.callbacks, .marks, .recorder]
    /// No fixed callbacks: `observe(callback:_:_:)` ignores every callback while no work waits, so it asks for
    /// `watched` only while some does (`callbackDemand`, `updateDemand()`).
    let callbackFilter: CallbackSet = []
    let callbackDemand: CallbackDemand? = CallbackDemand()
    private static let watched = CallbackSet([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .deinitialize], ends: false)
    /// Whether `callbackDemand` holds `watched`.
    @exclusivity(unchecked) private var isDemanding = false
    private let settings: RuleSettings
    /// Few names: a linear scan of `==` on (usually small) strings is cheaper than hashing each mark's name.
    private let marks: [String]
    var markFilter: MarkFilter { MarkFilter(marks) }
    /// `marks`, matched on records by interned name code (a string comparison per name only for a custom name).
    private let markNames: MarkNames
    /// `WorkBeforeVisibleRule.earlyCallbacks` as bits by raw value (tested inline at each work mark).
    private static let earlyBits: UInt32 = WorkBeforeVisibleRule.earlyCallbacks.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
    private let grace: UInt64
    @exclusivity(unchecked) private var pending = SerialMap<[Batch]>()
    @exclusivity(unchecked) private var lastContext: EventContext?

    init(settings: RuleSettings) {
        self.settings = settings
        marks = settings.names("marks", default: WorkBeforeVisibleRule.defaultMarks)
        markNames = MarkNames(marks)
        grace = settings.duration("grace", default: WorkBeforeVisibleRule.defaultGrace)
    }

    /// Asks for `watched` exactly while work waits (written only when that changes).
    private func updateDemand() {
        guard pending.isEmpty == isDemanding else { return }
        isDemanding = !pending.isEmpty
        callbackDemand!.extra = isDemanding ? Self.watched : []
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        defer { updateDemand() }
        // Looked up in place: copying the controller's batches out cost a retain per call, and more per batch.
        guard !pending.isEmpty, record.phase != .end, let position = pending.position(of: record.controller) else { return }
        lastContext = context
        let serial = record.controller
        switch record.callback {
        case .viewWillAppear:
            // Usually every batch is within the grace and just becomes `appearing`, changed where it is stored.
            let late = pending[at: position].contains { !$0.appearing && record.timestamp - $0.timestamp > grace }
            if !late {
                pending.update(at: position) { batches in
                    for index in batches.indices { batches[index].appearing = true }
                }
                return
            }
            guard let batches = pending[serial] else { return }
            var waiting: [Batch] = []
            for var batch in batches {
                if !batch.appearing, record.timestamp - batch.timestamp > grace {
                    report(batch, "its appearance began only at \(context.time(record.timestamp)) (viewWillAppear, \(TimeText.duration(record.timestamp - batch.timestamp)) later, beyond the \(TimeText.duration(grace)) grace)", context.related(record, "\(context.controller(of: record).displayName) viewWillAppear at \(context.time(record.timestamp))"), .violation, &findings)
                } else {
                    batch.appearing = true
                    waiting.append(batch)
                }
            }
            pending[serial] = waiting.isEmpty ? nil : waiting
        case .viewDidAppear:
            pending.removeValue(forKey: serial)
        default:
            guard let batches = pending.removeValue(forKey: serial) else { return }
            let what = switch record.callback {
            case .viewWillDisappear: "it got viewWillDisappear at \(context.time(record.timestamp)) before any viewDidAppear: the appearance was cancelled"
            case .viewDidDisappear: "it got viewDidDisappear at \(context.time(record.timestamp)) without appearing"
            default: "it was deinitialized at \(context.time(record.timestamp)) before any viewDidAppear"
            }
            let related = context.related(record, "\(context.controller(of: record).displayName) \(record.callback.name) at \(context.time(record.timestamp))")
            for batch in batches { report(batch, what, related, .violation, &findings) }
        }
    }

    /// A work mark matters only inside an early callback of its own controller (`start`): read from the record (the
    /// attribution needs only the mark's controller serial; no `Event` is built).
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        defer { updateDemand() }
        guard record.kind == .mark else {
            context.withEvent(of: record) { observe($0, context, &findings) }
            return
        }
        // The raw attribution first: no `ControllerRef` is built for a mark outside an early callback.
        guard let active = context.attribution.enclosingActive(ofSerial: record.hasController ? record.controller : nil),
              case .controller(let callback) = active.kind, Self.earlyBits & 1 << UInt32(callback.rawValue) != 0,
              !record.hasController || active.controllerSerial == record.controller else { return }
        guard markNames.contains(record, context), let ref = context.attribution.controllerRef(of: active) else { return }
        // The mark's controller must be the callback's by name too (`ControllerRef` equality), as `start` says.
        if record.hasController, context.controller(of: record) != ref { return }
        start(MarkLabel(record, context), at: record.timestamp, ref, callback, callbackOrdinal: active.ordinal, callbackTime: active.since, context)
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        defer { updateDemand() }
        switch event.payload {
        case .recorder(.runStarted) where context.ordinal > 0:
            guard !pending.isEmpty else { return }
            lastContext = context
            let end = context.previousTimestamp ?? event.timestamp
            let related = context.related(event, "a new recording run started at \(context.time(event.timestamp)): the previous process ended at \(context.time(end))")
            reportAll(end: end, endText: "its process ended at \(context.time(end)) (a new recording run started)", related: related, &findings)
        default:
            break
        }
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        guard !pending.isEmpty else { return }
        reportAll(end: end.lastTimestamp, endText: "the trace ended at \(end.time(end.lastTimestamp))", related: nil, &findings)
    }

    /// Work (the mark labelled `mark`, at `timestamp`) started in `callback` of `ref`, whose begin (or instant) is
    /// `callbackOrdinal` at `callbackTime`.
    private func start(_ mark: MarkLabel, at timestamp: UInt64, _ ref: ControllerRef, _ callback: Callback, callbackOrdinal: UInt64, callbackTime: UInt64, _ context: EventContext) {
        lastContext = context
        let position = pending.position(of: ref.serial)
        // In place: copying the batches out and back copied every batch and its marks.
        if let position, let index = pending[at: position].lastIndex(where: { $0.callbackOrdinal == callbackOrdinal }) {
            pending[at: position][index].marks.append(mark)
            return
        }
        let appearing = callback == .viewWillAppear || callback == .viewIsAppearing
        let batch = Batch(
            controller: ref, callback: callback, callbackOrdinal: callbackOrdinal, callbackTime: callbackTime,
            marks: [mark], ordinal: context.ordinal, timestamp: timestamp, source: context.source, appearing: appearing
        )
        if let position {
            pending[at: position].append(batch)
        } else {
            pending[ref.serial] = [batch]
        }
    }

    /// The trace or the process ended with work pending: a load-time batch older than the grace is a violation
    /// (the screen did not start appearing in time), anything else is inconclusive.
    private func reportAll(end: UInt64, endText: String, related: RelatedEvent?, _ findings: inout [Finding]) {
        for serial in pending.keys.sorted() {
            for batch in pending[serial] ?? [] {
                let late = !batch.appearing && end - min(end, batch.timestamp) > grace
                let what = batch.appearing
                    ? "\(endText) while it was still appearing (no viewDidAppear)"
                    : "\(endText) and it had not started appearing (no viewWillAppear)"
                report(batch, what, related, late ? .violation : .inconclusive, &findings)
            }
        }
        pending.removeAll()
    }

    private func report(_ batch: Batch, _ what: String, _ outcome: RelatedEvent?, _ verdict: Verdict, _ findings: inout [Finding]) {
        if let state = lastContext?.state[batch.controller], state.viewAttachedTo != nil, state.parent.serial == nil { return }
        let name = batch.controller.displayName
        let start = TimeText.seconds(batch.timestamp - min(batch.timestamp, lastContext?.traceStart ?? 0))
        let message = "\(name) starts work in \(batch.callback.name) at \(start) (\(batch.marks.map(\.text).joined(separator: ", "))), before its view is visible, and \(what)."
        var related = [RelatedEvent(ordinal: batch.callbackOrdinal, timestamp: batch.callbackTime, message: "\(name) \(batch.callback.name) at \(TimeText.seconds(batch.callbackTime - min(batch.callbackTime, lastContext?.traceStart ?? 0)))")]
        if let outcome { related.append(outcome) }
        findings.append(Finding(
            ruleID: WorkBeforeVisibleRule.id, severity: verdict == .violation ? settings.severity : settings.inconclusiveSeverity, verdict: verdict,
            controller: name, timestamp: batch.timestamp, ordinal: batch.ordinal, callback: batch.callback.name,
            message: message, related: related, source: batch.source
        ))
    }
}
