import Replay
import TraceModel

/// `observer_not_removed`: an observer (or another registration) still registered when its controller is
/// deinitialized, or registered again while the previous registration is still live.
struct ObserverNotRemovedRule: AuditRule {
    static let id = "observer_not_removed"

    static let rule = Rule(Self.self) { ObserverNotRemovedRule(settings: $0) }


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
                disappearing (docs/LIFECYCLE.md, "guaranteed cleanup belongs in deinit, reversible work in \
                disappearance"). The opposite mistake is a registration in viewWillAppear/viewDidAppear, which run \
                on every appearance, undone in a callback that runs less often: viewDidDisappear never comes for a \
                cancelled interactive pop (docs/LIFECYCLE.md), so the next viewWillAppear registers a second observer \
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
            needs: [.mark(MarkName.observerAdd)],
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

    /// One live registration (kept by owner serial).
    struct Registration {
        var name: String
        var ordinal: UInt64
        var time: UInt64
        var addedIn: String?
        var source: EventSource?
    }

    struct Key: Hashable {
        var typeName: String
        var name: String
        var twice: Bool
    }

    let severity: Severity
    let addMarks: [String]
    let removeMarks: [String]
    let facts: [FactKind]
    /// Live registrations by owner, in add order.
    var live: [UInt32: [Registration]] = [:]
    var reported: Set<Key> = []

    init(settings: RuleSettings) {
        severity = settings.severity
        addMarks = settings.names("add_marks", default: [MarkName.observerAdd])
        removeMarks = settings.names("remove_marks", default: [MarkName.observerRemove])
        facts = (addMarks + removeMarks).map { .mark($0) } + [.exitCompleted, .runStarted]
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .mark(let mark) where mark.phase != .end:
            guard let owner = mark.controller else { return }
            let name = (mark[field: "name"] ?? mark[field: "id"])?.description
            if addMarks.contains(mark.name) {
                let registration = Registration(
                    name: name ?? "", ordinal: replay.ordinal, time: replay.timestamp, addedIn: mark.enclosingName, source: replay.source)
                if let earlier = live[owner]?.first(where: { $0.name == registration.name }) {
                    reportTwice(earlier, again: registration, owner: owner, replay, &findings)
                }
                live[owner, default: []].append(registration)
            } else if removeMarks.contains(mark.name), live[owner] != nil {
                guard let name else {
                    live[owner] = nil
                    return
                }
                if let index = live[owner]?.firstIndex(where: { $0.name == name }) {
                    live[owner]?.remove(at: index)
                    if live[owner]?.isEmpty == true { live[owner] = nil }
                }
            }
        case .exitCompleted(let exit) where exit.cause == .deinitialized:
            guard let serial = exit.controller, let registrations = live.removeValue(forKey: serial) else { return }
            settle(exit, serial, registrations, replay, &findings)
        case .runStarted:
            // Registrations die with the process.
            live.removeAll()
        default:
            break
        }
    }

    private mutating func settle(_ exit: Exit, _ serial: UInt32, _ registrations: [Registration], _ replay: ReplayView, _ findings: inout [Finding]) {
        let ref = replay.ref(of: serial)
        let name = ref?.displayName ?? "#\(serial)"
        for registration in registrations {
            guard reported.insert(Key(typeName: ref?.typeName ?? "", name: registration.name, twice: false)).inserted else { continue }
            let added = registration.addedIn.map { "in \($0) at \(replay.time(registration.time))" } ?? "at \(replay.time(registration.time))"
            findings.append(Finding(
                ruleID: Self.id, severity: severity, controller: name, timestamp: exit.timestamp, ordinal: exit.ordinal, callback: Callback.deinitialize.name,
                message: "\(name) was deinitialized at \(replay.time(exit.timestamp)) with observer \(MarkOwner.quoted(registration.name)) still registered (added \(added), never removed): a block observer keeps running after its controller is gone.",
                related: [RelatedEvent(ordinal: registration.ordinal, timestamp: registration.time, message: "observer \(MarkOwner.quoted(registration.name)) added \(added)", source: registration.source)],
                source: exit.source))
        }
    }

    private mutating func reportTwice(_ earlier: Registration, again: Registration, owner: UInt32, _ replay: ReplayView, _ findings: inout [Finding]) {
        let ref = replay.ref(of: owner)
        guard reported.insert(Key(typeName: ref?.typeName ?? "", name: again.name, twice: true)).inserted else { return }
        let name = ref?.displayName ?? "#\(owner)"
        let first = earlier.addedIn.map { "in \($0) at \(replay.time(earlier.time))" } ?? "at \(replay.time(earlier.time))"
        let now = again.addedIn.map { "in \($0) at \(replay.time(again.time))" } ?? "at \(replay.time(again.time))"
        findings.append(Finding(
            ruleID: Self.id, severity: severity, controller: name, timestamp: again.time, ordinal: again.ordinal, callback: again.addedIn,
            message: "\(name) adds observer \(MarkOwner.quoted(again.name)) \(now) while the one added \(first) is still registered: every notification is now handled twice. The callback that removes it runs less often than the one that adds it.",
            related: [RelatedEvent(ordinal: earlier.ordinal, timestamp: earlier.time, message: "observer \(MarkOwner.quoted(earlier.name)) first added \(first)", source: earlier.source)],
            source: again.source))
    }
}
