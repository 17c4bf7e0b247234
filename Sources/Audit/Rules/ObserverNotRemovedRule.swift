import Replay
import TraceLog
import TraceModel

/// `observer_not_removed`: an observer (or another registration) still registered when its controller is
/// deinitialized, or registered again while the previous registration is still live.
enum ObserverNotRemovedRule {
    static let id = "observer_not_removed"

    static let rule = Rule(descriptor) { ObserverNotRemovedMonitor(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "An observer added by a controller is still registered when the controller's deinit completes, or is added again while the previous registration is still live (added on every appearance, removed less often).",
            defaultSeverity: .warning,
            parameters: [
                RuleParameter(
                    name: "add_marks", kind: .names, defaultValue: .names([MarkName.observerAdd]), unit: "mark names",
                    summary: "Marks that register something that must be unregistered; named by the mark's `name` field, else its `id` field."
                ),
                RuleParameter(
                    name: "remove_marks", kind: .names, defaultValue: .names([MarkName.observerRemove]), unit: "mark names",
                    summary: "Marks that unregister the registration with the same `name` (or `id`); one without either removes all of the controller's registrations, like NotificationCenter.removeObserver(self)."
                ),
            ],
            explanation: """
                An observer registered with a block (NotificationCenter.addObserver(forName:object:queue:using:)) \
                stays in the notification center until it is removed: Apple's documentation asks to call \
                removeObserver(_:) or removeObserver(_:name:object:) before the objects it names are deallocated \
                (Apple, "removeObserver(_:)"), and until then the block keeps running on every notification, after \
                the controller is gone (the seed lesson's keyboardWillShow example). deinit is the only callback \
                guaranteed to run on every path: a controller can be deallocated without ever appearing or \
                disappearing (DESIGN.md §2, "guaranteed cleanup belongs in deinit, reversible work in \
                disappearance"). The opposite mistake is a registration in viewWillAppear/viewDidAppear, which run \
                on every appearance, undone in a callback that runs less often: viewDidDisappear never comes for a \
                cancelled interactive pop (DESIGN.md §2), so the next viewWillAppear registers a second observer \
                and every notification is handled twice. The rule follows `add_marks`/`remove_marks` per \
                controller (the mark's controller, else the one whose callback encloses it) and reports (1) every \
                registration still live when the controller's deinit completes (removals inside deinit count; a \
                controller whose process ended without deinit is not judged) and (2) an add of a name the \
                controller already has registered. Selector-based NotificationCenter observers are unregistered \
                automatically since iOS 9; record only registrations that need removal (block observers, \
                multicast delegates, custom event buses) with these marks. One finding per controller type, \
                name and kind of mistake.
                """,
            fix: """
                Pair each registration with its removal in the matching callback: add in viewDidLoad (or init) \
                and remove in deinit; add in viewWillAppear and remove in viewWillDisappear (both run again on a \
                cancelled transition), or add in viewDidAppear and remove in viewDidDisappear. Keep the token the \
                block API returns and remove it; or use the selector-based API, whose observers UIKit removes \
                when the observer is deallocated.
                """,
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let nav = ExampleTrace.controller(1, "UINavigationController")
        let post = ExampleTrace.controller(2, "PostViewController")
        let comments = ExampleTrace.controller(3, "CommentViewController")
        let add = MarkEvent(MarkName.observerAdd, controller: comments, fields: [MarkField("name", .string("keyboardWillShow"))])
        let remove = MarkEvent(MarkName.observerRemove, controller: comments, fields: [MarkField("name", .string("keyboardWillShow"))])

        func pushThenPop(_ trace: inout ExampleTrace, removeInDeinit: Bool) {
            trace.appear(post)
            trace.callback(.initialize, comments)
            trace.container(.push, nav, [comments])
            trace.callback(.willMoveToParent, comments, parent: .controller(nav))
            trace.interval(.viewDidLoad, comments) { $0.mark(add) }
            trace.callback(.viewWillDisappear, post)
            trace.callback(.viewWillAppear, comments)
            trace.callback(.viewDidDisappear, post)
            trace.callback(.viewDidAppear, comments)
            trace.callback(.didMoveToParent, comments, parent: .controller(nav))
            trace.pop(comments, revealing: post, navigation: nav)
            if removeInDeinit {
                trace.interval(.deinitialize, comments) { $0.mark(remove) }
            } else {
                trace.callback(.deinitialize, comments)
            }
        }
        var leaked = ExampleTrace()
        pushThenPop(&leaked, removeInDeinit: false)
        var removed = ExampleTrace()
        pushThenPop(&removed, removeInDeinit: true)

        // Added in viewWillAppear, removed in viewDidDisappear: a cancelled swipe-back adds a second one.
        var twice = ExampleTrace()
        twice.appear(post)
        twice.push(comments, over: post, navigation: nav)
        twice.container(.interactiveTransitionBegin, nav, [comments, post])
        twice.callback(.viewWillDisappear, comments)
        twice.callback(.viewWillAppear, post)
        twice.container(.interactiveTransitionCancel, nav, [comments, post])
        twice.callback(.viewWillDisappear, post)
        twice.callback(.viewDidDisappear, post)
        twice.interval(.viewWillAppear, comments) { $0.mark(add) }
        twice.callback(.viewDidAppear, comments)
        var events = twice.events
        // The first registration, in the viewWillAppear of the push.
        if let index = events.firstIndex(where: {
            if case .callback(let callback) = $0.payload { return callback.controller == comments && callback.callback == .viewWillAppear }
            return false
        }) {
            events.insert(Event(timestamp: events[index].timestamp, .mark(add)), at: index + 1)
        }
        return [
            RuleExample(title: "keyboard observer added in viewDidLoad, never removed; the screen is popped and deinitialized", events: leaked.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "keyboard observer added in viewDidLoad, removed in deinit", events: removed.events, expectedFindings: 0),
            RuleExample(title: "added in viewWillAppear, removed only in viewDidDisappear: a cancelled swipe-back registers it twice", events: events, expectedFindings: 1, expectedSeverity: .warning),
        ]
    }
}

/// The monitor of `observer_not_removed`.
final class ObserverNotRemovedMonitor: RuleMonitor {
    let interests: EventInterests = [.marks, .callbacks, .recorder]
    let callbackFilter = CallbackSet([.deinitialize])
    /// Only the add and remove marks: an instant deinit whose window closed is settled at the next of these (or
    /// the next deinit, run start or the end), before anything it settles against can change.
    var markFilter: MarkFilter { MarkFilter(addMarks + removeMarks) }

    /// One live registration of an owner (kept by owner serial; the owner's name is read only for a finding).
    private struct Registration {
        var name: String
        var ordinal: UInt64
        var time: UInt64
        var addedIn: String?
        var source: EventSource?
    }

    /// A deinit whose window is still open: removals in it still count.
    private struct PendingDeinit {
        var controller: ControllerRef
        var ordinal: UInt64
        var time: UInt64
        var source: EventSource?
        /// Closed by the deinit's `end`; `false` for an instant deinit, closed when the attribution moves on.
        var isInterval: Bool
    }

    private struct Key: Hashable {
        var typeName: String
        var name: String
        var twice: Bool
    }

    private let severity: Severity
    private let addMarks: [String]
    private let removeMarks: [String]
    /// `addMarks` and `removeMarks`, matched on records.
    private let addNames: MarkNames
    private let removeNames: MarkNames
    /// Live registrations by owner serial, in add order.
    @exclusivity(unchecked) private var live = SerialMap<[Registration]>()
    @exclusivity(unchecked) private var pending: [PendingDeinit] = []
    @exclusivity(unchecked) private var reported: Set<Key> = []

    init(settings: RuleSettings) {
        severity = settings.severity
        addMarks = settings.names("add_marks", default: [MarkName.observerAdd])
        removeMarks = settings.names("remove_marks", default: [MarkName.observerRemove])
        addNames = MarkNames(addMarks)
        removeNames = MarkNames(removeMarks)
    }

    /// Add and remove marks, read from the record (name code, owner serial, `name`/`id` field): no `Event` is
    /// built for them.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.kind == .mark else { return }
        if !pending.isEmpty { settleClosedInstants(context, &findings) }
        guard record.phase != .end else { return }
        if addNames.contains(record, context) {
            guard let owner = Self.ownerSerial(record, context) else { return }
            let name = (context.field(.name, of: record) ?? context.field(.id, of: record))?.description ?? ""
            let registration = Registration(
                name: name, ordinal: context.ordinal, time: record.timestamp,
                addedIn: context.attribution.enclosingActive(ofSerial: owner).map(CallbackAttribution.name(of:)), source: context.source
            )
            if let position = live.position(of: owner) {
                if let earlier = live[at: position].first(where: { $0.name == name }), let ownerRef = MarkOwner.of(record, context) {
                    reportTwice(earlier, again: registration, owner: ownerRef, context, &findings)
                }
                live[at: position].append(registration)
            } else {
                live[owner] = [registration]
            }
        } else if removeNames.contains(record, context) {
            guard let owner = Self.ownerSerial(record, context), let position = live.position(of: owner) else { return }
            guard let name = (context.field(.name, of: record) ?? context.field(.id, of: record))?.description else {
                live[owner] = nil
                return
            }
            if let index = live[at: position].firstIndex(where: { $0.name == name }) {
                live[at: position].remove(at: index)
                if live[at: position].isEmpty { live[owner] = nil }
            }
        }
    }

    /// The serial of `MarkOwner.of(_:_:)` of the mark `record`.
    private static func ownerSerial(_ record: EventRecord, _ context: EventContext) -> UInt32? {
        if record.hasController { return record.controller }
        guard let active = context.attribution.enclosingActive(ofSerial: nil), case .controller = active.kind else { return nil }
        return active.controllerSerial
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.callback == .deinitialize else { return }
        if !pending.isEmpty { settleClosedInstants(context, &findings) }
        let serial = record.controller
        switch record.phase {
        case .begin, .instant:
            guard !live.isEmpty, live[serial] != nil else { return }
            pending.append(PendingDeinit(controller: context.controller(of: record), ordinal: context.ordinal, time: record.timestamp, source: context.source, isInterval: record.phase == .begin))
        case .end:
            guard !pending.isEmpty, let index = pending.firstIndex(where: { $0.controller.serial == serial && $0.isInterval }) else { return }
            settle(pending.remove(at: index), context.time, &findings)
        }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        switch event.payload {
        case .recorder(.runStarted) where context.ordinal > 0:
            // The previous process ended: deinit windows close, and registrations die with the process.
            for exit in pending { settle(exit, context.time, &findings) }
            pending.removeAll()
            live.removeAll()
        default:
            break
        }
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        for exit in pending { settle(exit, end.time, &findings) }
        pending.removeAll()
    }

    /// Settles the instant deinits whose window has closed: the replayer no longer attributes a mark of the
    /// controller to that deinit (`CallbackAttribution`).
    private func settleClosedInstants(_ context: EventContext, _ findings: inout [Finding]) {
        // Intervals stay until their end: with no instant pending there is nothing to settle (the list was copied,
        // each entry retained, at every mark and deinit while a deinit interval was open).
        guard pending.contains(where: { !$0.isInterval }) else { return }
        var remaining: [PendingDeinit] = []
        for exit in pending {
            if exit.isInterval || context.attribution.enclosing(of: exit.controller)?.ordinal == exit.ordinal {
                remaining.append(exit)
            } else {
                settle(exit, context.time, &findings)
            }
        }
        pending = remaining
    }

    private func settle(_ exit: PendingDeinit, _ clock: (UInt64) -> String, _ findings: inout [Finding]) {
        guard let registrations = live.removeValue(forKey: exit.controller.serial) else { return }
        for registration in registrations {
            guard reported.insert(Key(typeName: exit.controller.typeName, name: registration.name, twice: false)).inserted else { continue }
            let added = registration.addedIn.map { "in \($0) at \(clock(registration.time))" } ?? "at \(clock(registration.time))"
            findings.append(Finding(
                ruleID: ObserverNotRemovedRule.id, severity: severity, controller: exit.controller.displayName,
                timestamp: exit.time, ordinal: exit.ordinal, callback: Callback.deinitialize.name,
                message: "\(exit.controller.displayName) was deinitialized at \(clock(exit.time)) with observer \(MarkOwner.quoted(registration.name)) still registered (added \(added), never removed): a block observer keeps running after its controller is gone.",
                related: [RelatedEvent(ordinal: registration.ordinal, timestamp: registration.time, message: "observer \(MarkOwner.quoted(registration.name)) added \(added)", source: registration.source)],
                source: exit.source
            ))
        }
    }

    private func reportTwice(_ earlier: Registration, again: Registration, owner: ControllerRef, _ context: EventContext, _ findings: inout [Finding]) {
        guard reported.insert(Key(typeName: owner.typeName, name: again.name, twice: true)).inserted else { return }
        let first = earlier.addedIn.map { "in \($0) at \(context.time(earlier.time))" } ?? "at \(context.time(earlier.time))"
        let now = again.addedIn.map { "in \($0) at \(context.time(again.time))" } ?? "at \(context.time(again.time))"
        findings.append(Finding(
            ruleID: ObserverNotRemovedRule.id, severity: severity, controller: owner.displayName,
            timestamp: again.time, ordinal: again.ordinal, callback: again.addedIn,
            message: "\(owner.displayName) adds observer \(MarkOwner.quoted(again.name)) \(now) while the one added \(first) is still registered: every notification is now handled twice. The callback that removes it runs less often than the one that adds it.",
            related: [RelatedEvent(ordinal: earlier.ordinal, timestamp: earlier.time, message: "observer \(MarkOwner.quoted(earlier.name)) first added \(first)", source: earlier.source)],
            source: again.source
        ))
    }
}
