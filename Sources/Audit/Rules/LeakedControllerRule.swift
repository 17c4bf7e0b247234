import TraceModel

/// `leaked_controller`: a removed controller not deinitialized within a grace period.
struct LeakedControllerRule: AuditRule {
    static let id = "leaked_controller"
    static let defaultGrace: UInt64 = 5_000_000_000

    static let rule = Rule(Self.self) { LeakedControllerRule(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A controller removed (popped, dismissed, removed from its parent, dropped by setViewControllers, didMove(toParent: nil)) is not deinitialized within the grace period.",
            defaultSeverity: .error,
            severityNote: "inconclusive (the configuration's `inconclusive_severity`, a note by default) when the trace ends before the grace period does",
            parameters: [
                RuleParameter(
                    name: "grace", kind: .duration, defaultValue: .duration(LeakedControllerRule.defaultGrace),
                    unit: "s (trace clock)",
                    summary: "How long after its last removal signal a controller may stay alive, measured on the trace's monotonic clock."
                ),
            ],
            explanation: """
                Once a controller has left the controller tree — popped from a navigation stack, dismissed, \
                removed from its parent (didMove(toParent: nil)), dropped from a container's list by setViewControllers \
                or replaced as a root (the replay's `replaced` removal) — nothing in UIKit keeps it, and it should be \
                deinitialized soon after its disappearance animation ends (docs/LIFECYCLE.md, "pop": deinit only if \
                nothing retains it). A controller that stays alive is retained by the app: a closure capturing \
                self strongly, a delegate or data source declared strong, a Timer or CADisplayLink target, a \
                notification observer block. The grace period starts at the last removal signal of the removal \
                (a pop followed by didMove(toParent: nil) counts from the latter) and is measured on the trace \
                clock, which is a monotonic clock (time asleep counts only if the trace's clock domain counts it). \
                A controller added back (push, addChild, present, didMove(toParent:) a parent) is no longer \
                removed; a controller whose process ends (a later recording run starts: the app was killed or \
                crashed) ends with it and is not reported, unless the grace had already run out at the last event \
                its process recorded; a cancelled interactive transition cancels the removal. A deinit that comes after the \
                grace period is also reported.
                """,
            fix: """
                Find what retains the controller: use [weak self] in escaping closures stored by others, declare \
                delegates weak, invalidate timers and display links in viewDidDisappear or when removed, remove \
                block-based observers. Xcode's memory graph debugger shows the retaining path.
                """,
            needs: [.removed],
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let feed = ExampleTrace.controller(1, "FeedViewController")
        let story = ExampleTrace.controller(2, "StoryViewController")
        let navigation = ExampleTrace.controller(3, "UINavigationController")

        var leaked = ExampleTrace()
        leaked.appear(feed)
        leaked.push(story, over: feed, navigation: navigation)
        leaked.pop(story, revealing: feed, navigation: navigation)
        leaked.wait(20)
        leaked.callback(.viewWillDisappear, feed)
        leaked.callback(.viewDidDisappear, feed)

        var freed = ExampleTrace()
        freed.appear(feed)
        freed.push(story, over: feed, navigation: navigation)
        freed.pop(story, revealing: feed, navigation: navigation)
        freed.callback(.deinitialize, story)
        freed.wait(20)
        freed.callback(.viewWillDisappear, feed)

        var tooShort = ExampleTrace()
        tooShort.appear(feed)
        tooShort.push(story, over: feed, navigation: navigation)
        tooShort.pop(story, revealing: feed, navigation: navigation)
        tooShort.wait(1)
        tooShort.callback(.viewWillDisappear, feed)

        var dropped = ExampleTrace()
        dropped.appear(feed)
        dropped.push(story, over: feed, navigation: navigation)
        dropped.container(.setViewControllers, navigation, [feed])
        dropped.callback(.viewWillDisappear, story)
        dropped.callback(.viewWillAppear, feed)
        dropped.callback(.viewDidDisappear, story)
        dropped.callback(.viewDidAppear, feed)
        var droppedAndFreed = dropped
        droppedAndFreed.callback(.deinitialize, story)
        dropped.wait(20)
        dropped.callback(.viewWillDisappear, feed)
        droppedAndFreed.wait(20)
        droppedAndFreed.callback(.viewWillDisappear, feed)

        var killed = ExampleTrace()
        killed.runStarted("Feed[100]")
        killed.appear(feed)
        killed.push(story, over: feed, navigation: navigation)
        killed.pop(story, revealing: feed, navigation: navigation)
        killed.wait(1)
        killed.callback(.viewWillDisappear, feed)
        killed.wait(60)
        killed.runStarted("Feed[200]")
        killed.wait(20)
        killed.appear(ExampleTrace.controller(4, "FeedViewController"))

        return [
            RuleExample(title: "popped, never deinitialized, trace goes on for 20 s", events: leaked.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "popped and deinitialized", events: freed.events, expectedFindings: 0),
            RuleExample(title: "popped; the trace ends 1 s later, before the 5 s grace", events: tooShort.events, expectedFindings: 1, expectedVerdict: .inconclusive, expectedSeverity: .note),
            RuleExample(title: "dropped from the stack by setViewControllers, never deinitialized, trace goes on for 20 s", events: dropped.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "dropped by setViewControllers and deinitialized", events: droppedAndFreed.events, expectedFindings: 0),
            RuleExample(title: "popped; the app is killed 1 s later (a new recording run starts): it ended with its process", events: killed.events, expectedFindings: 0),
        ]
    }

    let facts: [FactKind] = [.removed, .container, .runStarted] + FactKind.callbacks(.willMoveToParent, .didMoveToParent, .deinitialize)

    /// A controller removed and not deinitialized yet: its first and latest removal.
    struct Removal {
        var controller: String
        var first: Signal
        var last: Signal
        var deadline: UInt64
    }

    /// One removal signal: how and where (put into words only when reported).
    struct Signal {
        var how: RemovalFact.How
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
    }

    let settings: RuleSettings
    let grace: UInt64
    var removed: [UInt32: Removal] = [:]

    init(settings: RuleSettings) {
        self.settings = settings
        grace = settings.duration("grace", default: Self.defaultGrace)
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .removed(let removal):
            let here = Signal(how: removal.how, ordinal: replay.ordinal, timestamp: replay.timestamp, source: replay.source)
            if removed[removal.controller] != nil {
                removed[removal.controller]!.last = here
                removed[removal.controller]!.deadline = replay.timestamp &+ grace
            } else {
                removed[removal.controller] = Removal(controller: replay.name(of: removal.controller), first: here, last: here, deadline: replay.timestamp &+ grace)
            }
        case .callback(let callback) where callback.callback == .deinitialize:
            guard callback.isStart, let removal = removed.removeValue(forKey: callback.controller), replay.timestamp > removal.deadline else { return }
            let after = TimeText.duration(replay.timestamp - removal.last.timestamp)
            findings.append(finding(
                removal, replay, severity: settings.severity, verdict: .violation,
                message: "\(removal.controller) was removed at \(replay.time(removal.last.timestamp)) but deinitialized only at \(replay.time(replay.timestamp)), \(after) later (grace \(TimeText.duration(grace))): something retained it after it left the screen.",
                extra: replay.related("deinit at \(replay.time(replay.timestamp))")))
        case .callback(let callback):
            // willMove/didMove(toParent:) a controller: added back.
            if case .some(.some(_)) = callback.parent { removed[callback.controller] = nil }
        case .container(let container):
            switch container.operation {
            case .push, .present, .addChild, .setRoot, .setViewControllers, .selectTab:
                for controller in container.controllers { removed[controller.serial] = nil }
            case .interactiveTransitionCancel:
                if let from = container.controllers.first { removed[from.serial] = nil }
            default:
                break
            }
        case .runStarted(_, let previous):
            // The previous process ended (the replay ends its controllers with it). A removed controller still
            // alive then ended with its process and is not a leak, unless the grace had already run out while the
            // process was still recording (its last event, a lower bound of its end).
            let lastOfRun = previous ?? replay.timestamp
            for removal in removed.values.sorted(by: { $0.last.ordinal < $1.last.ordinal }) where lastOfRun > removal.deadline {
                findings.append(finding(
                    removal, replay, severity: settings.severity, verdict: .violation,
                    message: "\(removal.controller) was removed at \(replay.time(removal.last.timestamp)) and never deinitialized: still alive at \(replay.time(lastOfRun)), the last event of its process, \(TimeText.duration(lastOfRun - removal.last.timestamp)) later (grace \(TimeText.duration(grace))); the process then ended (a new run starts at \(replay.time(replay.timestamp))). Something retains it.",
                    extra: nil))
            }
            removed.removeAll()
        default:
            break
        }
    }

    func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        let end = replay.timestamp
        for removal in removed.values.sorted(by: { $0.last.ordinal < $1.last.ordinal }) {
            let removedAt = replay.time(removal.last.timestamp)
            let alive = TimeText.duration(end &- removal.last.timestamp)
            if end > removal.deadline {
                findings.append(finding(
                    removal, replay, severity: settings.severity, verdict: .violation,
                    message: "\(removal.controller) was removed at \(removedAt) and never deinitialized: still alive when the trace ends at \(replay.time(end)), \(alive) later (grace \(TimeText.duration(grace))). Something retains it.",
                    extra: nil))
            } else {
                findings.append(finding(
                    removal, replay, severity: settings.inconclusiveSeverity, verdict: .inconclusive,
                    message: "\(removal.controller) was removed at \(removedAt) and not deinitialized before the trace ends at \(replay.time(end)), only \(alive) later; the \(TimeText.duration(grace)) grace had not run out, so whether it leaks is unknown.",
                    extra: nil))
            }
        }
    }

    private func finding(_ removal: Removal, _ replay: ReplayView, severity: Severity, verdict: Verdict, message: String, extra: RelatedEvent?) -> Finding {
        let describe = { (signal: Signal) in
            RelatedEvent(ordinal: signal.ordinal, timestamp: signal.timestamp, message: "removed: \(signal.how.text) at \(replay.time(signal.timestamp))", source: signal.source)
        }
        var related = [describe(removal.first)]
        if removal.last.ordinal != removal.first.ordinal { related.append(describe(removal.last)) }
        if let extra { related.append(extra) }
        return Finding(
            ruleID: Self.id, severity: severity, verdict: verdict, controller: removal.controller, timestamp: removal.last.timestamp,
            ordinal: removal.last.ordinal, callback: nil, message: message, related: related, source: nil)
    }
}
