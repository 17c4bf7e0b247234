import TraceLog
import TraceModel

/// `leaked_controller`: a removed controller not deinitialized within a grace period.
enum LeakedControllerRule {
    static let id = "leaked_controller"
    static let defaultGrace: UInt64 = 5_000_000_000

    static let rule = Rule(descriptor) { LeakedControllerMonitor(settings: $0) }

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
                deinitialized soon after its disappearance animation ends (DESIGN.md §2, "pop": deinit only if \
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
}

/// The monitor of `leaked_controller`.
final class LeakedControllerMonitor: RuleMonitor {
    /// Plain bytes (a removal is copied into and out of `removed`, and a value with references was copied there by
    /// value witnesses, with reference counting): the controller's `ControllerRef` and the sources are in `held`.
    struct Removal {
        /// Where its controller and sources are in `held`.
        var slot: Int32
        var first: Removed
        var last: Removed
        var deadline: UInt64
    }

    /// What a removal holds that has references: the controller, made at its first removal, and the sources of
    /// its first and last removal events (an event's from an import; `nil` for a record).
    struct Held {
        var controller: ControllerRef
        var firstSource: EventSource?
        var lastSource: EventSource?
    }

    /// One removal event; its related-event text is built only for a finding (most removals end in a deinit).
    /// Plain bytes: how it was removed is a code, and its source is in `held` (`hasSource`).
    struct Removed {
        var ordinal: UInt64
        var timestamp: UInt64
        var hasSource: Bool
        /// `How`, as plain bytes (`how`).
        var howCode: UInt8
        var operationCode: UInt8

        init(ordinal: UInt64, timestamp: UInt64, hasSource: Bool, how: How) {
            self.ordinal = ordinal
            self.timestamp = timestamp
            self.hasSource = hasSource
            switch how {
            case .operation(let operation):
                howCode = 0
                operationCode = operation.rawValue
            case .didMoveToNil:
                howCode = 1
                operationCode = 0
            case .leftList(let operation):
                howCode = 2
                operationCode = operation.rawValue
            }
        }

        var how: How {
            let operation = ContainerOperation(rawValue: operationCode) ?? .setRoot
            return switch howCode {
            case 0: .operation(operation)
            case 1: .didMoveToNil
            default: .leftList(operation)
            }
        }

        /// How a controller was removed.
        enum How {
            /// A container operation on it: `pop`, `dismiss`, `removeFromParent`, …
            case operation(ContainerOperation)
            case didMoveToNil
            /// It left the list of a setViewControllers or setRoot.
            case leftList(ContainerOperation)

            /// E.g. `pop`, `didMove(toParent: nil)`.
            var text: String {
                switch self {
                case .operation(let operation): operation.name
                case .didMoveToNil: "didMove(toParent: nil)"
                case .leftList(let operation): "left the list of \(operation.name)"
                }
            }
        }

        func related(_ clock: (UInt64) -> String, source: EventSource?) -> RelatedEvent {
            RelatedEvent(ordinal: ordinal, timestamp: timestamp, message: "removed: \(how.text) at \(clock(timestamp))", source: source)
        }
    }

    let interests: EventInterests = [.callbacks, .containers, .recorder]
    /// Parent changes at every phase, deinit at begin (an instant is a begin; its end changes nothing).
    let callbackFilter = CallbackSet([.willMoveToParent, .didMoveToParent]).union(CallbackSet([.deinitialize], ends: false))
    let containerFilter = ContainerOperationSet([
        .pop, .dismiss, .presentationControllerDidDismiss, .removeFromParent, .push, .present, .addChild, .setRoot, .setViewControllers,
        .selectTab, .interactiveTransitionCancel,
    ])
    /// Callbacks and container events read nothing of the replayed state, but setViewControllers and setRoot (the
    /// fold's list of the members they replaced).
    let stateFreeCallbacks = CallbackSet.all
    let stateFreeContainers = ContainerOperationSet([
        .pop, .dismiss, .presentationControllerDidDismiss, .removeFromParent, .push, .present, .addChild, .selectTab, .interactiveTransitionCancel,
    ])
    /// From batches it reads its callbacks itself (`scanCallbacks(_:_:)`; the engine lends it the callbacks before
    /// a container event first): ≈ 10 000 of every 100 000 events, most of which change
    /// nothing (nothing is removed, or not this controller).
    let scansCallbacks = true
    private let settings: RuleSettings
    private let grace: UInt64
    @exclusivity(unchecked) private var removed = SerialMap<Removal>()
    /// Per slot of a removal in `removed`, its controller and sources; a free slot (`freeSlots`) keeps what its last
    /// removal held until it is claimed again (so there are never more than the most removals kept at once).
    @exclusivity(unchecked) private var held: [Held] = []
    @exclusivity(unchecked) private var freeSlots: [Int32] = []

    init(settings: RuleSettings) {
        self.settings = settings
        grace = settings.duration("grace", default: LeakedControllerRule.defaultGrace)
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard !removed.isEmpty || (record.callback == .didMoveToParent && record.parent == .none) else { return }
        switch record.callback {
        case .deinitialize:
            guard record.phase != .end, let removal = removed.removeValue(forKey: record.controller) else { return }
            if record.timestamp > removal.deadline { lateDeinit(removal, record, context, &findings) }
            release(removal.slot)
        case .didMoveToParent where record.parent == .none:
            remove(record.controller, { context.controller(of: record) }, at: record.timestamp, source: context.source, ordinal: context.ordinal, how: .didMoveToNil)
        case .didMoveToParent, .willMoveToParent:
            if record.parent == .controller, !removed.isEmpty { drop(record.controller) }
        default:
            break
        }
    }

    /// The callback entries of a batch not read yet, as `observe(callback:_:_:)` (a callback entry has no source).
    func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {
        let entries = scan.entries
        let didMove = UInt64(Callback.didMoveToParent.rawValue)
        let deinitCode = UInt64(Callback.deinitialize.rawValue)
        for position in scan.positions {
            let at = scan.index(at: position)
            // A listed entry is a callback entry of `callbackFilter`.
            let word = entries.word(at: at).raw
            let code = (word >> 48) & 0xFF
            let parent = (word >> 60) & 3
            // Parent codes: `EventRecord.Parent` raw values (absent 0, none 1, controller 2).
            if code == didMove, parent == UInt64(EventRecord.Parent.none.rawValue) {
                remove(UInt32(truncatingIfNeeded: word), { scan.context(at: at).controller(of: scan.record(at: at)) }, at: entries.timestamp(at: at), source: nil, ordinal: scan.ordinal(at: at), how: .didMoveToNil)
                continue
            }
            if removed.isEmpty { continue }
            if code == deinitCode {
                guard let removal = removed.removeValue(forKey: UInt32(truncatingIfNeeded: word)) else { continue }
                let timestamp = entries.timestamp(at: at)
                if timestamp > removal.deadline { lateDeinit(removal, scan.record(at: at), scan.context(at: at), &findings) }
                release(removal.slot)
            } else if parent == UInt64(EventRecord.Parent.controller.rawValue) {
                drop(UInt32(truncatingIfNeeded: word))
            }
        }
    }

    /// A finding for a removed controller deinitialized after its grace period (`record`: the deinit).
    private func lateDeinit(_ removal: Removal, _ record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        let after = TimeText.duration(record.timestamp - removal.last.timestamp)
        findings.append(finding(
            removal, severity: settings.severity, verdict: .violation,
            message: "\(held[Int(removal.slot)].controller.displayName) was removed at \(context.time(removal.last.timestamp)) but deinitialized only at \(context.time(record.timestamp)), \(after) later (grace \(TimeText.duration(grace))): something retained it after it left the screen.",
            extra: context.related(record, "deinit at \(context.time(record.timestamp))"), context.time
        ))
    }

    /// Container events are read from the record (the controllers' serials, and their `ControllerRef`s only for a
    /// removal), without building an `Event`; the same logic as the `.container` case of `observe(_:_:_:)`.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard let operation = record.containerOperation else {
            context.withEvent(of: record) { observe($0, context, &findings) }
            return
        }
        let count = Int(record.listCount)
        switch operation {
        case .pop, .dismiss, .presentationControllerDidDismiss, .removeFromParent:
            for index in 0..<count {
                remove(context.listSerial(index, of: record), { context.listController(index, of: record) }, at: record.timestamp, source: context.source, ordinal: context.ordinal, how: .operation(operation))
            }
        case .push, .present, .addChild, .setRoot, .setViewControllers, .selectTab:
            if !removed.isEmpty {
                for index in 0..<count { drop(context.listSerial(index, of: record)) }
            }
            if operation == .setViewControllers || operation == .setRoot {
                removeReplaced(at: record.timestamp, source: context.source, context, operation: operation)
            }
        case .interactiveTransitionCancel:
            if count > 0 { drop(context.listSerial(0, of: record)) }
        default:
            break
        }
    }

    /// The members that left the list of a setViewControllers or setRoot: the fold's removal record (`replaced`)
    /// at this event.
    private func removeReplaced(at timestamp: UInt64, source: EventSource?, _ context: EventContext, operation: ContainerOperation) {
        // Asked in place per serial (a copy of every record, to read three fields, cost ≈ 20 000 instructions).
        let controllers = context.state.controllers
        for serial in controllers.keys.sorted() where controllers.leftList(serial, at: context.ordinal) {
            guard let ref = controllers[serial]?.ref else { continue }
            remove(serial, { ref }, at: timestamp, source: source, ordinal: context.ordinal, how: .leftList(operation))
        }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        switch event.payload {
        case .recorder(.runStarted) where context.ordinal > 0:
            // The previous process ended (killed or crashed: the replay ends its controllers with it). A removed
            // controller still alive then ended with its process and is not a leak, unless the grace had already
            // run out while the process was still recording (its last event, a lower bound of its end).
            let lastOfRun = context.previousTimestamp ?? event.timestamp
            for removal in removed.values.sorted(by: { $0.last.ordinal < $1.last.ordinal }) where lastOfRun > removal.deadline {
                findings.append(finding(
                    removal, severity: settings.severity, verdict: .violation,
                    message: "\(held[Int(removal.slot)].controller.displayName) was removed at \(context.time(removal.last.timestamp)) and never deinitialized: still alive at \(context.time(lastOfRun)), the last event of its process, \(TimeText.duration(lastOfRun - removal.last.timestamp)) later (grace \(TimeText.duration(grace))); the process then ended (a new run starts at \(context.time(event.timestamp))). Something retains it.",
                    extra: nil, context.time
                ))
            }
            removed.removeAll()
            held.removeAll(keepingCapacity: true)
            freeSlots.removeAll(keepingCapacity: true)
        case .container(let container):
            switch container.operation {
            case .pop, .dismiss, .presentationControllerDidDismiss, .removeFromParent:
                for controller in container.controllers {
                    remove(controller.serial, { controller }, at: event.timestamp, source: event.source, ordinal: context.ordinal, how: .operation(container.operation))
                }
            case .push, .present, .addChild, .setRoot, .setViewControllers, .selectTab:
                if !removed.isEmpty {
                    for controller in container.controllers { drop(controller.serial) }
                }
                if container.operation == .setViewControllers || container.operation == .setRoot {
                    removeReplaced(at: event.timestamp, source: event.source, context, operation: container.operation)
                }
            case .interactiveTransitionCancel:
                if let from = container.controllers.first { drop(from.serial) }
            default:
                break
            }
        default:
            break
        }
    }

    /// A removal of `serial` (`controller` makes its `ControllerRef`, asked only for its first removal).
    private func remove(_ serial: UInt32, _ controller: () -> ControllerRef, at timestamp: UInt64, source: EventSource?, ordinal: UInt64, how: Removed.How) {
        let here = Removed(ordinal: ordinal, timestamp: timestamp, hasSource: source != nil, how: how)
        if let position = removed.position(of: serial) {
            let hadSource = removed[at: position].last.hasSource
            removed[at: position].last = here
            removed[at: position].deadline = timestamp &+ grace
            if hadSource || source != nil { held[Int(removed[at: position].slot)].lastSource = source }
        } else {
            let slot = claim(Held(controller: controller(), firstSource: source, lastSource: source))
            removed[serial] = Removal(slot: slot, first: here, last: here, deadline: timestamp &+ grace)
        }
    }

    /// A slot of `held` for `value` (a free one if any).
    private func claim(_ value: Held) -> Int32 {
        if let slot = freeSlots.popLast() {
            held[Int(slot)] = value
            return slot
        }
        held.append(value)
        return Int32(held.count &- 1)
    }

    /// Frees the slot of a removal that ended (its values are replaced when the slot is claimed again).
    @inline(__always)
    private func release(_ slot: Int32) {
        freeSlots.append(slot)
    }

    /// The controller `serial` is no longer removed (added back, or a cancelled transition).
    @inline(__always)
    private func drop(_ serial: UInt32) {
        if let removal = removed.removeValue(forKey: serial) { release(removal.slot) }
    }

    private func finding(_ removal: Removal, severity: Severity, verdict: Verdict, message: String, extra: RelatedEvent?, _ clock: (UInt64) -> String) -> Finding {
        let kept = held[Int(removal.slot)]
        var related = [removal.first.related(clock, source: kept.firstSource)]
        if removal.last.ordinal != removal.first.ordinal { related.append(removal.last.related(clock, source: kept.lastSource)) }
        if let extra { related.append(extra) }
        return Finding(
            ruleID: LeakedControllerRule.id, severity: severity, verdict: verdict,
            controller: kept.controller.displayName, timestamp: removal.last.timestamp, ordinal: removal.last.ordinal,
            callback: nil, message: message, related: related, source: nil
        )
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        for removal in removed.values.sorted(by: { $0.last.ordinal < $1.last.ordinal }) {
            let removedAt = end.time(removal.last.timestamp)
            let endsAt = end.time(end.lastTimestamp)
            let alive = TimeText.duration(end.lastTimestamp &- removal.last.timestamp)
            if end.lastTimestamp > removal.deadline {
                findings.append(finding(
                    removal, severity: settings.severity, verdict: .violation,
                    message: "\(held[Int(removal.slot)].controller.displayName) was removed at \(removedAt) and never deinitialized: still alive when the trace ends at \(endsAt), \(alive) later (grace \(TimeText.duration(grace))). Something retains it.",
                    extra: nil, end.time
                ))
            } else {
                findings.append(finding(
                    removal, severity: settings.inconclusiveSeverity, verdict: .inconclusive,
                    message: "\(held[Int(removal.slot)].controller.displayName) was removed at \(removedAt) and not deinitialized before the trace ends at \(endsAt), only \(alive) later; the \(TimeText.duration(grace)) grace had not run out, so whether it leaks is unknown.",
                    extra: nil, end.time
                ))
            }
        }
    }
}
