import Replay
import TraceModel

/// `timer_under_sheet`: a screen covered by a sheet (or another presentation that leaves the presenter's view in
/// place) keeps a timer running.
struct TimerUnderSheetRule: AuditRule {
    static let id = "timer_under_sheet"
    static let defaultGrace: UInt64 = 1_000_000_000
    /// The presentation styles that cover the presenter without removing its view (a popover or a custom
    /// presentation may leave most of it visible, so they are not judged unless configured).
    static let defaultStyles: [ModalPresentationStyle] = [.automatic, .pageSheet, .formSheet, .overFullScreen, .overCurrentContext]

    static let rule = Rule(Self.self) { TimerUnderSheetRule(settings: $0) }

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
                "UIPresentationController.shouldRemovePresentersView"; docs/LIFECYCLE.md, "present pageSheet/formSheet \
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
            needs: [.mark(MarkName.timerStart)],
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

    struct Timer {
        var owner: UInt32
        var ownerName: String
        var ownerType: String
        var id: String
        var start: UInt64
        var ordinal: UInt64
        /// The callback it started in, by method name.
        var startedIn: String?
        var source: EventSource?
    }

    /// A timer running while its controller is covered: since when it counts as covered.
    struct CoveredTimer {
        var timer: Timer
        var since: UInt64
    }

    /// A presentation that leaves the presenter's view (and its timers) in place.
    struct Cover {
        var presented: UInt32
        var presentedName: String
        var presenter: String?
        var style: ModalPresentationStyle
        var time: UInt64
        var ordinal: UInt64
        var source: EventSource?
        var covered: Set<UInt32>
        var timers: [CoveredTimer]
    }

    struct Key: Hashable {
        var typeName: String
        var id: String
    }

    let severity: Severity
    let grace: UInt64
    let startMarks: [String]
    let stopMarks: [String]
    let styles: Set<ModalPresentationStyle>
    let facts: [FactKind]
    /// Running timers in start order.
    var timers: [Timer] = []
    /// Presentations still up, oldest first.
    var covers: [Cover] = []
    var reported: Set<Key> = []

    init(settings: RuleSettings) {
        severity = settings.severity
        grace = settings.duration("grace", default: Self.defaultGrace)
        startMarks = settings.names("start_marks", default: [MarkName.timerStart])
        stopMarks = settings.names("stop_marks", default: [MarkName.timerStop])
        styles = Set(settings.names("styles", default: Self.defaultStyles.map(\.name)).compactMap { ModalPresentationStyle(name: $0) }.filter { !$0.removesPresenterView })
        facts = (startMarks + stopMarks).map { .mark($0) } + [.container, .callback(.deinitialize), .runStarted]
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .mark(let mark) where mark.phase != .end:
            if startMarks.contains(mark.name) {
                start(mark, replay)
            } else if stopMarks.contains(mark.name) {
                stop(mark, replay, &findings)
            }
        case .container(let container) where container.operation == .present:
            guard let presented = container.controllers.first, let style = container.style, styles.contains(style) else { return }
            present(presented, by: container.container, style, replay)
        case .container(let container) where container.operation == .dismiss || container.operation == .presentationControllerDidDismiss:
            guard let presented = container.controllers.first else { return }
            let time = replay.time(replay.timestamp)
            uncover(presented.serial, at: replay.timestamp, ending: replay.related("\(container.operation.name) of \(presented.displayName) at \(time)"), how: "until \(presented.displayName) was dismissed at \(time)", replay, &findings)
        case .callback(let callback) where callback.isStart:
            let serial = callback.controller
            timers.removeAll { $0.owner == serial }
            for index in covers.indices { covers[index].timers.removeAll { $0.timer.owner == serial } }
            let name = replay.name(of: serial)
            uncover(serial, at: replay.timestamp, ending: replay.related("\(name) deinit at \(replay.time(replay.timestamp))"), how: "until \(name) was deinitialized at \(replay.time(replay.timestamp))", replay, &findings)
        case .runStarted(_, let previous):
            // The previous process ended: its timers and presentations ended with it.
            let last = previous ?? replay.timestamp
            let ending = replay.related("a new recording run starts at \(replay.time(replay.timestamp)); the previous process ended after \(replay.time(last))")
            for cover in covers {
                for entry in cover.timers {
                    judge(entry, under: cover, until: last, ending: ending, how: "until its process ended (last event at \(replay.time(last)))", replay, &findings)
                }
            }
            covers.removeAll()
            timers.removeAll()
        default:
            break
        }
    }

    private mutating func start(_ mark: MarkFact, _ replay: ReplayView) {
        guard let owner = mark.controller, let ref = replay.ref(of: owner) else { return }
        let timer = Timer(
            owner: owner, ownerName: ref.displayName, ownerType: ref.typeName, id: MarkOwner.identifier(mark), start: replay.timestamp,
            ordinal: replay.ordinal, startedIn: mark.enclosingName, source: replay.source)
        timers.append(timer)
        if let index = covers.firstIndex(where: { $0.covered.contains(owner) }) {
            covers[index].timers.append(CoveredTimer(timer: timer, since: replay.timestamp))
        }
    }

    private mutating func stop(_ mark: MarkFact, _ replay: ReplayView, _ findings: inout [Finding]) {
        guard let owner = mark.controller else { return }
        let id = MarkOwner.identifier(mark)
        // The owner's first timer with that id.
        guard let index = timers.firstIndex(where: { $0.owner == owner && $0.id == id }) else { return }
        let timer = timers.remove(at: index)
        for cover in covers.indices {
            guard let covered = covers[cover].timers.firstIndex(where: { $0.timer.ordinal == timer.ordinal }) else { continue }
            let entry = covers[cover].timers.remove(at: covered)
            let time = replay.time(replay.timestamp)
            judge(entry, under: covers[cover], until: replay.timestamp, ending: replay.related("\(mark.name) \(MarkOwner.quoted(id)) at \(time)"), how: "until it was stopped at \(time)", replay, &findings)
            break
        }
    }

    /// A presentation that leaves the presenter's view in place: the appeared controllers not covered yet become
    /// covered, with their running timers.
    private mutating func present(_ presented: ControllerRef, by presenter: ControllerRef?, _ style: ModalPresentationStyle, _ replay: ReplayView) {
        var covered: Set<UInt32> = []
        var running: [CoveredTimer] = []
        for timer in timers where timer.owner != presented.serial && !covered.contains(timer.owner) {
            guard replay.appearance(of: timer.owner) == .appeared, !covers.contains(where: { $0.covered.contains(timer.owner) }) else { continue }
            covered.insert(timer.owner)
            running += timers.filter { $0.owner == timer.owner }.map { CoveredTimer(timer: $0, since: replay.timestamp) }
        }
        // Controllers already appeared without a timer yet may start one while covered.
        if let presenter, presenter.serial != presented.serial, replay.appearance(of: presenter.serial) == .appeared {
            covered.insert(presenter.serial)
        }
        running.sort { $0.timer.ordinal < $1.timer.ordinal }
        covers.append(Cover(
            presented: presented.serial, presentedName: presented.displayName, presenter: presenter?.displayName, style: style, time: replay.timestamp,
            ordinal: replay.ordinal, source: replay.source, covered: covered, timers: running))
    }

    mutating func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        let end = replay.timestamp
        for cover in covers {
            for entry in cover.timers {
                judge(entry, under: cover, until: end, ending: nil, how: "and was still running when the trace ended at \(replay.time(end))", replay, &findings)
            }
        }
    }

    /// Ends the presentation of `serial` and every presentation above it.
    private mutating func uncover(_ serial: UInt32, at time: UInt64, ending: @autoclosure () -> RelatedEvent, how: @autoclosure () -> String, _ replay: ReplayView, _ findings: inout [Finding]) {
        guard let index = covers.firstIndex(where: { $0.presented == serial }) else { return }
        for cover in covers[index...] {
            for entry in cover.timers {
                judge(entry, under: cover, until: time, ending: ending(), how: how(), replay, &findings)
            }
        }
        covers.removeSubrange(index...)
    }

    private mutating func judge(_ entry: CoveredTimer, under cover: Cover, until time: UInt64, ending: @autoclosure () -> RelatedEvent?, how: @autoclosure () -> String, _ replay: ReplayView, _ findings: inout [Finding]) {
        let running = time >= entry.since ? time - entry.since : 0
        let timer = entry.timer
        guard running > grace, reported.insert(Key(typeName: timer.ownerType, id: timer.id)).inserted else { return }
        let started = timer.startedIn.map { " (started in \($0) at \(replay.time(timer.start)))" } ?? " (started at \(replay.time(timer.start)))"
        let by = cover.presenter.map { " from \($0)" } ?? ""
        let message = "\(timer.ownerName)'s timer \(MarkOwner.quoted(timer.id))\(started) kept running for \(TimeText.duration(running)) under \(cover.presentedName), presented\(by) as \(cover.style.name) at \(replay.time(cover.time)), \(how()). A \(cover.style.name) presentation leaves the covered screen on screen: it gets no viewWillDisappear/viewDidDisappear, so a timer stopped there keeps firing while the screen is covered."
        var related = [RelatedEvent(ordinal: timer.ordinal, timestamp: timer.start, message: "timer \(MarkOwner.quoted(timer.id)) started at \(replay.time(timer.start))", source: timer.source)]
        if let ending = ending() { related.append(ending) }
        findings.append(Finding(
            ruleID: Self.id, severity: severity, controller: timer.ownerName, timestamp: cover.time, ordinal: cover.ordinal, callback: nil,
            message: message, related: related, source: cover.source))
    }
}
