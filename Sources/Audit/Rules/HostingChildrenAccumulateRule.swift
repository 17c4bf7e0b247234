import Replay
import TraceModel

/// `hosting_children_accumulate`: hosting controllers of one type piling up as live children of one controller.
struct HostingChildrenAccumulateRule: AuditRule {
    static let id = "hosting_children_accumulate"

    /// Type names that are hosting controllers unless the configuration says otherwise.
    static let defaultHostingTypes = ["UIHostingController", "LifetraceHostingController"]
    static let defaultMaxLiveChildren = 4

    static let rule = Rule(Self.self) { HostingChildrenAccumulateRule(settings: $0) }

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
                container view controller"; docs/LIFECYCLE.md, "child containment"). A screen embeds a fixed handful of \
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
            needs: [.container] + FactKind.callbacks(.didMoveToParent),
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

    let facts: [FactKind] = FactKind.callbacks(.didMoveToParent, .deinitialize) + [.container, .swiftUI, .runStarted]

    /// The live children of one type under one parent.
    struct Group {
        var parent: String
        var typeName: String
        var live: Set<UInt32> = []
        var added = 0
        var removed = 0
        var first: RelatedEvent
        /// The addChild that first took the live count above the limit.
        var excess: RelatedEvent?
        var peak = 0
        var peakEvent: RelatedEvent?
    }

    struct GroupKey: Hashable {
        var parent: UInt32
        var typeName: String
    }

    let severity: Severity
    let limit: Int
    let hostingPrefixes: [String]
    /// Type names seen hosting a SwiftUI view.
    var hostingTypes: Set<String> = []
    /// Each live child's group.
    var children: [UInt32: GroupKey] = [:]
    var groups: [GroupKey: Group] = [:]

    init(settings: RuleSettings) {
        severity = settings.severity
        limit = settings.count("max_live_children", default: Self.defaultMaxLiveChildren)
        hostingPrefixes = settings.names("hosting_types", default: Self.defaultHostingTypes)
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .callback(let callback) where callback.isStart:
            if callback.callback == .deinitialize {
                remove(callback.controller)
                reportGroups(ofParent: callback.controller, replay, &findings)
            } else if callback.parent == .some(nil) {
                remove(callback.controller)
            }
        case .container(let container) where container.operation == .addChild:
            guard let parent = container.container, let child = container.controllers.first else { return }
            add(child, to: parent, replay)
        case .container(let container) where container.operation == .removeFromParent:
            if let child = container.controllers.first { remove(child.serial) }
        case .swiftUI(let swiftUI):
            if let host = swiftUI.host { hostingTypes.insert(host.typeName) }
        case .runStarted:
            // The process ended: every child and parent ended with it.
            reportAll(replay, &findings)
            children.removeAll()
        default:
            break
        }
    }

    mutating func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        reportAll(replay, &findings)
    }

    private mutating func add(_ child: ControllerRef, to parent: ControllerRef, _ replay: ReplayView) {
        // Only plain parents: a container (navigation, tab, page) holds its children by design.
        if let kind = replay.withController(parent.serial, { $0.containerKind }), kind != .unknown { return }
        remove(child.serial)
        let key = GroupKey(parent: parent.serial, typeName: child.typeName)
        children[child.serial] = key
        let added = replay.related("addChild of \(child.displayName) at \(replay.time(replay.timestamp))")
        var group = groups[key] ?? Group(parent: parent.displayName, typeName: child.typeName, first: added)
        group.live.insert(child.serial)
        group.added += 1
        if group.live.count > group.peak {
            group.peak = group.live.count
            group.peakEvent = added
        }
        if group.excess == nil, group.live.count > limit { group.excess = added }
        groups[key] = group
    }

    private mutating func remove(_ serial: UInt32) {
        guard let key = children.removeValue(forKey: serial), groups[key] != nil else { return }
        groups[key]!.live.remove(serial)
        groups[key]!.removed += 1
    }

    private mutating func reportGroups(ofParent serial: UInt32, _ replay: ReplayView, _ findings: inout [Finding]) {
        for key in groups.keys.filter({ $0.parent == serial }).sorted(by: { $0.typeName < $1.typeName }) {
            report(groups.removeValue(forKey: key)!, replay, &findings)
        }
    }

    private mutating func reportAll(_ replay: ReplayView, _ findings: inout [Finding]) {
        for serial in Set(groups.keys.map(\.parent)).sorted() { reportGroups(ofParent: serial, replay, &findings) }
    }

    private func report(_ group: Group, _ replay: ReplayView, _ findings: inout [Finding]) {
        let isHosting = hostingTypes.contains(group.typeName) || hostingPrefixes.contains { group.typeName == $0 || group.typeName.hasPrefix($0 + "<") }
        guard let excess = group.excess, isHosting else { return }
        var message = "\(group.parent) holds \(limit + 1) live \(group.typeName) children at \(replay.time(excess.timestamp)), more than the \(limit) allowed"
        if group.peak > limit + 1, let peak = group.peakEvent {
            message += ", and up to \(group.peak) at \(replay.time(peak.timestamp))"
        }
        message += ": \(group.added) added with addChild since \(replay.time(group.first.timestamp)), \(group.removed) removed. Hosting controllers are accumulating as children (one per cell or row?)"
        var related = [group.first]
        if let peak = group.peakEvent, peak.ordinal != group.first.ordinal, peak.ordinal != excess.ordinal { related.append(peak) }
        findings.append(Finding(
            ruleID: Self.id, severity: severity, controller: group.parent, timestamp: excess.timestamp, ordinal: excess.ordinal, callback: nil,
            message: message + ".", related: related, source: excess.source))
    }
}
