import TraceModel

/// `appearance_balance`: appearance callbacks out of order (never the legal cancellations).
struct AppearanceBalanceRule: AuditRule {
    static let id = "appearance_balance"

    static let rule = Rule(Self.self) { AppearanceBalanceRule(settings: $0) }

    let facts: [FactKind] = FactKind.callbacks(.initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .deinitialize)

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "Appearance callbacks out of order: a did without its will, viewDidAppear or viewDidDisappear twice without the opposite between, a will repeated; never the legal cancellations.",
            defaultSeverity: .warning,
            explanation: """
                Each controller walks disappeared → appearing (viewWillAppear) → appeared (viewDidAppear) → \
                disappearing (viewWillDisappear) → disappeared (viewDidDisappear). Two shortcuts are legal because \
                a transition can be cancelled: viewWillAppear then viewWillDisappear (appearing → disappearing) and \
                viewWillDisappear then viewWillAppear (disappearing → appearing), as in a cancelled interactive pop \
                or page scroll (docs/LIFECYCLE.md). Anything else — viewDidAppear twice (appearance forwarded by hand on \
                top of UIKit's automatic forwarding), viewDidDisappear twice, a did without its will, a will \
                repeated with no did — means work paired with these callbacks (start/stop a timer, add/remove an \
                observer) runs twice or not at all. A controller first seen in the middle of its life (an imported \
                log that starts late) starts in an unknown state that its first appearance callback settles; one \
                first seen at init, loadView or viewDidLoad starts disappeared.
                """,
            fix: """
                Let UIKit forward appearance: in a custom container use addChild/didMove(toParent:) and \
                beginAppearanceTransition/endAppearanceTransition in balanced pairs, and override \
                shouldAutomaticallyForwardAppearanceMethods only if you forward every callback yourself. Make \
                paired work idempotent (invalidate a timer before scheduling it).
                """,
            needs: FactKind.callbacks(.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear),
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let pager = ExampleTrace.controller(1, "PagerContainerViewController")
        let tab = ExampleTrace.controller(2, "TrendingTabViewController")
        let editor = ExampleTrace.controller(3, "NoteEditorViewController")
        let list = ExampleTrace.controller(4, "NotesListViewController")

        var doubled = ExampleTrace()
        doubled.callback(.viewDidLoad, pager)
        doubled.callback(.viewWillAppear, pager)
        doubled.callback(.viewDidLoad, tab)
        doubled.callback(.viewWillAppear, tab)
        doubled.callback(.viewDidAppear, tab)
        doubled.callback(.viewDidAppear, pager)
        doubled.callback(.viewDidAppear, tab)

        var cancelledPop = ExampleTrace()
        cancelledPop.appear(list)
        cancelledPop.callback(.viewWillDisappear, list)
        cancelledPop.appear(editor)
        cancelledPop.callback(.viewDidDisappear, list)
        cancelledPop.callback(.viewWillDisappear, editor)
        cancelledPop.callback(.viewWillAppear, list)
        cancelledPop.callback(.viewWillDisappear, list)
        cancelledPop.callback(.viewDidDisappear, list)
        cancelledPop.callback(.viewWillAppear, editor)
        cancelledPop.callback(.viewDidAppear, editor)

        var doubleDisappear = ExampleTrace()
        doubleDisappear.appear(list)
        doubleDisappear.callback(.viewWillDisappear, list)
        doubleDisappear.callback(.viewDidDisappear, list)
        doubleDisappear.callback(.viewDidDisappear, list)

        return [
            RuleExample(title: "viewDidAppear twice: a pager forwards appearance by hand on top of UIKit", events: doubled.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "viewDidDisappear twice", events: doubleDisappear.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "a cancelled interactive pop (legal)", events: cancelledPop.events, expectedFindings: 0),
        ]
    }

    enum State: String {
        case unknown, disappeared, appearing, appeared, disappearing
    }

    /// A controller's appearance state as its callbacks so far put it, and its last appearance callback.
    struct Tracked {
        var state: State
        var last: (callback: Callback, ordinal: UInt64, timestamp: UInt64)?
    }

    let severity: Severity
    /// Per controller, from its first callback to its deinit.
    var controllers: [UInt32: Tracked] = [:]

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        guard case .callback(let callback) = fact, callback.isStart else { return }
        let serial = callback.controller
        let next: State
        switch callback.callback {
        case .viewWillAppear: next = .appearing
        case .viewDidAppear: next = .appeared
        case .viewWillDisappear: next = .disappearing
        case .viewDidDisappear: next = .disappeared
        case .deinitialize:
            controllers.removeValue(forKey: serial)
            return
        default:
            // init, loadView, viewDidLoad: a controller first seen there starts disappeared.
            if controllers[serial] == nil { controllers[serial] = Tracked(state: .disappeared) }
            return
        }
        let tracked = controllers[serial] ?? Tracked(state: .unknown)
        if let problem = Self.problem(callback.callback, tracked.state) {
            report(problem, tracked, callback, replay, &findings)
        }
        controllers[serial] = Tracked(state: next, last: (callback.callback, replay.ordinal, replay.timestamp))
    }

    /// What is wrong with `callback` (an appearance callback) in `state`, or `nil` when it is a legal step.
    static func problem(_ callback: Callback, _ state: State) -> String? {
        switch (callback, state) {
        case (_, .unknown): nil
        case (.viewWillAppear, .disappeared), (.viewWillAppear, .disappearing): nil
        case (.viewWillAppear, .appearing): "viewWillAppear again while already appearing, with no viewDidAppear or viewWillDisappear between"
        case (.viewWillAppear, .appeared): "viewWillAppear while already appeared, with no viewWillDisappear/viewDidDisappear between"
        case (.viewDidAppear, .appearing): nil
        case (.viewDidAppear, .appeared): "viewDidAppear twice without viewWillDisappear/viewDidDisappear between (appearance forwarded twice?)"
        case (.viewDidAppear, _): "viewDidAppear without viewWillAppear"
        case (.viewWillDisappear, .appeared), (.viewWillDisappear, .appearing): nil
        case (.viewWillDisappear, .disappearing): "viewWillDisappear again while already disappearing, with no viewDidDisappear or viewWillAppear between"
        case (.viewWillDisappear, .disappeared): "viewWillDisappear while already disappeared, with no viewWillAppear/viewDidAppear between"
        case (.viewDidDisappear, .disappearing): nil
        case (.viewDidDisappear, .disappeared): "viewDidDisappear twice without viewWillAppear/viewDidAppear between"
        case (.viewDidDisappear, _): "viewDidDisappear without viewWillDisappear"
        default: nil
        }
    }

    private func report(_ problem: String, _ tracked: Tracked, _ callback: CallbackFact, _ replay: ReplayView, _ findings: inout [Finding]) {
        let name = replay.name(of: callback.controller)
        var message = "\(name): \(problem)"
        var related: [RelatedEvent] = []
        if let last = tracked.last {
            related.append(RelatedEvent(ordinal: last.ordinal, timestamp: last.timestamp, message: "previous appearance callback: \(last.callback.name) at \(replay.time(last.timestamp))"))
            message += "; the previous appearance callback was \(last.callback.name) at \(replay.time(last.timestamp))"
        }
        message += " (state \(tracked.state.rawValue))."
        findings.append(Finding(
            ruleID: Self.id, severity: severity, controller: name, timestamp: replay.timestamp, ordinal: replay.ordinal, callback: callback.callback.name,
            message: message, related: related, source: replay.source))
    }
}
