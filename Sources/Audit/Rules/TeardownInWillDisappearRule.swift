import Replay
import TraceLog
import TraceModel

/// `teardown_in_will_disappear`: teardown done in viewWillDisappear, and that disappearance was cancelled.
enum TeardownInWillDisappearRule {
    static let id = "teardown_in_will_disappear"

    /// The marks that count as teardown unless the configuration says otherwise.
    static let defaultMarks = [MarkName.teardown, MarkName.timerStop, MarkName.observerRemove, MarkName.taskCancel, MarkName.requestCancel]

    static let rule = Rule(descriptor) { TeardownInWillDisappearMonitor(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "Teardown (a `teardown` mark, a timer, observer, task or request stopped) runs inside viewWillDisappear, and that disappearance is cancelled: the controller stays on screen torn down.",
            defaultSeverity: .warning,
            parameters: [
                RuleParameter(
                    name: "marks", kind: .names, defaultValue: .names(defaultMarks), unit: "mark names",
                    summary: "The marks that count as teardown (add your app's own, such as `player.stop`)."
                ),
            ],
            explanation: """
                viewWillDisappear announces a disappearance that may not happen: an interactive pop (swipe back) or \
                a page scroll can be cancelled, and then the controller gets viewWillAppear and viewDidAppear again \
                without ever getting viewDidDisappear (DESIGN.md §2, "interactive pop, cancelled"; Apple, \
                "notifyWhenInteractionChanges(_:)": on a cancelled interactive transition UIKit calls \
                viewWillDisappear(_:) and viewWillAppear(_:) again to restore the original state). Teardown placed \
                there — stopping a player, removing observers, invalidating timers, cancelling downloads — has \
                already run when the user changes their mind, and the screen stays visible with its work stopped. \
                The rule holds the teardown marks attributed to a controller's viewWillDisappear (see "Attribution" \
                in docs/RULES.md) until that disappearance resolves: viewDidDisappear or deinit drops them (the \
                screen really left); the controller's viewWillAppear before any viewDidDisappear, or a recorded \
                interactiveTransitionCancel whose `from` is the controller, is the cancellation (the detection \
                `critical_save_placement` uses). A standard stop (`timer.stop`, `observer.remove`, `task.cancel`, \
                `request.cancel`) counts as restored when the controller starts the same timer, observer, task or \
                request (same `id` or `name`) in its viewWillAppear, viewIsAppearing or viewDidAppear after the \
                cancellation; a `teardown` mark or a custom one is never undone. One finding per cancelled \
                disappearance, at its first teardown not restored, judged when the controller next starts \
                disappearing or deinitializes, or when the trace or process ends.
                """,
            fix: """
                Keep viewWillDisappear for reversible work, and undo it in viewWillAppear/viewDidAppear (pause there \
                and resume on appearance). Do teardown that must only happen when the screen really leaves in \
                viewDidDisappear, and guaranteed cleanup in deinit; or, in viewWillDisappear, defer it to \
                transitionCoordinator?.animate(alongsideTransition:completion:) and skip it when the context \
                isCancelled.
                """,
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let library = ExampleTrace.controller(1, "LibraryViewController")
        let player = ExampleTrace.controller(2, "PlayerViewController")
        let navigation = ExampleTrace.controller(3, "UINavigationController")
        let startDownload = MarkEvent(MarkName.taskStart, controller: player, fields: [MarkField("id", .string("download"))])
        let cancelDownload = MarkEvent(MarkName.taskCancel, controller: player, fields: [MarkField("id", .string("download"))])
        let stopPlayback = MarkEvent(MarkName.teardown, controller: player, fields: [MarkField("what", .string("playback"))])

        func cancelledSwipeBack(_ trace: inout ExampleTrace, willDisappear: (inout ExampleTrace) -> Void, didAppear: (inout ExampleTrace) -> Void) {
            trace.container(.interactiveTransitionBegin, navigation, [player, library])
            trace.interval(.viewWillDisappear, player, willDisappear)
            trace.callback(.viewWillAppear, library)
            trace.container(.interactiveTransitionCancel, navigation, [player, library])
            trace.callback(.viewWillDisappear, library)
            trace.callback(.viewDidDisappear, library)
            trace.callback(.viewWillAppear, player)
            trace.interval(.viewDidAppear, player, didAppear)
        }

        var stopped = ExampleTrace()
        stopped.appear(library)
        stopped.push(player, over: library, navigation: navigation)
        stopped.mark(startDownload)
        cancelledSwipeBack(&stopped, willDisappear: { $0.mark(stopPlayback); $0.mark(cancelDownload) }, didAppear: { $0.mark(startDownload) })

        var resumed = ExampleTrace()
        resumed.appear(library)
        resumed.push(player, over: library, navigation: navigation)
        resumed.mark(startDownload)
        cancelledSwipeBack(&resumed, willDisappear: { $0.mark(cancelDownload) }, didAppear: { $0.mark(startDownload) })

        var completed = ExampleTrace()
        completed.appear(library)
        completed.push(player, over: library, navigation: navigation)
        completed.container(.pop, navigation, [player])
        completed.interval(.viewWillDisappear, player) { $0.mark(stopPlayback) }
        completed.callback(.viewWillAppear, library)
        completed.callback(.viewDidDisappear, player)
        completed.callback(.viewDidAppear, library)
        completed.callback(.didMoveToParent, player, parent: ParentArgument.none)
        completed.callback(.deinitialize, player)

        let keyboard = MarkEvent(MarkName.observerRemove, controller: player, fields: [MarkField("name", .string("keyboardWillShow"))])
        var log = ExampleTrace()
        log.appear(player)
        log.callback(.viewWillDisappear, player)
        log.mark(keyboard)
        log.callback(.viewWillAppear, player)
        log.callback(.viewDidAppear, player)

        return [
            RuleExample(title: "playback stopped and download cancelled in viewWillDisappear; the swipe-back is cancelled and only the download restarts", events: stopped.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "the download is cancelled in viewWillDisappear and restarted in viewDidAppear when the swipe-back is cancelled", events: resumed.events, expectedFindings: 0),
            RuleExample(title: "playback stopped in viewWillDisappear; the pop completes", events: completed.events, expectedFindings: 0),
            RuleExample(title: "keyboard observer removed after viewWillDisappear, then viewWillAppear again (instant-only log style)", events: log.events, expectedFindings: 1, expectedSeverity: .warning),
        ]
    }
}

/// The monitor of `teardown_in_will_disappear`.
final class TeardownInWillDisappearMonitor: RuleMonitor {
    /// A teardown mark held for a viewWillDisappear. Words are only built when a finding is made.
    struct Teardown {
        /// The mark's label, in parts.
        var mark: MarkLabel
        /// The start that restores it (`task.start`, `download`), for the standard resource stops
        /// (`MarkEvent.undoneStart`).
        var undoes: (name: String, id: String)?
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
        /// The ordinal and timestamp of the viewWillDisappear's begin (or instant).
        var willDisappearOrdinal: UInt64
        var willDisappearTime: UInt64

        var label: String { mark.text }
    }

    /// A cancelled disappearance whose teardowns wait for the controller's reappearance to (maybe) restore them.
    struct Cancelled {
        var controller: ControllerRef
        var teardowns: [Teardown]
        var cancellation: RelatedEvent
        /// Restarts seen since the cancellation, keyed by `name` and `id` of the start.
        var restarts: [String: RelatedEvent] = [:]
    }

    let interests: EventInterests = [.callbacks, .containers, .marks, .recorder]
    /// No fixed callbacks: they matter only while a teardown is held or a cancelled disappearance waits
    /// (`held`, `cancelled`), so the monitor asks for them through `callbackDemand` exactly then (`updateDemand()`).
    let callbackFilter: CallbackSet = []
    let callbackDemand: CallbackDemand? = CallbackDemand()
    private static let watched = CallbackSet(CancelledDisappearances<Teardown>.callbacks + [.viewWillDisappear], ends: false)
    /// Whether `callbackDemand` holds `watched`.
    @exclusivity(unchecked) private var isDemanding = false
    let containerFilter = CancelledDisappearances<Teardown>.containerOperations
    /// Callbacks and container events read nothing of the replayed state (marks do: the attribution).
    let stateFreeCallbacks = CallbackSet.all
    let stateFreeRecords: EventInterests = .containers
    private let severity: Severity
    /// Few names: a linear scan of `==` on (usually small) strings is cheaper than hashing each mark's name.
    private let marks: [String]
    /// Its teardown marks, and the resource starts that may restore a cancelled teardown (`MarkEvent.resourceStart`).
    var markFilter: MarkFilter {
        MarkFilter(marks + [MarkName.timerStart, MarkName.taskStart, MarkName.requestStart, MarkName.observerAdd])
    }
    @exclusivity(unchecked) private var held = CancelledDisappearances<Teardown>()
    @exclusivity(unchecked) private var cancelled: [UInt32: Cancelled] = [:]
    @exclusivity(unchecked) private var traceStart: UInt64 = 0

    /// `marks`, matched on records.
    private let teardownNames: MarkNames

    init(settings: RuleSettings) {
        severity = settings.severity
        marks = settings.names("marks", default: TeardownInWillDisappearRule.defaultMarks)
        teardownNames = MarkNames(marks)
    }

    /// Asks for `watched` exactly while something is held or waits (written only when that changes).
    private func updateDemand() {
        let waiting = !held.isEmpty || !cancelled.isEmpty
        guard waiting != isDemanding else { return }
        isDemanding = waiting
        callbackDemand!.extra = waiting ? Self.watched : []
    }

    /// Reads marks from the record (no `Event` is built for them), and passes over, without building their
    /// `Event`, the container events while nothing is held.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        switch record.kind {
        case .mark:
            traceStart = context.traceStart
            if teardownNames.contains(record, context), let active = Self.willDisappear(record, context) { hold(record, active, context) }
            if !cancelled.isEmpty, let start = Self.resourceStart(record, context) { restart(start, record, context) }
            updateDemand()
            return
        case .container:
            guard !held.isEmpty else { return }
        default:
            break
        }
        context.withEvent(of: record) { observe($0, context, &findings) }
        updateDemand()
    }

    /// `MarkEvent.resourceStart` of the mark `record`, read from the record.
    private static func resourceStart(_ record: EventRecord, _ context: EventContext) -> (name: String, id: String)? {
        switch record.markName {
        case .timerStart?, .taskStart?, .requestStart?: (record.markName!.string!, context.field(.id, of: record)?.stringValue ?? "")
        case .observerAdd?: (MarkName.observerAdd, context.field(.name, of: record)?.stringValue ?? "")
        default: nil
        }
    }

    /// `MarkEvent.undoneStart` of the mark `record`, read from the record.
    private static func undoneStart(_ record: EventRecord, _ context: EventContext) -> (name: String, id: String)? {
        switch record.markName {
        case .timerStop?: (MarkName.timerStart, context.field(.id, of: record)?.stringValue ?? "")
        case .observerRemove?: (MarkName.observerAdd, context.field(.name, of: record)?.stringValue ?? "")
        case .taskCancel?: (MarkName.taskStart, context.field(.id, of: record)?.stringValue ?? "")
        case .requestCancel?: (MarkName.requestStart, context.field(.id, of: record)?.stringValue ?? "")
        default: nil
        }
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        traceStart = context.traceStart
        defer { updateDemand() }
        if !cancelled.isEmpty, record.phase != .end, record.callback != .viewWillAppear,
           let entry = cancelled.removeValue(forKey: record.controller) {
            report(entry, &findings)
        }
        if let cancellation = held.observe(callback: record, context) { remember(cancellation) }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        traceStart = context.traceStart
        defer { updateDemand() }
        switch event.payload {
        case .container:
            if let cancellation = held.observe(event, context) { remember(cancellation) }
        case .recorder(.runStarted) where context.ordinal > 0:
            // The process ended: controllers still torn down stayed so until then.
            reportAll(&findings)
            held.removeAll()
        default:
            break
        }
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        reportAll(&findings)
    }

    /// The viewWillDisappear of the mark `record`'s controller (of any controller when it has none) the mark
    /// happens in, if any: what `hold` needs, checked on the record and the raw attribution (no `ControllerRef`).
    private static func willDisappear(_ record: EventRecord, _ context: EventContext) -> ActiveCallback? {
        guard let active = context.attribution.enclosingActive(ofSerial: record.hasController ? record.controller : nil),
              case .controller(.viewWillDisappear) = active.kind else { return nil }
        return !record.hasController || active.controllerSerial == record.controller ? active : nil
    }

    /// Holds the teardown mark `record` for the viewWillDisappear of its controller it happens in (`active`).
    private func hold(_ record: EventRecord, _ active: ActiveCallback, _ context: EventContext) {
        // The callback's controller as `EnclosingCallback` names it; the mark's must be it by name too.
        guard let ref = context.attribution.controllerRef(of: active),
              !record.hasController || context.controller(of: record) == ref else { return }
        held.hold(Teardown(
            mark: MarkLabel(record, context), undoes: Self.undoneStart(record, context), ordinal: context.ordinal,
            timestamp: record.timestamp, source: context.source,
            willDisappearOrdinal: active.ordinal, willDisappearTime: active.since
        ), for: ref)
    }

    /// A resource start (`start`, the mark `record`) in an appearance callback of a controller whose
    /// disappearance was cancelled: it may restore a teardown.
    private func restart(_ start: (name: String, id: String), _ record: EventRecord, _ context: EventContext) {
        let probe = record.hasController ? ControllerRef(serial: record.controller, typeName: "") : nil
        guard let enclosing = context.attribution.enclosing(of: probe),
              let ref = enclosing.controller, !record.hasController || context.controller(of: record) == ref,
              let callback = enclosing.callback, callback == .viewWillAppear || callback == .viewIsAppearing || callback == .viewDidAppear,
              cancelled[ref.serial] != nil else { return }
        cancelled[ref.serial]!.restarts[Self.key(start)] = context.related(record, "\(MarkLabel(record, context).text) at \(context.time(record.timestamp)) in \(callback.name) restarted it")
    }

    private func remember(_ cancellation: CancelledDisappearances<Teardown>.Cancellation) {
        cancelled[cancellation.controller.serial] = Cancelled(controller: cancellation.controller, teardowns: cancellation.items, cancellation: cancellation.cancellation)
    }

    private static func key(_ start: (name: String, id: String)) -> String {
        "\(start.name)\u{0}\(start.id)"
    }

    private func reportAll(_ findings: inout [Finding]) {
        for entry in cancelled.values.sorted(by: { $0.cancellation.ordinal < $1.cancellation.ordinal }) {
            report(entry, &findings)
        }
        cancelled.removeAll()
    }

    private func report(_ entry: Cancelled, _ findings: inout [Finding]) {
        var open: [Teardown] = []
        var restored: [(Teardown, RelatedEvent)] = []
        for teardown in entry.teardowns {
            if let undo = teardown.undoes, let restart = entry.restarts[Self.key(undo)] {
                restored.append((teardown, restart))
            } else {
                open.append(teardown)
            }
        }
        guard let first = open.first else { return }
        let name = entry.controller.displayName
        var message = "\(name) tears down in viewWillDisappear at \(time(first.timestamp)) (\(open.map(\.label).joined(separator: ", "))), "
        message += "and that disappearance was cancelled at \(time(entry.cancellation.timestamp)): the controller stayed on screen without viewDidDisappear, and nothing restored "
        message += open.count == 1 ? "it" : "them"
        if !restored.isEmpty {
            message += " (\(restored.map(\.0.label).joined(separator: ", ")) \(restored.count == 1 ? "was" : "were") restarted when it reappeared)"
        }
        let willDisappear = RelatedEvent(ordinal: first.willDisappearOrdinal, timestamp: first.willDisappearTime, message: "\(name) viewWillDisappear at \(time(first.willDisappearTime))")
        var related = [willDisappear, entry.cancellation]
        related += open.dropFirst().map { RelatedEvent(ordinal: $0.ordinal, timestamp: $0.timestamp, message: "\($0.label) at \(time($0.timestamp)) in viewWillDisappear", source: $0.source) }
        related += restored.map(\.1)
        findings.append(Finding(
            ruleID: TeardownInWillDisappearRule.id, severity: severity, controller: name,
            timestamp: first.timestamp, ordinal: first.ordinal, callback: Callback.viewWillDisappear.name,
            message: message + ".", related: related.sorted { $0.ordinal < $1.ordinal }, source: first.source
        ))
    }

    private func time(_ timestamp: UInt64) -> String {
        TimeText.seconds(timestamp >= traceStart ? timestamp - traceStart : 0)
    }
}
