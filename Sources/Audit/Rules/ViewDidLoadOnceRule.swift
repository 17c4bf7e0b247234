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
                pressure, so one instance gets it once (Apple, "viewDidLoad()"; docs/LIFECYCLE.md). On iOS 3–5 a hidden \
                controller's view could be unloaded (viewDidUnload) and loaded again: a viewDidLoad after a \
                viewDidUnload is a new load, not a finding. One-time setup \
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

    /// A viewDidUnload (iOS 3–5 released the view under memory pressure) ends a load as deinit does: the reload
    /// that follows is legal (Apple, `viewDidUnload()`).
    let facts: [FactKind] = FactKind.callbacks(.viewDidLoad, .deinitialize, .viewDidUnload)

    let severity: Severity
    /// Per live controller, its current load.
    var loads: [UInt32: Load] = [:]

    /// A load of one controller's view: its first viewDidLoad, and the finding at the first repeat with the
    /// number of repeats (one finding per load, however often viewDidLoad comes again).
    struct Load {
        var first: RelatedEvent
        var finding: Finding?
        var repeats = 0
        var last: UInt64 = 0
    }

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        guard case .callback(let callback) = fact, callback.isStart else { return }
        if callback.callback == .deinitialize || callback.callback == .viewDidUnload {
            if let load = loads.removeValue(forKey: callback.controller) { report(load, replay, &findings) }
            return
        }
        guard var load = loads[callback.controller] else {
            loads[callback.controller] = Load(first: RelatedEvent(ordinal: replay.ordinal, timestamp: replay.timestamp, message: "first viewDidLoad at \(replay.time(replay.timestamp))"))
            return
        }
        if load.finding == nil {
            let name = replay.name(of: callback.controller)
            load.finding = Finding(
                ruleID: Self.id, severity: severity, controller: name, timestamp: replay.timestamp, ordinal: replay.ordinal, callback: callback.callback.name,
                message: "viewDidLoad ran again for \(name) at \(replay.time(replay.timestamp)); it already ran at \(replay.time(load.first.timestamp)), so one-time setup runs twice.",
                related: [load.first], source: replay.source)
        }
        load.repeats += 1
        load.last = replay.timestamp
        loads[callback.controller] = load
    }

    func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        for load in loads.values { report(load, replay, &findings) }
    }

    /// Appends the load's finding, if viewDidLoad came again during it, with the count of repeats.
    private func report(_ load: Load, _ replay: ReplayView, _ findings: inout [Finding]) {
        guard var finding = load.finding else { return }
        if load.repeats > 1 {
            finding.message += " It ran \(load.repeats + 1) times in all for this load of the view, the last at \(replay.time(load.last))."
        }
        findings.append(finding)
    }
}
