import Replay
import TraceModel

/// `teardown_in_will_disappear`: teardown done in viewWillDisappear, and that disappearance was cancelled.
struct TeardownInWillDisappearRule: AuditRule {
    static let id = "teardown_in_will_disappear"

    /// The marks that count as teardown unless the configuration says otherwise.
    static let defaultMarks = [MarkName.teardown, MarkName.timerStop, MarkName.observerRemove, MarkName.taskCancel, MarkName.requestCancel]

    static let rule = Rule(Self.self) { TeardownInWillDisappearRule(settings: $0) }

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
                without ever getting viewDidDisappear (docs/LIFECYCLE.md, "interactive pop, cancelled"; Apple, \
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
            needs: defaultMarks.map { .mark($0) },
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

    /// A teardown mark held for a viewWillDisappear.
    struct Teardown {
        var label: String
        /// The start that restores it, for the standard resource stops.
        var undoes: MarkFact.StartKey?
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
        var willDisappear: RelatedEvent
    }

    /// A cancelled disappearance whose teardowns wait for the controller's reappearance to (maybe) restore them.
    struct Cancelled {
        var controller: String
        var teardowns: [Teardown]
        var cancellation: RelatedEvent
        /// Restarts seen since the cancellation.
        var restarts: [MarkFact.StartKey: RelatedEvent] = [:]
    }

    let severity: Severity
    let marks: [String]
    let facts: [FactKind]
    /// Teardowns in the current viewWillDisappear of a controller, until it completes or is cancelled.
    var held: [UInt32: [Teardown]] = [:]
    var cancelled: [UInt32: Cancelled] = [:]

    init(settings: RuleSettings) {
        severity = settings.severity
        marks = settings.names("marks", default: Self.defaultMarks)
        facts = (marks + [MarkName.timerStart, MarkName.taskStart, MarkName.requestStart, MarkName.observerAdd]).map { .mark($0) }
            + FactKind.callbacks(.viewWillDisappear, .viewDidDisappear, .deinitialize) + [.disappearanceCancelled, .runStarted]
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .mark(let mark):
            if marks.contains(mark.name), mark.enclosingCallback == .viewWillDisappear, let owner = mark.enclosingController, mark.owner == nil || mark.owner == owner {
                let willDisappear = RelatedEvent(ordinal: mark.enclosing!.ordinal, timestamp: mark.enclosing!.since, message: "\(replay.name(of: owner)) viewWillDisappear at \(replay.time(mark.enclosing!.since))")
                held[owner, default: []].append(Teardown(
                    label: mark.label, undoes: mark.undoneStart, ordinal: replay.ordinal, timestamp: replay.timestamp, source: replay.source, willDisappear: willDisappear))
            }
            // A resource start in an appearance callback of a controller whose disappearance was cancelled may restore a teardown.
            if let start = mark.resourceStart, let owner = mark.enclosingController, mark.owner == nil || mark.owner == owner, cancelled[owner] != nil,
               let callback = mark.enclosingCallback, callback == .viewWillAppear || callback == .viewIsAppearing || callback == .viewDidAppear {
                cancelled[owner]!.restarts[start] = replay.related("\(mark.label) at \(replay.time(replay.timestamp)) in \(callback.name) restarted it")
            }
        case .callback(let callback) where callback.isStart:
            // The controller's next disappearance callback settles a cancelled one: it was not restored by then.
            if let entry = cancelled.removeValue(forKey: callback.controller) { report(entry, replay, &findings) }
            if callback.callback != .viewWillDisappear { held.removeValue(forKey: callback.controller) }
        case .disappearanceCancelled(let cancellation):
            guard let teardowns = held.removeValue(forKey: cancellation.controller) else { return }
            let name = replay.name(of: cancellation.controller)
            let related = cancellation.related(replay)
            cancelled[cancellation.controller] = Cancelled(controller: name, teardowns: teardowns, cancellation: related)
        case .runStarted:
            // The process ended: controllers still torn down stayed so until then.
            reportAll(replay, &findings)
            held.removeAll()
        default:
            break
        }
    }

    mutating func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        reportAll(replay, &findings)
    }

    private mutating func reportAll(_ replay: ReplayView, _ findings: inout [Finding]) {
        for entry in cancelled.values { report(entry, replay, &findings) }
        cancelled.removeAll()
    }

    private func report(_ entry: Cancelled, _ replay: ReplayView, _ findings: inout [Finding]) {
        var open: [Teardown] = []
        var restored: [(Teardown, RelatedEvent)] = []
        for teardown in entry.teardowns {
            if let undo = teardown.undoes, let restart = entry.restarts[undo] {
                restored.append((teardown, restart))
            } else {
                open.append(teardown)
            }
        }
        guard let first = open.first else { return }
        let name = entry.controller
        var message = "\(name) tears down in viewWillDisappear at \(replay.time(first.timestamp)) (\(open.map(\.label).joined(separator: ", "))), "
        message += "and that disappearance was cancelled at \(replay.time(entry.cancellation.timestamp)): the controller stayed on screen without viewDidDisappear, and nothing restored "
        message += open.count == 1 ? "it" : "them"
        if !restored.isEmpty {
            message += " (\(restored.map(\.0.label).joined(separator: ", ")) \(restored.count == 1 ? "was" : "were") restarted when it reappeared)"
        }
        var related = [first.willDisappear, entry.cancellation]
        related += open.dropFirst().map { RelatedEvent(ordinal: $0.ordinal, timestamp: $0.timestamp, message: "\($0.label) at \(replay.time($0.timestamp)) in viewWillDisappear", source: $0.source) }
        related += restored.map(\.1)
        findings.append(Finding(
            ruleID: Self.id, severity: severity, controller: name, timestamp: first.timestamp, ordinal: first.ordinal, callback: Callback.viewWillDisappear.name,
            message: message + ".", related: related.sorted { $0.ordinal < $1.ordinal }, source: first.source))
    }
}
