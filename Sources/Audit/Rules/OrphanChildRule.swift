import TraceLog
import TraceModel

/// `orphan_child`: containment done halfway.
enum OrphanChildRule {
    static let id = "orphan_child"

    static let rule = Rule(descriptor) { OrphanChildMonitor(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A controller's view attached under another controller's view, or its appearance callbacks run inside another's, without addChild; addChild without didMove(toParent:); removal that does not start with willMove(toParent: nil).",
            defaultSeverity: .error,
            severityNote: "inconclusive when the trace (or the process: a later recording run starts) ends after addChild but before the child finished appearing without didMove(toParent:)",
            explanation: """
                UIKit keeps a controller tree beside the view tree. Embedding a child takes three steps: \
                addChild(_:) (which calls willMove(toParent:)), adding the child's view, then \
                didMove(toParent:); removing takes willMove(toParent: nil), removing the view, then \
                removeFromParent() (which calls didMove(toParent: nil)) (Apple, "Creating a custom container \
                view controller"; DESIGN.md §2). A child whose view is added without addChild draws, but is \
                orphaned: it gets no trait, size or rotation updates and its appearance callbacks are missing or \
                forwarded by hand (its appearance callbacks then run inside the host's); addChild without \
                didMove leaves the child believing the transition is still under way; a removal without \
                willMove(toParent: nil) skips the child's chance to stop its work. The rule needs container \
                events or begin/end callbacks: a log with only callback lines never triggers it.
                """,
            fix: """
                Embed with addChild(child); view.addSubview(child.view); child.didMove(toParent: self). Remove \
                with child.willMove(toParent: nil); child.view.removeFromSuperview(); child.removeFromParent(). \
                For SwiftUI, embed the UIHostingController the same way.
                """,
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let panel = ExampleTrace.controller(1, "PanelViewController")
        let host = ExampleTrace.controller(2, "UIHostingController<SummaryView>")

        var orphan = ExampleTrace()
        orphan.appear(panel)
        orphan.callback(.initialize, host)
        orphan.container(.attachView, panel, [host])

        var forwarded = ExampleTrace()
        forwarded.callback(.initialize, panel)
        forwarded.callback(.viewDidLoad, panel)
        forwarded.callback(.initialize, host)
        forwarded.interval(.viewWillAppear, panel) { $0.interval(.viewWillAppear, host) { _ in } }

        var proper = ExampleTrace()
        proper.appear(panel)
        proper.callback(.initialize, host)
        proper.container(.addChild, panel, [host])
        proper.callback(.willMoveToParent, host, parent: .controller(panel))
        proper.container(.attachView, panel, [host])
        proper.callback(.didMoveToParent, host, parent: .controller(panel))
        proper.callback(.willMoveToParent, host, parent: ParentArgument.none)
        proper.container(.removeFromParent, panel, [host])
        proper.callback(.didMoveToParent, host, parent: ParentArgument.none)
        proper.callback(.deinitialize, host)

        var abrupt = ExampleTrace()
        abrupt.appear(panel)
        abrupt.callback(.initialize, host)
        abrupt.container(.addChild, panel, [host])
        abrupt.container(.attachView, panel, [host])
        abrupt.callback(.didMoveToParent, host, parent: .controller(panel))
        abrupt.container(.removeFromParent, panel, [host])
        abrupt.callback(.didMoveToParent, host, parent: ParentArgument.none)
        abrupt.callback(.deinitialize, host)

        return [
            RuleExample(title: "a hosting controller's view added without addChild", events: orphan.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "appearance forwarded by hand to a controller that was never added", events: forwarded.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "removeFromParent without willMove(toParent: nil)", events: abrupt.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "addChild, attach, didMove; willMove(nil), removeFromParent", events: proper.events, expectedFindings: 0),
        ]
    }
}

/// The monitor of `orphan_child`.
///
/// Per-controller state is one `Link` per serial in a `SerialWindow` (flat over recent serials; emptied at deinit,
/// so memory follows the live controllers), controllers as serials. A parent is shown in a finding by the name it
/// had in the event that made it the parent: the rule keeps one name per parent serial while some child links to
/// it under that name (`parentNames`, counted), and the rare child whose parent was recorded under another name
/// (one serial under two names: a label that differs in a JSON Lines input, a hand-made trace) has that name beside
/// it (`oddParents`).
final class OrphanChildMonitor: RuleMonitor {
    struct PendingDidMove {
        var child: ControllerRef
        var parent: ControllerRef
        /// The addChild event: ordinal, timestamp, source (its text is built only for a finding; boxed: one word
        /// to copy).
        var addChildAt: (ordinal: UInt64, timestamp: UInt64, source: SourceBox?)
        var appeared: RelatedEvent?

        /// The addChild event as a related event; `clock` formats trace times (`EventContext.time(_:)`).
        func addChild(_ clock: (UInt64) -> String) -> RelatedEvent {
            RelatedEvent(ordinal: addChildAt.ordinal, timestamp: addChildAt.timestamp, message: "addChild(\(child.displayName)) on \(parent.displayName) at \(clock(addChildAt.timestamp))", source: addChildAt.source?.source)
        }
    }

    /// What the rule knows of one controller (all zero: nothing).
    struct Link: Equatable {
        /// The parent's serial (when `hasParent`), from addChild, push, setViewControllers, selectTab,
        /// willMove/didMove(toParent:).
        var parent: UInt32 = 0
        /// The presenter's serial (when `hasPresenter`).
        var presenter: UInt32 = 0
        var flags: UInt32 = 0

        static let hasParent: UInt32 = 1
        static let hasPresenter: UInt32 = 2
        /// Set as a window's root.
        static let isRoot: UInt32 = 4
        /// Got willMove(toParent: nil) since it was added.
        static let isLeaving: UInt32 = 8
        /// Already reported as an orphan (one finding per instance).
        static let isReported: UInt32 = 16
        /// The parent's name is in `oddParents`, not `parentNames`.
        static let hasOddParentName: UInt32 = 32
        /// Any of these makes appearance callbacks legitimate (or already reported).
        static let placed: UInt32 = hasParent | hasPresenter | isRoot | isReported

        @inline(__always)
        func has(_ flag: UInt32) -> Bool { flags & flag != 0 }
    }

    /// A parent's name and how many children link to it under that name.
    struct ParentName {
        var ref: ControllerRef
        var children: Int
        /// The last frame slot seen to name the parent by `ref`'s name (`EventContext.place(ofSlot:)`), if any.
        var seenAt: (frame: UInt64, slot: UInt32)?
    }

    let interests: EventInterests = [.callbacks, .containers, .recorder]
    /// Parent changes and deinit at every phase, appearance callbacks at begin; while an addChild waits for
    /// didMove(toParent:), viewDidAppear at every phase, and every callback only once a waiting child appeared
    /// (`callbackDemand`, `updateDemand()`).
    let callbackFilter = CallbackSet([.willMoveToParent, .didMoveToParent, .deinitialize])
        .union(CallbackSet([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear], ends: false))
    /// Appearance begins reach the rule only for controllers not placed (no parent, presenter or root, not
    /// reported: the serials not in the set, which holds the placed ones), or when `callbackDemand` asks for them.
    var serialFilters: [SerialFilter] { [placed] }
    /// The placed serials (`Link.placed`).
    private let placed = SerialFilter(
        CallbackSet([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear], ends: false), .nonMembers)
    /// The end of a willMove/didMove(toParent:) right after its own begin (same child, same parent argument, same
    /// frame) changes nothing the rule keeps: the begin already applied what the end would (a parent named by the
    /// same frame slot, so by the same name, is set again as it is; an end with `nil` or no parent is ignored), and
    /// the waiting addChild check cannot fire at it (the begin removed an appeared child's entry, and
    /// didMove(toParent:) the child's entry). Most ends are such, and the engine then leaves them out.
    let quietEnds = CallbackSet([.willMoveToParent, .didMoveToParent])
    let containerFilter = ContainerOperationSet([.addChild, .push, .setViewControllers, .selectTab, .setRoot, .present, .pop, .dismiss, .removeFromParent, .attachView])
    /// Every callback and container operation: the rule reads the replayed state (the attribution) only for a
    /// finding or an appearance callback of a controller with no parent, presenter or root, and defers those to
    /// the folded state (`needsState(_:)`, `EventContext.deferUntilFolded()`).
    let stateFreeCallbacks = CallbackSet.all
    let stateFreeRecords: EventInterests = .containers
    let callbackDemand: CallbackDemand? = CallbackDemand()
    /// What a waiting child needs before it appeared: its viewDidAppear (end or instant) marks it appeared.
    private static let waitingDemand = CallbackSet([.viewDidAppear])
    /// Whether a waiting child appeared since `pendingDidMove` was last empty (then any callback of it is a
    /// finding, so every callback is wanted); may stay set after that child stops waiting, which only widens
    /// the demand.
    @exclusivity(unchecked) private var anyAppeared = false
    /// What `callbackDemand` holds (written only when it changes).
    @exclusivity(unchecked) private var demanded: CallbackSet = []
    private let settings: RuleSettings
    @exclusivity(unchecked) private var links = SerialWindow<Link>(empty: Link())
    /// Parent serial → the name its children (those without `hasOddParentName`) were linked under.
    @exclusivity(unchecked) private var parentNames = SerialMap<ParentName>()
    /// Child serial → its parent's name, when that differs from the parent serial's entry in `parentNames`.
    @exclusivity(unchecked) private var oddParents = SerialMap<ControllerRef>()
    @exclusivity(unchecked) private var pendingDidMove = SerialMap<PendingDidMove>()

    init(settings: RuleSettings) {
        self.settings = settings
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        if pendingDidMove.isEmpty, demanded.isEmpty {
            // Nothing waits for didMove(toParent:): the two commonest callbacks in short (what `observeCallback`
            // does for them then).
            switch record.callback {
            case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
                if record.phase != .begin || links[record.controller].has(Link.placed) { return }
            case .deinitialize:
                clear(record.controller)
                return
            default:
                break
            }
        }
        if !context.isFolded, needsState(record) {
            context.deferUntilFolded()
            return
        }
        observeCallback(record, context, &findings)
        if !pendingDidMove.isEmpty || !demanded.isEmpty { updateDemand() }
    }

    /// Whether observing the callback `record` reads the attribution: an appearance begin of a controller with no
    /// parent, presenter or root, not yet reported (is an appearance callback of another open?); a
    /// didMove(toParent: nil) that is a finding (the callback its parent is in). Asked before anything changes.
    @inline(__always)
    private func needsState(_ record: EventRecord) -> Bool {
        switch record.callback {
        case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
            return record.phase == .begin && !links[record.controller].has(Link.placed)
        case .didMoveToParent:
            guard record.parent == .none, record.phase != .end else { return false }
            let link = links[record.controller]
            return link.has(Link.hasParent) && !link.has(Link.isLeaving)
        default:
            return false
        }
    }

    /// Container events, read from the record: serials for the children, `ControllerRef`s only where the rule
    /// keeps a name (a parent, an addChild's child) or makes a finding.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.kind == .container, record.phase != .end else { return }
        if !context.isFolded, containerNeedsState(record, context) {
            context.deferUntilFolded()
            return
        }
        observeContainer(record, context, &findings)
        updateDemand()
    }

    /// Whether observing the container `record` makes a finding (which names the callback the host or parent is
    /// in): a removeFromParent of a child with a parent and no willMove(toParent: nil), a view attached without
    /// addChild. Asked before anything changes (it may say yes where a repeated child makes no second finding).
    private func containerNeedsState(_ record: EventRecord, _ context: EventContext) -> Bool {
        let count = Int(record.listCount)
        switch ContainerOperation(rawValue: record.code) {
        case .removeFromParent?:
            for index in 0..<count {
                let link = links[context.listSerial(index, of: record)]
                if link.has(Link.hasParent), !link.has(Link.isLeaving) { return true }
            }
        case .attachView?:
            guard record.hasController else { return false }
            for index in 0..<count where Self.isOrphanView(links[context.listSerial(index, of: record)], host: record.controller) { return true }
        default:
            break
        }
        return false
    }

    /// Whether a view attached under `host`'s is a finding for a child with `link`: `host` is neither its parent
    /// nor its presenter, and it was not reported yet.
    @inline(__always)
    private static func isOrphanView(_ link: Link, host: UInt32) -> Bool {
        !(link.has(Link.hasParent) && link.parent == host) && !(link.has(Link.hasPresenter) && link.presenter == host)
            && !link.has(Link.isReported)
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        defer { updateDemand() }
        switch event.payload {
        case .recorder(.runStarted) where context.ordinal > 0:
            // The previous process ended (killed or crashed) before these children got didMove(toParent:): as
            // inconclusive as a trace that ends there, and said so now rather than at the end of a later run.
            let endedAt = context.time(context.previousTimestamp ?? event.timestamp)
            for pending in pendingDidMove.values.sorted(by: { $0.addChildAt.ordinal < $1.addChildAt.ordinal }) {
                let child = pending.child.displayName
                findings.append(Finding(
                    ruleID: OrphanChildRule.id, severity: settings.inconclusiveSeverity, verdict: .inconclusive,
                    controller: child, timestamp: pending.addChildAt.timestamp, ordinal: pending.addChildAt.ordinal, callback: nil,
                    message: "\(pending.parent.displayName) added \(child) with addChild at \(context.time(pending.addChildAt.timestamp)) and its process ended (last event at \(endedAt); a new run starts at \(context.time(event.timestamp))) before didMove(toParent:) is called.",
                    related: [pending.addChild(context.time)]
                ))
            }
            pendingDidMove.removeAll()
        default:
            break
        }
    }

    private func observeContainer(_ record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        // An unknown code stands for setRoot, as the `Event` built from the record says.
        let operation = ContainerOperation(rawValue: record.code) ?? .setRoot
        let count = Int(record.listCount)
        switch operation {
        case .addChild:
            guard record.hasController else { return }
            let parent = context.controller(of: record)
            for index in 0..<count {
                let child = context.listController(index, of: record)
                setParent(of: child.serial, to: parent, clearingLeaving: true)
                pendingDidMove[child.serial] = PendingDidMove(
                    child: child, parent: parent,
                    addChildAt: (context.ordinal, record.timestamp, context.hasSource ? context.source.map(SourceBox.init) : nil))
            }
        case .push, .setViewControllers, .selectTab:
            guard record.hasController else { return }
            // The container's `ControllerRef`, made once if some child needs it.
            var parent: ControllerRef?
            for index in 0..<count {
                setParent(of: context.listSerial(index, of: record), parentSerial: record.controller, slot: record.controllerSlot, context, clearingLeaving: true) {
                    if parent == nil { parent = context.controller(of: record) }
                    return parent
                }
            }
        case .setRoot:
            for index in 0..<count {
                let root = context.listSerial(index, of: record)
                var link = links[root]
                let old = link
                link.flags |= Link.isRoot
                store(link, for: root, replacing: old)
            }
        case .present:
            guard record.hasController else { return }
            for index in 0..<count {
                let presented = context.listSerial(index, of: record)
                var link = links[presented]
                let old = link
                link.presenter = record.controller
                link.flags |= Link.hasPresenter
                store(link, for: presented, replacing: old)
            }
        case .pop, .dismiss:
            for index in 0..<count { forget(context.listSerial(index, of: record)) }
        case .removeFromParent:
            for index in 0..<count {
                let child = context.listSerial(index, of: record)
                checkRemoval(of: child, { context.listController(index, of: record) }, at: record.timestamp, context, &findings, what: "removeFromParent()")
            }
        case .attachView:
            guard record.hasController else { return }
            let host = record.controller
            for index in 0..<count {
                let child = context.listSerial(index, of: record)
                let link = links[child]
                guard Self.isOrphanView(link, host: host) else { continue }
                var reported = link
                reported.flags |= Link.isReported
                store(reported, for: child, replacing: link)
                let hostRef = context.controller(of: record)
                let childRef = context.listController(index, of: record)
                let parentNote = link.has(Link.hasParent) ? " (its parent is \(parentName(of: child, link).displayName))" : ""
                findings.append(Finding(
                    ruleID: OrphanChildRule.id, severity: settings.severity, controller: childRef.displayName,
                    timestamp: record.timestamp, ordinal: context.ordinal, callback: context.attribution.enclosing(of: hostRef)?.name,
                    message: "the view of \(childRef.displayName) was added under \(hostRef.displayName)'s view at \(context.time(record.timestamp)) without addChild\(parentNote): the child is orphaned from the controller tree and gets no appearance, trait or size updates from UIKit.",
                    source: context.source
                ))
            }
        default:
            break
        }
    }

    private func observeCallback(_ record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        let serial = record.controller
        let callback = record.callback
        // The waiting entry is read and changed in place (copying it out and back, two names, a related event and
        // a source, cost more than the rest of the call, at every callback of a waiting child).
        if !pendingDidMove.isEmpty, record.phase != .begin || callback != .viewDidAppear, let position = pendingDidMove.position(of: serial) {
            if callback == .didMoveToParent, record.parent == .controller {
                pendingDidMove.remove(at: position)
            } else if let appeared = pendingDidMove[at: position].appeared, callback != .viewDidAppear {
                let pending = pendingDidMove[at: position]
                pendingDidMove.remove(at: position)
                let child = context.controller(of: record)
                findings.append(Finding(
                    ruleID: OrphanChildRule.id, severity: settings.severity, controller: child.displayName,
                    timestamp: pending.addChildAt.timestamp, ordinal: pending.addChildAt.ordinal, callback: nil,
                    message: "\(pending.parent.displayName) added \(child.displayName) with addChild at \(context.time(pending.addChildAt.timestamp)) but never called didMove(toParent:) — the child appeared at \(context.time(appeared.timestamp)) and went on to \(callback.name) at \(context.time(record.timestamp)) still waiting for it.",
                    related: [pending.addChild(context.time), appeared, context.related(record, "\(callback.name) at \(context.time(record.timestamp))")]
                ))
            } else if callback == .viewDidAppear {
                pendingDidMove[at: position].appeared = context.related(record, "\(context.controller(of: record).displayName) viewDidAppear at \(context.time(record.timestamp))")
                anyAppeared = true
            }
        }
        switch callback {
        case .willMoveToParent:
            if record.parent == .controller {
                setParent(of: serial, record, context, clearingLeaving: true)
            } else if record.parent != .absent, record.phase != .end {
                var link = links[serial]
                let old = link
                link.flags |= Link.isLeaving
                store(link, for: serial, replacing: old)
            }
        case .didMoveToParent:
            if record.parent == .controller {
                setParent(of: serial, record, context, clearingLeaving: false)
            } else if record.parent != .absent, record.phase != .end {
                checkRemoval(of: serial, { context.controller(of: record) }, at: record.timestamp, context, &findings, what: "didMove(toParent: nil)")
            }
        case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
            let link = links[serial]
            guard record.phase == .begin, !link.has(Link.placed),
                  let host = context.attribution.innermostOpenAppearanceCallback(excludingSerial: serial) else { return }
            var reported = link
            reported.flags |= Link.isReported
            store(reported, for: serial, replacing: link)
            let child = context.controller(of: record)
            findings.append(Finding(
                ruleID: OrphanChildRule.id, severity: settings.severity, controller: child.displayName,
                timestamp: record.timestamp, ordinal: context.ordinal, callback: callback.name,
                message: "\(child.displayName) gets \(callback.name) inside \(host.controller?.displayName ?? "another controller")'s \(host.name) at \(context.time(record.timestamp)), but it was never added as a child (no addChild, push or presentation): appearance is being forwarded by hand to an orphan.",
                related: [RelatedEvent(ordinal: host.ordinal, timestamp: host.timestamp, message: "\(host.controller?.displayName ?? "host") \(host.name) began at \(context.time(host.timestamp))")],
                source: context.source
            ))
        case .deinitialize:
            // Nothing of the controller is left: its parent, leaving, presenter, root and reported marks.
            if !pendingDidMove.isEmpty { removePending(serial) }
            clear(serial)
        default:
            break
        }
    }

    /// Forgets all the rule knows of `serial` (its deinit; `pendingDidMove` apart).
    @inline(__always)
    private func clear(_ serial: UInt32) {
        let link = links[serial]
        if link != Link() {
            unlinkParent(of: serial, link)
            store(Link(), for: serial, replacing: link)
        }
    }

    /// Makes the controller named by the callback `record`'s parent argument the parent of `child`.
    @inline(__always)
    private func setParent(of child: UInt32, _ record: EventRecord, _ context: EventContext, clearingLeaving: Bool) {
        guard record.parent == .controller else { return }
        setParent(of: child, parentSerial: record.parentSerial, slot: record.parentSlot, context, clearingLeaving: clearingLeaving) {
            context.parent(of: record)
        }
    }

    /// Makes the controller `parentSerial`, named at frame slot `slot` of the record being observed, the parent of
    /// `child`; `parent` makes its `ControllerRef` (`nil`: no parent after all), asked only when the rule keeps or
    /// compares its name: not when the slot is the one the name kept for `parentSerial` was last seen at (a frame's
    /// controller table entry never changes, so the same place is the same name).
    @inline(__always)
    private func setParent(
        of child: UInt32, parentSerial: UInt32, slot: UInt32, _ context: EventContext, clearingLeaving: Bool, _ parent: () -> ControllerRef?
    ) {
        let place = context.place(ofSlot: slot)
        if let place, let position = parentNames.position(of: parentSerial), let seen = parentNames[at: position].seenAt,
           seen.frame == place.frame, seen.slot == place.slot {
            var link = links[child]
            if link.has(Link.hasParent), !link.has(Link.hasOddParentName), link.parent == parentSerial {
                // The same parent under the same name: nothing changes but the leaving mark.
                if clearingLeaving, link.has(Link.isLeaving) {
                    link.flags &= ~Link.isLeaving
                    links[child] = link
                }
                return
            }
            // A new child of a parent named as kept: counted as `setParent(of:to:clearingLeaving:seenAt:)` counts it.
            let old = link
            unlinkParent(of: child, link)
            link.parent = parentSerial
            link.flags = (link.flags | Link.hasParent) & ~Link.hasOddParentName
            if clearingLeaving { link.flags &= ~Link.isLeaving }
            // `unlinkParent` may have moved entries (it removed none of `parentSerial`'s: `child` was not linked to
            // it under the kept name).
            if let moved = parentNames.position(of: parentSerial) { parentNames[at: moved].children += 1 }
            store(link, for: child, replacing: old)
            return
        }
        guard let parent = parent() else { return }
        setParent(of: child, to: parent, clearingLeaving: clearingLeaving, seenAt: place)
    }

    /// Makes `parent` (by that name) the parent of `child`; with `clearingLeaving`, forgets a willMove(toParent: nil).
    /// `seenAt`: the frame slot `parent` was read from, kept with its name when that is the name kept.
    private func setParent(of child: UInt32, to parent: ControllerRef, clearingLeaving: Bool, seenAt: (frame: UInt64, slot: UInt32)? = nil) {
        var link = links[child]
        let old = link
        if link.has(Link.hasParent), !link.has(Link.hasOddParentName), link.parent == parent.serial,
           let position = parentNames.position(of: parent.serial), Self.sameName(parentNames[at: position].ref, parent) {
            // The same parent under the same name: nothing to count again.
            if let seenAt { parentNames[at: position].seenAt = seenAt }
        } else {
            unlinkParent(of: child, link)
            link.parent = parent.serial
            link.flags = (link.flags | Link.hasParent) & ~Link.hasOddParentName
            if let position = parentNames.position(of: parent.serial) {
                if Self.sameName(parentNames[at: position].ref, parent) {
                    parentNames[at: position].children += 1
                    if let seenAt { parentNames[at: position].seenAt = seenAt }
                } else {
                    link.flags |= Link.hasOddParentName
                    oddParents[child] = parent
                }
            } else {
                parentNames[parent.serial] = ParentName(ref: parent, children: 1, seenAt: seenAt)
            }
        }
        if clearingLeaving { link.flags &= ~Link.isLeaving }
        store(link, for: child, replacing: old)
    }

    /// Stores `link` for `serial`, keeping `placed` (the serial filter) in step; `old` is the link it
    /// replaces.
    @inline(__always)
    private func store(_ link: Link, for serial: UInt32, replacing old: Link) {
        links[serial] = link
        let placed = link.has(Link.placed)
        if placed != old.has(Link.placed) {
            if placed { self.placed.insert(serial) } else { self.placed.remove(serial) }
        }
    }

    /// Forgets `serial`'s waiting addChild.
    @inline(__always)
    private func removePending(_ serial: UInt32) {
        pendingDidMove.removeValue(forKey: serial)
    }

    /// Whether `a` and `b` (of one serial) are shown by the same name.
    @inline(__always)
    private static func sameName(_ a: ControllerRef, _ b: ControllerRef) -> Bool {
        a.typeName == b.typeName && a.label == b.label
    }

    /// Drops `child`'s hold on its parent's name (`link` is `child`'s; its flags are left as they are).
    private func unlinkParent(of child: UInt32, _ link: Link) {
        guard link.has(Link.hasParent) else { return }
        if link.has(Link.hasOddParentName) {
            oddParents.removeValue(forKey: child)
        } else if let position = parentNames.position(of: link.parent) {
            if parentNames[at: position].children > 1 {
                parentNames[at: position].children -= 1
            } else {
                parentNames.removeValue(forKey: link.parent)
            }
        }
    }

    /// The parent of `child` as named when it was linked (`link` is `child`'s, with `hasParent`).
    private func parentName(of child: UInt32, _ link: Link) -> ControllerRef {
        if link.has(Link.hasOddParentName), let odd = oddParents[child] { return odd }
        return parentNames[link.parent]?.ref ?? ControllerRef(serial: link.parent, typeName: "")
    }

    /// Narrows `callbackDemand` to what the waiting children need: nothing when none waits, their viewDidAppear
    /// until one appeared, then every callback (a waiting child that appeared and gets any callback but
    /// didMove(toParent:) is a finding). Written only when it changes.
    private func updateDemand() {
        let wanted: CallbackSet
        if pendingDidMove.isEmpty {
            anyAppeared = false
            wanted = []
        } else {
            wanted = anyAppeared ? .all : Self.waitingDemand
        }
        if wanted != demanded {
            demanded = wanted
            callbackDemand!.extra = wanted
        }
    }

    /// A removal of `child` (`childRef` builds its `ControllerRef`, only for a finding).
    private func checkRemoval(of child: UInt32, _ childRef: () -> ControllerRef, at timestamp: UInt64, _ context: EventContext, _ findings: inout [Finding], what: String) {
        defer { forget(child) }
        let link = links[child]
        guard link.has(Link.hasParent), !link.has(Link.isLeaving) else { return }
        let parent = parentName(of: child, link)
        let childName = childRef().displayName
        findings.append(Finding(
            ruleID: OrphanChildRule.id, severity: settings.severity, controller: childName,
            timestamp: timestamp, ordinal: context.ordinal, callback: context.attribution.enclosing(of: parent)?.name,
            message: "\(childName) was removed from \(parent.displayName) with \(what) at \(context.time(timestamp)) without willMove(toParent: nil) first: the child is not told it is leaving.",
            source: context.source
        ))
    }

    /// Forgets `serial`'s parent, leaving mark and waiting addChild.
    private func forget(_ serial: UInt32) {
        let link = links[serial]
        if link.has(Link.hasParent | Link.isLeaving) {
            unlinkParent(of: serial, link)
            var cleared = link
            cleared.flags &= ~(Link.hasParent | Link.isLeaving | Link.hasOddParentName)
            cleared.parent = 0
            store(cleared, for: serial, replacing: link)
        }
        if !pendingDidMove.isEmpty { removePending(serial) }
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        for pending in pendingDidMove.values.sorted(by: { $0.addChildAt.ordinal < $1.addChildAt.ordinal }) {
            let child = pending.child.displayName
            findings.append(Finding(
                ruleID: OrphanChildRule.id, severity: settings.inconclusiveSeverity, verdict: .inconclusive,
                controller: child, timestamp: pending.addChildAt.timestamp, ordinal: pending.addChildAt.ordinal, callback: nil,
                message: "\(pending.parent.displayName) added \(child) with addChild at \(end.time(pending.addChildAt.timestamp)) and the trace ends before didMove(toParent:) is called.",
                related: [pending.addChild(end.time)]
            ))
        }
    }
}
