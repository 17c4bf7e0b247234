import Replay
import TraceLog
import TraceModel

/// `timer_under_sheet`: a screen covered by a sheet (or another presentation that leaves the presenter's view in
/// place) keeps a timer running.
enum TimerUnderSheetRule {
    static let id = "timer_under_sheet"
    static let defaultGrace: UInt64 = 1_000_000_000
    /// The presentation styles that cover the presenter without removing its view (a popover or a custom
    /// presentation may leave most of it visible, so they are not judged unless configured).
    static let defaultStyles: [ModalPresentationStyle] = [.automatic, .pageSheet, .formSheet, .overFullScreen, .overCurrentContext]

    static let rule = Rule(descriptor) { TimerUnderSheetMonitor(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A timer of a screen that a pageSheet, formSheet, overFullScreen or overCurrentContext presentation covers keeps running under it for longer than the grace period.",
            defaultSeverity: .warning,
            parameters: [
                RuleParameter(
                    name: "grace", kind: .duration, defaultValue: .duration(defaultGrace), unit: "s (trace clock)",
                    summary: "How long a covered screen's timer may keep running under the presentation before it is reported."
                ),
                RuleParameter(
                    name: "styles", kind: .names, defaultValue: .names(defaultStyles.map(\.name)), unit: "presentation styles",
                    summary: "The modalPresentationStyle names (UIKit's spelling) whose presentations count as covering the screen; add `popover` or `custom` when yours cover it. Names UIKit does not have are ignored."
                ),
                RuleParameter(
                    name: "start_marks", kind: .names, defaultValue: .names([MarkName.timerStart]), unit: "mark names",
                    summary: "Marks that start a timer (or any periodic work: polling, a display link); the timer is named by the mark's `id` field, else its `name` field."
                ),
                RuleParameter(
                    name: "stop_marks", kind: .names, defaultValue: .names([MarkName.timerStop]), unit: "mark names",
                    summary: "Marks that stop the timer with the same `id` (or `name`)."
                ),
            ],
            explanation: """
                When a controller is presented with pageSheet or formSheet (iOS 13 and later, and `automatic`, \
                which resolves to pageSheet), overFullScreen, overCurrentContext, popover or a custom \
                presentation, UIKit leaves the presenting controller's view in the hierarchy and calls none of \
                its appearance callbacks, neither on present nor on dismiss; only fullScreen and currentContext \
                remove the presenter's view and give it viewWillDisappear/viewDidDisappear (Apple, \
                "UIModalPresentationStyle.fullScreen": the presenter's views are removed after the presentation; \
                "UIModalPresentationStyle.pageSheet": the presentation partially covers the underlying content; \
                "UIPresentationController.shouldRemovePresentersView"; DESIGN.md §2, "present pageSheet/formSheet \
                (iOS 13+) … only B gets callbacks … a covered screen keeps its timers running"). A timer stopped \
                in viewWillDisappear or viewDidDisappear therefore keeps firing the whole time a sheet covers \
                the screen: refreshes nobody sees, network and battery spent. The rule follows timers (`start_marks` \
                and `stop_marks`, by owner and id; a mark without a controller belongs to the controller whose \
                callback encloses it) and `present` container events with one of `styles` (by default the sheets, `automatic`, \
                overFullScreen and overCurrentContext; a popover or a custom presentation may leave most of the \
                screen visible, so a timer running under it may be intended): every timer of a \
                controller that is `appeared` when the sheet is presented (or that starts while it is covered) \
                and still runs `grace` after the sheet came up is reported when the sheet goes (dismiss, \
                presentationControllerDidDismiss, the presented controller's deinit), when the timer stops, or \
                when the trace ends. Traces without container events (imported console logs) do not show the \
                presentation and are not judged. One finding per controller type and timer id, at the \
                presentation.
                """,
            fix: """
                Pause the timer where the sheet is presented (the code that calls present(_:animated:)), and \
                resume it when the sheet goes: in presentationControllerDidDismiss(_:) for a swipe-down \
                (UIAdaptivePresentationControllerDelegate; not called for a programmatic dismiss) and in the \
                completion of a programmatic dismiss(animated:completion:). Keep stopping it in \
                viewWillDisappear/viewDidDisappear for pushes and full-screen presentations, and invalidate it in \
                deinit.
                """,
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let dashboard = ExampleTrace.controller(1, "DashboardViewController")
        let filters = ExampleTrace.controller(2, "FiltersViewController")
        let start = MarkEvent(MarkName.timerStart, controller: dashboard, fields: [MarkField("id", .string("refresh"))])
        let stop = MarkEvent(MarkName.timerStop, controller: dashboard, fields: [MarkField("id", .string("refresh"))])

        func sheet(_ trace: inout ExampleTrace, pausing: Bool) {
            trace.callback(.initialize, dashboard)
            trace.callback(.viewDidLoad, dashboard)
            trace.callback(.viewWillAppear, dashboard)
            trace.interval(.viewDidAppear, dashboard) { $0.mark(start) }
            trace.wait(2)
            if pausing { trace.mark(stop) }
            trace.callback(.initialize, filters)
            trace.container(.present, dashboard, [filters], style: .pageSheet)
            trace.callback(.viewDidLoad, filters)
            trace.callback(.viewWillAppear, filters)
            trace.callback(.viewDidAppear, filters)
            trace.wait(30)
            trace.container(.presentationControllerWillDismiss, dashboard, [filters])
            trace.callback(.viewWillDisappear, filters)
            trace.callback(.viewDidDisappear, filters)
            trace.container(.presentationControllerDidDismiss, dashboard, [filters])
            if pausing { trace.mark(start) }
            trace.callback(.deinitialize, filters)
        }
        var running = ExampleTrace()
        sheet(&running, pausing: false)
        var paused = ExampleTrace()
        sheet(&paused, pausing: true)

        var fullScreen = ExampleTrace()
        fullScreen.callback(.initialize, dashboard)
        fullScreen.callback(.viewDidLoad, dashboard)
        fullScreen.callback(.viewWillAppear, dashboard)
        fullScreen.interval(.viewDidAppear, dashboard) { $0.mark(start) }
        fullScreen.callback(.initialize, filters)
        fullScreen.container(.present, dashboard, [filters], style: .fullScreen)
        fullScreen.callback(.viewDidLoad, filters)
        fullScreen.callback(.viewWillDisappear, dashboard)
        fullScreen.callback(.viewWillAppear, filters)
        fullScreen.callback(.viewDidAppear, filters)
        fullScreen.interval(.viewDidDisappear, dashboard) { $0.mark(stop) }
        fullScreen.wait(30)
        return [
            RuleExample(title: "refresh timer stopped only in viewDidDisappear; a pageSheet covers the dashboard for 30 s", events: running.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "timer paused before presenting the sheet, resumed in presentationControllerDidDismiss", events: paused.events, expectedFindings: 0),
            RuleExample(title: "a fullScreen presentation: the dashboard gets viewDidDisappear and stops its timer there", events: fullScreen.events, expectedFindings: 0),
        ]
    }
}

/// The monitor of `timer_under_sheet`.
final class TimerUnderSheetMonitor: RuleMonitor {
    let interests: EventInterests = [.marks, .containers, .callbacks, .recorder]
    /// Deinits (begin or instant): one matters only while a timer runs or a presentation is up, but other rules take
    /// every deinit begin, so the engine dispatches them anyway; a fixed filter costs less than a demand switched on
    /// and off each time the first timer starts or the last one stops (each switch re-reads every demand).
    let callbackFilter = CallbackSet([.deinitialize], ends: false)
    let containerFilter = ContainerOperationSet([.present, .dismiss, .presentationControllerDidDismiss])
    /// Deinit and dismissals read nothing of the replayed state (presentations and marks do: appearance,
    /// attribution).
    let stateFreeCallbacks = CallbackSet.all
    let stateFreeContainers = ContainerOperationSet([.dismiss, .presentationControllerDidDismiss])

    private struct Timer {
        var owner: ControllerRef
        var id: String
        var start: UInt64
        var ordinal: UInt64
        /// The callback it started in (`CallbackAttribution.enclosingActive(ofSerial:)`); named only for a finding.
        var startedIn: ActiveCallback?
        /// The start mark's source (boxed: a timer is copied into the covers it runs under).
        var source: SourceBox?
    }

    /// A timer running while its controller is covered: since when it counts as covered.
    private struct CoveredTimer {
        var timer: Timer
        var since: UInt64
    }

    /// A presentation that leaves the presenter's view (and its timers) in place.
    private struct Cover {
        var presented: ControllerRef
        var presenter: ControllerRef?
        var style: ModalPresentationStyle
        var time: UInt64
        var ordinal: UInt64
        var source: SourceBox?
        /// The covered controllers' serials, each once (few: a short list scanned with `==`).
        var covered: [UInt32]
        var timers: [CoveredTimer]
    }

    /// A timer reported once per owner type and id.
    private struct Key: Equatable {
        var typeName: String
        var id: String
    }

    private let severity: Severity
    private let grace: UInt64
    private let startMarks: [String]
    /// The styles followed, as bits by raw value (a `Set` hashed each presentation's style).
    private let styles: UInt32
    private let stopMarks: [String]
    var markFilter: MarkFilter { MarkFilter(startMarks + stopMarks) }
    /// `startMarks` and `stopMarks`, matched on records.
    private let startNames: MarkNames
    private let stopNames: MarkNames
    /// Running timers in start order (few run at once: a list scanned by owner serial, no list per owner to
    /// allocate at a controller's first timer and free at its last stop).
    @exclusivity(unchecked) private var timers: [Timer] = []
    /// Presentations still up, oldest first.
    @exclusivity(unchecked) private var covers: [Cover] = []
    /// The timers reported (few: one per finding; a list, so no generic set type is made at run time).
    @exclusivity(unchecked) private var reported: [Key] = []

    init(settings: RuleSettings) {
        severity = settings.severity
        grace = settings.duration("grace", default: TimerUnderSheetRule.defaultGrace)
        startMarks = settings.names("start_marks", default: [MarkName.timerStart])
        styles = settings.names("styles", default: TimerUnderSheetRule.defaultStyles.map(\.name)).compactMap { ModalPresentationStyle(name: $0) }
            .filter { !$0.removesPresenterView }.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
        stopMarks = settings.names("stop_marks", default: [MarkName.timerStop])
        startNames = MarkNames(startMarks)
        stopNames = MarkNames(stopMarks)
    }

    /// Passes over, without building their `Event`, what `observe(_:_:_:)` would ignore: mark ends, stops while no
    /// timer runs, presentations of a style that leaves nothing covered, dismissals while nothing is covered.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        switch record.kind {
        case .mark:
            guard record.phase != .end else { return }
            if startNames.contains(record, context) {
                startTimer(record, context)
            } else if !timers.isEmpty, stopNames.contains(record, context) {
                stopTimer(record, context, &findings)
            }
            return
        case .container:
            // Read from the record: no `Event` is built.
            switch record.containerOperation {
            case .present?:
                guard record.listCount > 0, let style = record.presentationStyle, styles & 1 << UInt32(style.rawValue) != 0 else { return }
                present(record, style, context)
            case let operation? where operation == .dismiss || operation == .presentationControllerDidDismiss:
                guard !covers.isEmpty, record.listCount > 0 else { return }
                let presented = context.listSerial(0, of: record)
                let time = record.timestamp
                uncover(presented, at: time, ending: context.related(record, "\(operation.name) of \(context.listController(0, of: record).displayName) at \(context.time(time))"), how: "until \(context.listController(0, of: record).displayName) was dismissed at \(context.time(time))", context.time, &findings)
            default:
                break
            }
            return
        default:
            break
        }
        context.withEvent(of: record) { observe($0, context, &findings) }
    }

    /// A start mark, read from the record: no `Event` is built.
    private func startTimer(_ record: EventRecord, _ context: EventContext) {
        guard let owner = MarkOwner.of(record, context) else { return }
        let timer = Timer(
            owner: owner, id: MarkOwner.identifier(record, context), start: record.timestamp, ordinal: context.ordinal,
            startedIn: context.attribution.enclosingActive(ofSerial: owner.serial),
            source: context.hasSource ? context.source.map(SourceBox.init) : nil
        )
        timers.append(timer)
        for index in covers.indices where covers[index].covered.contains(owner.serial) {
            covers[index].timers.append(CoveredTimer(timer: timer, since: record.timestamp))
            break
        }
    }

    /// A presentation of `style` (one that leaves the presenter's view in place), read from the record: the
    /// controllers that appeared and are not covered yet become covered, with their running timers.
    private func present(_ record: EventRecord, _ style: ModalPresentationStyle, _ context: EventContext) {
        let presented = context.listSerial(0, of: record)
        var covered: [UInt32] = []
        var running: [CoveredTimer] = []
        // Each owner of running timers once (its first timer decides; `covered` is a set: only `contains` reads it).
        for index in timers.indices {
            let serial = timers[index].owner.serial
            guard serial != presented, !timers[..<index].contains(where: { $0.owner.serial == serial }) else { continue }
            guard Self.hasAppeared(serial, context) else { continue }
            guard !covers.contains(where: { $0.covered.contains(serial) }) else { continue }
            covered.append(serial)
            for later in index..<timers.count where timers[later].owner.serial == serial {
                running.append(CoveredTimer(timer: timers[later], since: record.timestamp))
            }
        }
        // Controllers already appeared without a timer yet may start one while covered.
        if record.hasController, record.controller != presented, Self.hasAppeared(record.controller, context) {
            if !covered.contains(record.controller) { covered.append(record.controller) }
        }
        running.sort { $0.timer.ordinal < $1.timer.ordinal }
        covers.append(Cover(
            presented: context.listController(0, of: record), presenter: record.hasController ? context.controller(of: record) : nil, style: style,
            time: record.timestamp, ordinal: context.ordinal, source: context.hasSource ? context.source.map(SourceBox.init) : nil,
            covered: covered, timers: running))
    }

    /// Whether the replayed state has the controller `serial` appeared (read in place).
    private static func hasAppeared(_ serial: UInt32, _ context: EventContext) -> Bool {
        context.state.controllers.appearance(of: serial)?.appearance == .appeared
    }

    /// A stop mark, read from the record (its name is read only for a finding): no `Event` is built.
    private func stopTimer(_ record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        // Only the owner's serial is needed (no `ControllerRef` built).
        guard let owner = MarkOwner.serial(of: record, context) else { return }
        let id = MarkOwner.identifier(record, context)
        // The owner's first timer with that id (the timers are in start order).
        guard let index = timers.firstIndex(where: { $0.owner.serial == owner && $0.id == id }) else { return }
        let timer = timers.remove(at: index)
        for cover in covers.indices {
            guard let covered = covers[cover].timers.firstIndex(where: { $0.timer.ordinal == timer.ordinal }) else { continue }
            let entry = covers[cover].timers.remove(at: covered)
            let name = context.string(of: record) ?? ""
            judge(entry, under: covers[cover], until: record.timestamp, ending: context.related(record, "\(name) \(MarkOwner.quoted(id)) at \(context.time(record.timestamp))"), how: "until it was stopped at \(context.time(record.timestamp))", context.time, &findings)
            break
        }
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.callback == .deinitialize, record.phase != .end else { return }
        let serial = record.controller
        if !timers.isEmpty { timers.removeAll { $0.owner.serial == serial } }
        guard !covers.isEmpty else { return }
        for index in covers.indices { covers[index].timers.removeAll { $0.timer.owner.serial == serial } }
        uncover(serial, at: record.timestamp, ending: context.related(record, "\(context.controller(of: record).displayName) deinit at \(context.time(record.timestamp))"), how: "until \(context.controller(of: record).displayName) was deinitialized at \(context.time(record.timestamp))", context.time, &findings)
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        switch event.payload {
        case .recorder(.runStarted) where context.ordinal > 0:
            // The previous process ended: its timers and presentations ended with it.
            let last = context.previousTimestamp ?? event.timestamp
            let ending = context.related(event, "a new recording run starts at \(context.time(event.timestamp)); the previous process ended after \(context.time(last))")
            for cover in covers {
                for entry in cover.timers {
                    judge(entry, under: cover, until: last, ending: ending, how: "until its process ended (last event at \(context.time(last)))", context.time, &findings)
                }
            }
            covers.removeAll()
            timers.removeAll()
        default:
            break
        }
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        for cover in covers {
            for entry in cover.timers {
                judge(entry, under: cover, until: end.lastTimestamp, ending: nil, how: "and was still running when the trace ended at \(end.time(end.lastTimestamp))", end.time, &findings)
            }
        }
        covers.removeAll()
    }

    /// Ends the presentation of `serial` and every presentation above it.
    /// `ending` and `how` are evaluated only for a timer that makes a finding (most uncovers make none).
    private func uncover(_ serial: UInt32, at time: UInt64, ending: @autoclosure () -> RelatedEvent, how: @autoclosure () -> String, _ clock: (UInt64) -> String, _ findings: inout [Finding]) {
        guard let index = covers.firstIndex(where: { $0.presented.serial == serial }) else { return }
        for cover in covers[index...] {
            for entry in cover.timers {
                judge(entry, under: cover, until: time, ending: ending(), how: how(), clock, &findings)
            }
        }
        covers.removeSubrange(index...)
    }

    private func judge(_ entry: CoveredTimer, under cover: Cover, until time: UInt64, ending: @autoclosure () -> RelatedEvent?, how: @autoclosure () -> String, _ clock: (UInt64) -> String, _ findings: inout [Finding]) {
        let running = time >= entry.since ? time - entry.since : 0
        guard running > grace else { return }
        let timer = entry.timer
        let key = Key(typeName: timer.owner.typeName, id: timer.id)
        guard !reported.contains(key) else { return }
        reported.append(key)
        let started = timer.startedIn.map { " (started in \(CallbackAttribution.name(of: $0)) at \(clock(timer.start)))" } ?? " (started at \(clock(timer.start)))"
        let by = cover.presenter.map { " from \($0.displayName)" } ?? ""
        let message = "\(timer.owner.displayName)'s timer \(MarkOwner.quoted(timer.id))\(started) kept running for \(TimeText.duration(running)) under \(cover.presented.displayName), presented\(by) as \(cover.style.name) at \(clock(cover.time)), \(how()). A \(cover.style.name) presentation leaves the covered screen on screen: it gets no viewWillDisappear/viewDidDisappear, so a timer stopped there keeps firing while the screen is covered."
        var related = [RelatedEvent(ordinal: timer.ordinal, timestamp: timer.start, message: "timer \(MarkOwner.quoted(timer.id)) started at \(clock(timer.start))", source: timer.source?.source)]
        if let ending = ending() { related.append(ending) }
        findings.append(Finding(
            ruleID: TimerUnderSheetRule.id, severity: severity, controller: timer.owner.displayName,
            timestamp: cover.time, ordinal: cover.ordinal, callback: nil, message: message, related: related, source: cover.source?.source
        ))
    }
}
