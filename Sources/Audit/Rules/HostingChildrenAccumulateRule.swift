import Replay
import TraceLog
import TraceModel

/// `hosting_children_accumulate`: hosting controllers of one type piling up as live children of one controller.
enum HostingChildrenAccumulateRule {
    static let id = "hosting_children_accumulate"

    /// Type names that are hosting controllers unless the configuration says otherwise.
    static let defaultHostingTypes = ["UIHostingController", "LifetraceHostingController"]
    static let defaultMaxLiveChildren = 4

    static let rule = Rule(descriptor) { HostingChildrenAccumulateMonitor(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A controller holds more than `max_live_children` live hosting controllers of one type as children, added with addChild and not removed: one hosting controller per cell or row accumulating.",
            defaultSeverity: .warning,
            parameters: [
                RuleParameter(
                    name: "max_live_children", kind: .count, defaultValue: .count(defaultMaxLiveChildren), unit: "children",
                    summary: "How many live hosting children of one type a controller may hold; one more is reported."
                ),
                RuleParameter(
                    name: "hosting_types", kind: .names, defaultValue: .names(defaultHostingTypes), unit: "type names",
                    summary: "Type names that are hosting controllers: a type named exactly so, or so followed by `<` (`UIHostingController<PostCell>`). A controller that hosts a SwiftUI view in the trace (an onAppear/onDisappear naming it as host) counts too."
                ),
            ],
            explanation: """
                A UIHostingController embedded in another controller is a child in UIKit's controller tree: \
                addChild(_:), add its view, didMove(toParent:); it stays a child, retained by its parent with its \
                SwiftUI view graph, until willMove(toParent: nil) and removeFromParent() (Apple, "Creating a custom \
                container view controller"; DESIGN.md §2, "child containment"). A screen embeds a fixed handful of \
                SwiftUI sections; creating a hosting controller per table or collection cell and adding it as a \
                child, without removing it when the cell is reused, adds one child per cell shown, so the children \
                (and their memory and layout work) grow as the user scrolls. For SwiftUI content in cells SwiftUI \
                provides UIHostingConfiguration (iOS 16), a content configuration with no controller to manage \
                (Apple, "UIHostingConfiguration"). The rule counts, per parent and per hosting type, the children \
                added with `addChild` that are still children (not removed by removeFromParent or \
                didMove(toParent: nil), not deinitialized, their process not ended), and reports once per parent \
                and type when the count first exceeds `max_live_children`, with the peak it reached. Children of \
                navigation, tab bar and page controllers are those containers' own business and are not counted.
                """,
            fix: """
                Put SwiftUI content in cells with UIHostingConfiguration (cell.contentConfiguration = \
                UIHostingConfiguration { … }). If a cell must own a hosting controller, create one per cell (not per \
                configuration), reuse it by updating rootView, and remove it from its parent (willMove(toParent: \
                nil), removeFromSuperview, removeFromParent) when the cell is reused or ends display.
                """,
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let timeline = ExampleTrace.controller(1, "TimelineViewController")
        let cells = (0..<6).map { ExampleTrace.controller(UInt32(2 + $0), "UIHostingController<PostCell>") }

        func add(_ cell: ControllerRef, _ trace: inout ExampleTrace) {
            trace.callback(.initialize, cell)
            trace.container(.addChild, timeline, [cell])
            trace.callback(.willMoveToParent, cell, parent: .controller(timeline))
            trace.container(.attachView, timeline, [cell])
            trace.callback(.didMoveToParent, cell, parent: .controller(timeline))
        }

        var piling = ExampleTrace()
        piling.appear(timeline)
        for cell in cells { add(cell, &piling) }

        var reused = ExampleTrace()
        reused.appear(timeline)
        for cell in cells {
            add(cell, &reused)
            reused.callback(.willMoveToParent, cell, parent: ParentArgument.none)
            reused.container(.removeFromParent, timeline, [cell])
            reused.callback(.didMoveToParent, cell, parent: ParentArgument.none)
            reused.callback(.deinitialize, cell)
        }

        return [
            RuleExample(title: "six UIHostingController<PostCell> children added to the timeline, none removed", events: piling.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "each cell's hosting controller is removed before the next one is added", events: reused.events, expectedFindings: 0),
        ]
    }
}

/// The monitor of `hosting_children_accumulate`.
final class HostingChildrenAccumulateMonitor: RuleMonitor {
    /// The type name a live host was last seen with, and where it was read (`EventContext.place(ofSlot:)`, `nil`
    /// for an `Event`): a host seen again at the same place has the same name, so no `ControllerRef` is built.
    struct HostName {
        var typeName: String
        var place: (frame: UInt64, slot: UInt32)?
    }

    struct Child {
        var parent: UInt32
        var typeName: String
    }

    /// The live children of one type under one parent.
    struct Group {
        var parent: ControllerRef
        var typeName: String
        /// The live children's serials (a `SerialMap`: a `Set<UInt32>` made its generic storage type at run time,
        /// ≈ 370 000 instructions at the first addChild).
        var live = SerialMap<Void>()
        var added = 0
        var removed = 0
        var first: Added
        /// The addChild that first took the live count above the limit: ordinal, timestamp, source.
        var excess: (ordinal: UInt64, timestamp: UInt64, source: EventSource?)?
        var peak = 0
        var peakEvent: Added?
    }

    /// An addChild of a group; its related-event text is built only for a finding.
    struct Added {
        var child: ControllerRef
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?

        func related(_ time: (UInt64) -> String) -> RelatedEvent {
            RelatedEvent(ordinal: ordinal, timestamp: timestamp, message: "addChild of \(child.displayName) at \(time(timestamp))", source: source)
        }
    }

    let interests: EventInterests = [.callbacks, .containers, .swiftUI, .recorder]
    /// didMove(toParent:) and deinit begins, by the fixed filter: they matter only while some child or group is kept
    /// (deinit also while a host's name is kept), and `observe(callback:_:_:)` passes over the others at once. They
    /// were asked for through a `CallbackDemand` only then, but on a trace with SwiftUI hosts something is nearly
    /// always kept, and a demanded callback costs the engine more than a filtered one (≈ 3 Ir/event here); the
    /// engine delivers deinits to other rules anyway.
    let callbackFilter = CallbackSet([.didMoveToParent, .deinitialize], ends: false)
    /// Its callbacks read nothing of the replayed state.
    let stateFreeCallbacks = CallbackSet.all
    let containerFilter = ContainerOperationSet([.addChild, .removeFromParent])
    /// SwiftUI hosts and removals read nothing of the replayed state (an addChild reads the parent's container kind).
    let stateFreeRecords: EventInterests = .swiftUI
    let stateFreeContainers = ContainerOperationSet([.removeFromParent])
    private let severity: Severity
    private let limit: Int
    private let hostingPrefixes: [String]
    /// Type names seen hosting a SwiftUI view.
    @exclusivity(unchecked) private var hostingTypes: Set<String> = []
    /// The type name each live host was last seen with (`hostingTypes` holds it): a host seen again under the same
    /// name costs a comparison instead of a hash of its name.
    @exclusivity(unchecked) private var hostNames = SerialMap<HostName>()
    @exclusivity(unchecked) private var children = SerialMap<Child>()
    /// Groups by parent serial, then by child type name: a parent has few child types, so a scan of `==` on their
    /// names (the same string object, compared in one step, while the names come from one frame) costs less than
    /// hashing the name per addChild and removal.
    @exclusivity(unchecked) private var groups = SerialMap<[Group]>()
    @exclusivity(unchecked) private var traceStart: UInt64 = 0

    init(settings: RuleSettings) {
        severity = settings.severity
        limit = settings.count("max_live_children", default: HostingChildrenAccumulateRule.defaultMaxLiveChildren)
        hostingPrefixes = settings.names("hosting_types", default: HostingChildrenAccumulateRule.defaultHostingTypes)
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        traceStart = context.traceStart
        if record.callback == .deinitialize, hostNames.contains(record.controller) { hostNames.removeValue(forKey: record.controller) }
        guard record.phase != .end, !children.isEmpty || !groups.isEmpty else { return }
        if record.callback == .deinitialize {
            remove(record.controller)
            reportGroups(ofParent: record.controller, &findings)
        } else if record.parent == .none {
            remove(record.controller)
        }
    }

    /// Container and SwiftUI events, as records (the same logic as `observe(_:_:_:)`; no `Event` is built).
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        traceStart = context.traceStart
        switch record.kind {
        case .container:
            switch record.containerOperation {
            case .addChild?:
                guard record.hasController, record.listCount > 0 else { return }
                add(context.listController(0, of: record), to: context.controller(of: record), at: record.timestamp, context)
            case .removeFromParent?:
                guard record.listCount > 0 else { return }
                remove(context.listSerial(0, of: record))
            default:
                break
            }
        case .swiftUI:
            guard record.hasController else { return }
            // Seen at the same place as last time: the same name, already in `hostingTypes`.
            let place = context.place(ofSlot: record.controllerSlot)
            let position = hostNames.position(of: record.controller, inserting: HostName(typeName: ""))
            if let place, hostNames[at: position].place.map({ $0 == place }) == true { return }
            let typeName = context.controller(of: record).typeName
            if hostNames[at: position].typeName != typeName || typeName.isEmpty {
                hostingTypes.insert(typeName)
                hostNames.update(at: position) { $0.typeName = typeName }
            }
            hostNames.update(at: position) { $0.place = place }
        default:
            context.withEvent(of: record) { observe($0, context, &findings) }
        }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        traceStart = context.traceStart
        switch event.payload {
        case .container(let container):
            switch container.operation {
            case .addChild:
                guard let parent = container.container, let child = container.controllers.first else { return }
                add(child, to: parent, at: event.timestamp, context)
            case .removeFromParent:
                guard let child = container.controllers.first else { return }
                remove(child.serial)
            default:
                break
            }
        case .swiftUI(let swiftUI):
            if let host = swiftUI.host { hostingTypes.insert(host.typeName) }
        case .recorder(.runStarted) where context.ordinal > 0:
            // The process ended: every child and parent ended with it.
            reportAll(&findings)
            children.removeAll()
            hostNames.removeAll()
        default:
            break
        }
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        reportAll(&findings)
    }

    /// An addChild at `timestamp` (the event being observed).
    private func add(_ child: ControllerRef, to parent: ControllerRef, at timestamp: UInt64, _ context: EventContext) {
        // Read in place (`state[parent]` copied the parent's whole record).
        if let kind = context.state.controllers.withRecord(of: parent.serial, { $0.containerKind }), kind != .unknown { return }
        remove(child.serial)
        children[child.serial] = Child(parent: parent.serial, typeName: child.typeName)
        let added = Added(child: child, ordinal: context.ordinal, timestamp: timestamp, source: context.source)
        let limit = limit
        // Changed where it is stored: a copy of the group out of the map and back copied its `live` set.
        let position = groups.position(of: parent.serial, inserting: [])
        groups.update(at: position) { byType in
            if let index = Self.index(of: child.typeName, in: byType) {
                byType[index].add(child.serial, added, limit: limit)
            } else {
                var group = Group(parent: parent, typeName: child.typeName, first: added)
                group.add(child.serial, added, limit: limit)
                byType.append(group)
            }
        }
    }

    /// The position of the group of child type `typeName` in `groups` (by index: iterating copied each group out).
    private static func index(of typeName: String, in groups: [Group]) -> Int? {
        for index in groups.indices where groups[index].typeName == typeName { return index }
        return nil
    }

    private func remove(_ serial: UInt32) {
        guard children.contains(serial), let child = children.removeValue(forKey: serial), let position = groups.position(of: child.parent) else { return }
        groups.update(at: position) { byType in
            guard let index = Self.index(of: child.typeName, in: byType) else { return }
            byType[index].live.removeValue(forKey: serial)
            byType[index].removed += 1
        }
    }

    private func isHosting(_ typeName: String) -> Bool {
        hostingTypes.contains(typeName) || hostingPrefixes.contains { typeName == $0 || typeName.hasPrefix($0 + "<") }
    }

    private func reportGroups(ofParent serial: UInt32, _ findings: inout [Finding]) {
        guard groups.contains(serial), let byType = groups.removeValue(forKey: serial) else { return }
        // By type name (the order of the keys of the dictionary by type name this was).
        for group in byType.sorted(by: { $0.typeName < $1.typeName }) { report(group, &findings) }
    }

    private func reportAll(_ findings: inout [Finding]) {
        for serial in groups.keys.sorted() { reportGroups(ofParent: serial, &findings) }
    }

    private func report(_ group: Group, _ findings: inout [Finding]) {
        guard let excess = group.excess, isHosting(group.typeName) else { return }
        let parent = group.parent.displayName
        var message = "\(parent) holds \(limit + 1) live \(group.typeName) children at \(time(excess.timestamp)), more than the \(limit) allowed"
        if group.peak > limit + 1, let peak = group.peakEvent {
            message += ", and up to \(group.peak) at \(time(peak.timestamp))"
        }
        message += ": \(group.added) added with addChild since \(time(group.first.timestamp)), \(group.removed) removed. Hosting controllers are accumulating as children (one per cell or row?)"
        var related = [group.first.related(time)]
        if let peak = group.peakEvent, peak.ordinal != group.first.ordinal, peak.ordinal != excess.ordinal { related.append(peak.related(time)) }
        findings.append(Finding(
            ruleID: HostingChildrenAccumulateRule.id, severity: severity, controller: parent,
            timestamp: excess.timestamp, ordinal: excess.ordinal, callback: nil,
            message: message + ".", related: related, source: excess.source
        ))
    }

    private func time(_ timestamp: UInt64) -> String {
        TimeText.seconds(timestamp >= traceStart ? timestamp - traceStart : 0)
    }
}

extension HostingChildrenAccumulateMonitor.Group {
    /// Counts the addChild `added` of the child `serial` (`limit`: the rule's `max_live_children`).
    mutating func add(_ serial: UInt32, _ added: HostingChildrenAccumulateMonitor.Added, limit: Int) {
        live.insert(serial)
        self.added += 1
        if live.count > peak {
            peak = live.count
            peakEvent = added
        }
        if excess == nil, live.count > limit {
            excess = (added.ordinal, added.timestamp, added.source)
        }
    }
}
