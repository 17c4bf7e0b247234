import TraceLog
import TraceModel

/// `view_did_load_once`: viewDidLoad more than once for one instance.
enum ViewDidLoadOnceRule {
    static let id = "view_did_load_once"

    static let rule = Rule(descriptor) { ViewDidLoadOnceMonitor(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "viewDidLoad runs more than once for one controller instance.",
            defaultSeverity: .warning,
            explanation: """
                viewDidLoad runs once per view load, and since iOS 6 UIKit no longer unloads views under memory \
                pressure, so one instance gets it once (Apple, "viewDidLoad()"; DESIGN.md §2). On iOS 3–5 a hidden \
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
}

/// The monitor of `view_did_load_once`.
final class ViewDidLoadOnceMonitor: RuleMonitor {
    let interests: EventInterests = .callbacks
    /// A viewDidUnload (iOS 3–5 released the view under memory pressure) ends a load as deinit does: the reload
    /// that follows is legal (Apple, `viewDidUnload()`).
    let callbackFilter = CallbackSet([.viewDidLoad, .deinitialize, .viewDidUnload], ends: false)
    /// Its callbacks read nothing of the replayed state.
    let stateFreeCallbacks = CallbackSet.all
    /// From batches it reads its callbacks itself (`scanCallbacks(_:_:)`): the engine lists them per scanning
    /// monitor, so a scan reads only its own ≈ 3 100 of every 100 000 events.
    let scansCallbacks = true
    private let severity: Severity
    @exclusivity(unchecked) private var firstLoad = SerialTable<(ordinal: UInt64, timestamp: UInt64)>()

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.phase != .end else { return }
        switch record.callback {
        case .viewDidLoad:
            guard let first = firstLoad[record.controller] else {
                firstLoad.set(record.controller, (context.ordinal, record.timestamp))
                return
            }
            report(first, record, context, &findings)
        case .deinitialize, .viewDidUnload:
            firstLoad.remove(record.controller)
        default:
            break
        }
    }

    /// The callback entries of a batch not read yet (viewDidLoad, deinit and viewDidUnload begins and instants), as
    /// `observe(callback:_:_:)`.
    func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {
        let entries = scan.entries
        let viewDidLoad = UInt64(Callback.viewDidLoad.rawValue)
        for position in scan.positions {
            let at = scan.index(at: position)
            let word = entries.word(at: at).raw
            let serial = UInt32(truncatingIfNeeded: word)
            if (word >> 48) & 0xFF == viewDidLoad {
                guard let first = firstLoad[serial] else {
                    firstLoad.set(serial, (scan.ordinal(at: at), entries.timestamp(at: at)))
                    continue
                }
                report(first, scan.record(at: at), scan.context(at: at), &findings)
            } else {
                firstLoad.remove(serial)
            }
        }
    }

    /// The finding for a viewDidLoad `record` of a controller whose view loaded first at `first`.
    private func report(_ first: (ordinal: UInt64, timestamp: UInt64), _ record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        let name = context.controller(of: record).displayName
        findings.append(Finding(
            ruleID: ViewDidLoadOnceRule.id, severity: severity, controller: name,
            timestamp: record.timestamp, ordinal: context.ordinal, callback: record.callback.name,
            message: "viewDidLoad ran again for \(name) at \(context.time(record.timestamp)); it already ran at \(context.time(first.timestamp)), so one-time setup runs twice.",
            related: [RelatedEvent(ordinal: first.ordinal, timestamp: first.timestamp, message: "first viewDidLoad at \(context.time(first.timestamp))")],
            source: context.source
        ))
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {}

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
}
