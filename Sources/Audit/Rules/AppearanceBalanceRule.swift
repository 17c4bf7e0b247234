import TraceLog
import TraceModel

/// `appearance_balance`: appearance callbacks out of order (never the legal cancellations).
enum AppearanceBalanceRule {
    static let id = "appearance_balance"

    static let rule = Rule(descriptor) { AppearanceBalanceMonitor(settings: $0) }

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
                or page scroll (DESIGN.md §2). Anything else — viewDidAppear twice (appearance forwarded by hand on \
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
}

/// The monitor of `appearance_balance`.
final class AppearanceBalanceMonitor: RuleMonitor {
    enum State: String, CaseIterable {
        case unknown, disappeared, appearing, appeared, disappearing

        /// The state's position in `allCases`.
        var index: UInt8 {
            switch self {
            case .unknown: 0
            case .disappeared: 1
            case .appearing: 2
            case .appeared: 3
            case .disappearing: 4
            }
        }
    }

    /// A controller's appearance state and its last appearance callback: plain bytes, stored in a `SerialTable`
    /// (a probe and a store per callback: no copy-on-write check, no array of positions).
    struct Tracked {
        /// `State.index` + 1; 0 stands for `unknown` too (`legalCodes(_:)`).
        var code: UInt8
        /// The raw value of the last appearance callback, `Tracked.none` when there is none yet.
        var lastCallback: UInt8 = Tracked.none
        var lastOrdinal: UInt64 = 0
        var lastTimestamp: UInt64 = 0

        static let none: UInt8 = 0xFF

        init(_ state: State) {
            code = state.index &+ 1
        }

        /// The state.
        var state: State {
            code == 0 ? .unknown : State.allCases[Int(code &- 1)]
        }

        /// The last appearance callback, its ordinal and timestamp, or `nil`.
        var last: (callback: Callback, ordinal: UInt64, timestamp: UInt64)? {
            guard lastCallback != Self.none, let callback = Callback(rawValue: lastCallback) else { return nil }
            return (callback, lastOrdinal, lastTimestamp)
        }
    }

    let interests: EventInterests = .callbacks
    let callbackFilter = CallbackSet([.initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .deinitialize], ends: false)
    /// Its callbacks read nothing of the replayed state.
    let stateFreeCallbacks = CallbackSet.all
    /// From batches it reads the entries itself (`scanCallbacks(_:_:)`): ≈ 22 000 of every 100 000 events are its
    /// callbacks, and the engine's call per delivered callback cost twice its body.
    let scansCallbacks = true
    private let severity: Severity
    /// Per serial, from the controller's first callback seen to its deinit.
    @exclusivity(unchecked) private var controllers = SerialTable<Tracked>()

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.phase != .end else { return }
        if let problem = apply(record.callback, of: record.controller, ordinal: context.ordinal, timestamp: record.timestamp) {
            report(problem.text, problem.before, record, context, &findings)
        }
    }

    /// The callback entries of a batch not read yet (each a begin or instant of `callbackFilter`), as
    /// `observe(callback:_:_:)`.
    func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {
        let entries = scan.entries
        for position in scan.positions {
            let at = scan.index(at: position)
            let word = entries.word(at: at).raw
            // A callback entry's code is a valid `Callback` raw value, its case number (`CallbackCodeTests`).
            let callback = unsafeBitCast(UInt8(truncatingIfNeeded: word >> 48), to: Callback.self)
            if let problem = apply(callback, of: UInt32(truncatingIfNeeded: word), ordinal: scan.ordinal(at: at), timestamp: entries.timestamp(at: at)) {
                report(problem.text, problem.before, scan.record(at: at), scan.context(at: at), &findings)
            }
        }
    }

    /// Applies `callback` (a begin or instant) of the controller `serial`; returns what is wrong with it and the
    /// controller's entry before it, when it is not a legal step.
    @inline(__always)
    private func apply(_ callback: Callback, of serial: UInt32, ordinal: UInt64, timestamp: UInt64) -> (text: String, before: Tracked)? {
        // The state code (`State.index` + 1) the callback leads to.
        let next: UInt8
        switch callback {
        case .viewWillAppear: next = State.appearing.index &+ 1
        case .viewDidAppear: next = State.appeared.index &+ 1
        case .viewWillDisappear: next = State.disappearing.index &+ 1
        case .viewDidDisappear: next = State.disappeared.index &+ 1
        case .deinitialize:
            controllers.remove(serial)
            return nil
        case .initialize, .loadView, .viewDidLoad:
            _ = controllers.bucket(of: serial, inserting: Tracked(.disappeared))
            return nil
        default:
            _ = controllers.bucket(of: serial, inserting: Tracked(.unknown))
            return nil
        }
        // One probe (a controller first seen here starts unknown), then the entry is read and changed in place.
        let bucket = controllers.bucket(of: serial, inserting: Tracked(.unknown))
        var tracked = controllers[bucket: bucket]
        // The legal steps are tested on bits first: the problem's text is looked up only for a finding.
        var found: (text: String, before: Tracked)?
        if Self.legalCodes(callback) >> tracked.code & 1 == 0, let problem = Self.problem(callback, tracked.state) {
            found = (problem, tracked)
        }
        tracked.code = next
        tracked.lastCallback = callback.rawValue
        tracked.lastOrdinal = ordinal
        tracked.lastTimestamp = timestamp
        controllers[bucket: bucket] = tracked
        return found
    }

    /// The state codes (`Tracked.code`, bit by code: 0 and 1 are `unknown`) in which the appearance callback
    /// `callback` is a legal step: those `problem(_:_:)` gives no problem for (`AppearanceBalanceTests` checks).
    @inline(__always)
    static func legalCodes(_ callback: Callback) -> UInt8 {
        switch callback {
        case .viewWillAppear: 0b10_0111  // unknown, disappeared, disappearing
        case .viewDidAppear: 0b00_1011  // unknown, appearing
        case .viewWillDisappear: 0b01_1011  // unknown, appearing, appeared
        case .viewDidDisappear: 0b10_0011  // unknown, disappearing
        default: 0xFF
        }
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

    private func report(_ problem: String, _ tracked: Tracked, _ record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        var related: [RelatedEvent] = []
        let name = context.controller(of: record).displayName
        var message = "\(name): \(problem)"
        if let last = tracked.last {
            related.append(RelatedEvent(ordinal: last.ordinal, timestamp: last.timestamp, message: "previous appearance callback: \(last.callback.name) at \(context.time(last.timestamp))"))
            message += "; the previous appearance callback was \(last.callback.name) at \(context.time(last.timestamp))"
        }
        message += " (state \(tracked.state.rawValue))."
        findings.append(Finding(
            ruleID: AppearanceBalanceRule.id, severity: severity, controller: name,
            timestamp: record.timestamp, ordinal: context.ordinal, callback: record.callback.name,
            message: message, related: related, source: context.source
        ))
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {}

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
}
