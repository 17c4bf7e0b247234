import TraceModel

/// `view_did_load_once`: viewDidLoad more than once for one instance.
struct ViewDidLoadOnceRule: AuditRule {
    static let id = "view_did_load_once"

    static let rule = Rule(Self.self) { ViewDidLoadOnceRule(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "viewDidLoad runs more than once for one controller instance.",
            defaultSeverity: .warning,
            explanation: """
                viewDidLoad runs once per view load, and since iOS 6 UIKit no longer unloads views under memory \
                pressure, so one instance gets it once (Apple, "viewDidLoad()"; docs/LIFECYCLE.md). One-time setup \
                placed there (adding subviews, observers, child controllers) runs again when it comes twice: \
                duplicated subviews, observers registered twice, children added twice. A second viewDidLoad \
                usually means code called loadView()/viewDidLoad() directly, or set `view` to nil and touched it \
                again.
                """,
            fix: """
                Never call viewDidLoad() or loadView() yourself; use loadViewIfNeeded() to force loading. Do not \
                reset `view` to nil. If a screen must be rebuilt, create a new controller.
                """,
            needs: FactKind.callbacks(.viewDidLoad),
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let settings = ExampleTrace.controller(1, "SettingsViewController")
        var twice = ExampleTrace()
        twice.callback(.initialize, settings)
        twice.callback(.loadView, settings)
        twice.callback(.viewDidLoad, settings)
        twice.callback(.viewDidLoad, settings)
        twice.callback(.viewWillAppear, settings)
        twice.callback(.viewDidAppear, settings)

        var once = ExampleTrace()
        once.appear(settings)
        once.callback(.viewWillDisappear, settings)
        once.callback(.viewDidDisappear, settings)
        once.callback(.viewWillAppear, settings)
        once.callback(.viewDidAppear, settings)
        return [
            RuleExample(title: "viewDidLoad called again by hand", events: twice.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "one load, two appearances", events: once.events, expectedFindings: 0),
        ]
    }

    let facts: [FactKind] = FactKind.callbacks(.viewDidLoad, .deinitialize)

    let severity: Severity
    /// Per live controller, its first viewDidLoad.
    var firstLoad: [UInt32: RelatedEvent] = [:]

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        guard case .callback(let callback) = fact, callback.isStart else { return }
        if callback.callback == .deinitialize {
            firstLoad[callback.controller] = nil
            return
        }
        guard let first = firstLoad[callback.controller] else {
            firstLoad[callback.controller] = RelatedEvent(ordinal: replay.ordinal, timestamp: replay.timestamp, message: "first viewDidLoad at \(replay.time(replay.timestamp))")
            return
        }
        let name = replay.name(of: callback.controller)
        findings.append(Finding(
            ruleID: Self.id, severity: severity, controller: name, timestamp: replay.timestamp, ordinal: replay.ordinal, callback: callback.callback.name,
            message: "viewDidLoad ran again for \(name) at \(replay.time(replay.timestamp)); it already ran at \(replay.time(first.timestamp)), so one-time setup runs twice.",
            related: [first], source: replay.source))
    }
}
