import TraceLog
import TraceModel

/// `view_loaded_in_init`: the view loaded while the initializer runs.
enum ViewLoadedInInitRule {
    static let id = "view_loaded_in_init"

    static let rule = Rule(descriptor) { ViewLoadedInInitMonitor(settings: $0) }

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
                for controllers that are never shown (DESIGN.md §2 lists "loadView and viewDidLoad inside init" \
                among real anomalies). The rule needs begin/end intervals: in an instant-only log a callback line \
                cannot contain another.
                """,
            fix: """
                Do not read `view` in init; configure views in viewDidLoad (or loadView), and pass data in through \
                properties that viewDidLoad reads.
                """,
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
}

/// The monitor of `view_loaded_in_init`.
final class ViewLoadedInInitMonitor: RuleMonitor {
    let interests: EventInterests = .callbacks
    /// Init begins and ends (counted, `openInits`), loadView and viewDidLoad begins (passed over at once while no
    /// init of their controller is open), deinit begins (forget the reported init). The loads were asked for only
    /// while an init was open: that changed the demand at every init begin and end, and each change made the engine
    /// re-read every monitor's demand (≈ 4 Ir/event of the full audit).
    let callbackFilter = CallbackSet([.initialize]).union(CallbackSet([.loadView, .viewDidLoad, .deinitialize], ends: false))
    /// From batches it reads inits and deinits itself (`scanCallbacks(_:_:)`; no other rule wants inits, so the
    /// engine then calls nobody for them); a loadView or viewDidLoad reads the open init from the replayed state and
    /// is delivered by a call, only for a controller with an open init (`openSerials`; the engine lends the monitor
    /// the callbacks before it asks the filter, so the counts are current).
    let scannedCallbacks = CallbackSet([.initialize]).union(CallbackSet([.deinitialize], ends: false))
    var serialFilters: [SerialFilter] { [openSerials] }
    /// The serials in `openInits`, kept in step with it: loadView and viewDidLoad begins reach the monitor only for
    /// these.
    private let openSerials = SerialFilter(CallbackSet([.loadView, .viewDidLoad], ends: false), .members)
    /// Inits and deinits read nothing of the replayed state; loadView and viewDidLoad read the open init, only for
    /// a controller that has one by `openInits`.
    let stateFreeCallbacks = CallbackSet([.initialize, .deinitialize])
    private let severity: Severity
    /// The init (by its begin ordinal) already reported per controller, so loadView + viewDidLoad give one finding.
    @exclusivity(unchecked) private var reportedInit = SerialMap<UInt64>()
    /// Per controller, its init begins less its init ends (only positive counts are kept; few at a time, so a list
    /// scanned from its end). Never less than the replayed state's open init intervals of that controller
    /// (`CallbackAttribution.openFrame(_:ofSerial:)`: the fold pushes at each begin and pops at most one per end),
    /// so with no count no loadView or viewDidLoad can be inside an init.
    @exclusivity(unchecked) private var openInits: [(serial: UInt32, count: Int)] = []

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    /// The position of `serial` in `openInits`.
    private func openPosition(of serial: UInt32) -> Int? {
        openInits.lastIndex { $0.serial == serial }
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        switch record.callback {
        case .initialize:
            count(record.phase, of: record.controller)
        case .loadView, .viewDidLoad:
            guard record.phase != .end else { return }
            // No count, no open init in the replayed state either: nothing to read (no fold of the pending events).
            guard openPosition(of: record.controller) != nil else { return }
            guard let initFrame = context.attribution.openFrame(.initialize, ofSerial: record.controller),
                  reportedInit[record.controller] != initFrame.ordinal else { return }
            reportedInit[record.controller] = initFrame.ordinal
            let name = context.controller(of: record).displayName
            findings.append(Finding(
                ruleID: ViewLoadedInInitRule.id, severity: severity, controller: name,
                timestamp: record.timestamp, ordinal: context.ordinal, callback: Callback.initialize.name,
                message: "\(record.callback.name) of \(name) runs inside its init (begun at \(context.time(initFrame.since))): something in the initializer read `view`, loading it before the controller is fully configured.",
                related: [RelatedEvent(ordinal: initFrame.ordinal, timestamp: initFrame.since, message: "init began at \(context.time(initFrame.since))")],
                source: context.source
            ))
        case .deinitialize:
            guard record.phase != .end, !reportedInit.isEmpty else { return }
            reportedInit.removeValue(forKey: record.controller)
        default:
            break
        }
    }

    /// The init and deinit entries of a batch not read yet, as `observe(callback:_:_:)`.
    func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {
        let entries = scan.entries
        let initCode = UInt64(Callback.initialize.rawValue)
        for position in scan.positions {
            let word = entries.word(at: scan.index(at: position)).raw
            let serial = UInt32(truncatingIfNeeded: word)
            if (word >> 48) & 0xFF == initCode {
                // Phase codes: `Phase` raw values (begin 0, end 1, instant 2).
                let phase = (word >> 56) & 3
                count(phase == 0 ? .begin : phase == 1 ? .end : .instant, of: serial)
            } else if !reportedInit.isEmpty {
                reportedInit.removeValue(forKey: serial)
            }
        }
    }

    /// Counts an init begin or end of the controller `serial` in `openInits`.
    @inline(__always)
    private func count(_ phase: Phase, of serial: UInt32) {
        switch phase {
        case .begin:
            if let position = openPosition(of: serial) {
                openInits[position].count += 1
            } else {
                openInits.append((serial, 1))
                openSerials.insert(serial)
            }
        case .end:
            guard let position = openPosition(of: serial) else { return }
            if openInits[position].count > 1 {
                openInits[position].count -= 1
            } else {
                openInits.remove(at: position)
                openSerials.remove(serial)
            }
        case .instant:
            return
        }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {}

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
}
