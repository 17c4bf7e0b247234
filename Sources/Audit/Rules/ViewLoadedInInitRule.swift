import TraceModel

/// `view_loaded_in_init`: the view loaded while the initializer runs.
struct ViewLoadedInInitRule: AuditRule {
    static let id = "view_loaded_in_init"

    static let rule = Rule(Self.self) { ViewLoadedInInitRule(settings: $0) }

    let facts: [FactKind] = FactKind.callbacks(.loadView, .viewDidLoad, .deinitialize)

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "loadView or viewDidLoad runs inside init.",
            defaultSeverity: .warning,
            explanation: """
                A controller's view is loaded lazily, the first time something reads `view` (Apple, "view", \
                "loadView()"). Touching `view` (or anything that reads it: a subview outlet, `view.backgroundColor`, \
                `title` bindings that lay out) inside an initializer loads it while the object is half built: \
                viewDidLoad runs before the initializer has set the controller's own properties and before the \
                caller could configure it, so setup reads defaults, and the cost of building the view is paid even \
                for controllers that are never shown (docs/LIFECYCLE.md lists "loadView and viewDidLoad inside init" \
                among real anomalies). The rule needs begin/end intervals: in an instant-only log a callback line \
                cannot contain another.
                """,
            fix: """
                Do not read `view` in init; configure views in viewDidLoad (or loadView), and pass data in through \
                properties that viewDidLoad reads.
                """,
            needs: FactKind.callbacks(.initialize),
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let profile = ExampleTrace.controller(1, "ProfileViewController")
        var inside = ExampleTrace()
        inside.interval(.initialize, profile) { trace in
            trace.callback(.loadView, profile)
            trace.callback(.viewDidLoad, profile)
        }
        inside.callback(.viewWillAppear, profile)
        inside.callback(.viewDidAppear, profile)

        var after = ExampleTrace()
        after.interval(.initialize, profile) { _ in }
        after.interval(.loadView, profile) { _ in }
        after.interval(.viewDidLoad, profile) { _ in }
        return [
            RuleExample(title: "init reads `view`, so loadView and viewDidLoad run inside it", events: inside.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "the view loads after init returned", events: after.events, expectedFindings: 0),
        ]
    }

    let severity: Severity
    /// The init (by its begin ordinal) already reported per controller, so loadView and viewDidLoad give one finding.
    var reportedInit: [UInt32: UInt64] = [:]

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        guard case .callback(let callback) = fact, callback.isStart else { return }
        let serial = callback.controller
        if callback.callback == .deinitialize {
            reportedInit.removeValue(forKey: serial)
            return
        }
        guard let initFrame = replay.openCallback(.initialize, of: serial), reportedInit[serial] != initFrame.ordinal else { return }
        reportedInit[serial] = initFrame.ordinal
        let name = replay.name(of: serial)
        findings.append(Finding(
            ruleID: Self.id, severity: severity, controller: name, timestamp: replay.timestamp, ordinal: replay.ordinal, callback: Callback.initialize.name,
            message: "\(callback.callback.name) of \(name) runs inside its init (begun at \(replay.time(initFrame.since))): something in the initializer read `view`, loading it before the controller is fully configured.",
            related: [RelatedEvent(ordinal: initFrame.ordinal, timestamp: initFrame.since, message: "init began at \(replay.time(initFrame.since))")],
            source: replay.source))
    }
}
