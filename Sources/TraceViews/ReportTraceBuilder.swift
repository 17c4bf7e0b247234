import Audit
import Replay
import TraceLog
import TraceModel

/// Collects what the HTML report shows of one trace, fed its events in order: lanes (appearance spans, callbacks,
/// marks, container operations), app state, findings, and the replayed state as `lifetrace state --at` prints it
/// at the instants of the trace.
///
/// States: one per distinct event time (the state after every event at that time), rendered by the replayer
/// (`ReplayState.tree(start:)`, `StateText`). When a trace has more than `stateLimit` distinct times, every
/// second kept instant is dropped and the stride doubles, so at most `stateLimit` instants stay, evenly spread
/// over the trace's events; the page then shows the state at the last kept instant at or before the clicked time
/// and says which instant that is.
///
/// Lane items: at most `itemLimit` callbacks, marks and operations in all; past that, callbacks are counted in
/// `droppedItems` rather than kept (spans, marks and findings are always kept). Memory is bounded by these limits
/// plus the live controllers. Not `Sendable`.
public struct ReportTraceBuilder {
    public static let defaultStateLimit = 4000
    public static let defaultItemLimit = 200_000

    private let path: String
    private let header: TraceHeader?
    private let stateLimit: Int
    private let itemLimit: Int
    private let session: AuditSession?
    private let fixes: [String: String]
    private var state = ReplayState()
    private var start: UInt64?
    private var last: UInt64 = 0
    private var lanes: [UInt32: ReportTrace.Lane] = [:]
    private var open: [UInt32: [(name: Int, begin: UInt64, ordinal: UInt64)]] = [:]
    private var appearance: [UInt32: (state: Appearance, since: UInt64)] = [:]
    private var appSpans: [ReportTrace.AppSpan] = []
    private var appState: (name: String, since: UInt64)?
    private var callbackNames: [String] = []
    private var callbackNameIndex: [String: Int] = [:]
    private var itemCount = 0
    private var droppedItems = 0
    private var states: [ReportTrace.StateAt] = []
    private var stride = 1
    private var distinctTimes = 0
    private var eventCount: UInt64 = 0

    /// - Parameters:
    ///   - path: The trace's path as the report names it.
    ///   - header: The trace's header (wall-clock anchor, producer), when it has one.
    ///   - auditor: Runs in the same pass; `nil` for no findings.
    public init(path: String, header: TraceHeader?, auditor: Auditor?, stateLimit: Int = defaultStateLimit, itemLimit: Int = defaultItemLimit) {
        self.path = path
        self.header = header
        self.stateLimit = max(2, stateLimit)
        self.itemLimit = itemLimit
        session = auditor?.makeSession()
        var fixes: [String: String] = [:]
        for (rule, _) in auditor?.active ?? [] { fixes[rule.descriptor.id] = rule.descriptor.fix }
        self.fixes = fixes
    }

    /// Folds one event (ordinals 0, 1, 2, … in order).
    public mutating func observe(_ event: Event, ordinal: UInt64) {
        let time = event.timestamp
        if start == nil { start = time }
        if eventCount > 0, time != last { keepState(at: last) }
        eventCount += 1
        last = time
        let origin = start ?? time
        var enclosing: ActiveCallback?
        if case .mark(let mark) = event.payload { enclosing = state.enclosingCallback(of: mark.controller) }
        state.apply(event, ordinal: ordinal)
        session?.observe(event, ordinal: ordinal)
        let rel = time - origin
        for ref in event.controllers { lane(ref) }

        switch event.payload {
        case .callback(let callback):
            let serial = callback.controller.serial
            let name = nameIndex(callback.callback.name)
            switch callback.phase {
            case .begin:
                open[serial, default: []].append((name, rel, ordinal))
            case .end:
                var stack = open[serial] ?? []
                if let index = stack.lastIndex(where: { $0.name == name }) {
                    while stack.count > index {
                        let entry = stack.removeLast()
                        addCallback(serial, entry.name, entry.begin, rel, depth: stack.count, entry.ordinal, ordinal)
                    }
                } else {
                    addCallback(serial, name, rel, rel, depth: stack.count, ordinal, ordinal)
                }
                open[serial] = stack
            case .instant:
                addCallback(serial, name, rel, rel, depth: open[serial]?.count ?? 0, ordinal, ordinal)
            }
        case .container(let container):
            if let owner = container.container ?? container.controllers.first {
                addItem(owner.serial) { $0.operations.append(ReportTrace.Tick(time: rel, label: Self.operationLabel(container), ordinal: ordinal)) }
            }
            for ref in event.controllers { lanes[ref.serial]?.order = TreeOrder.key(of: ref.serial, in: state) }
        case .mark(let mark):
            let owner = mark.controller?.serial ?? enclosing?.controllerSerial
            var label = mark.viewName
            let fields = mark.fields.filter { $0.name != "key" && !($0.name == "critical" && mark.name == MarkName.save) }
            if !fields.isEmpty { label += " " + fields.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }
            if let enclosing { label += " in " + state.describe(enclosing) }
            if let owner, let ref = state.controllers[owner]?.ref ?? lanes[owner]?.ref {
                lane(ref)
                lanes[owner]?.marks.append(ReportTrace.Tick(time: rel, label: label, ordinal: ordinal))
            }
        default:
            break
        }

        for ref in event.controllers { updateAppearance(ref.serial, at: rel) }
        if case .recorder(.runStarted) = event.payload, eventCount > 1 {
            for serial in Array(appearance.keys) where state.controllers[serial]?.isAlive != true {
                closeLane(serial, at: rel)
            }
        }
        for ref in event.controllers where state.controllers[ref.serial].map({ !$0.isAlive }) ?? true {
            if open[ref.serial]?.isEmpty ?? true { closeLane(ref.serial, at: rel) }
        }
        if appState?.name != state.app.name {
            if let current = appState, rel > current.since { appSpans.append(ReportTrace.AppSpan(start: current.since, end: rel, name: current.name)) }
            appState = (state.app.name, rel)
        }
    }

    /// Ends the trace: closes open spans at the last event, keeps the last state, runs the audit's finish.
    public mutating func finish() -> ReportTrace {
        let origin = start ?? 0
        let end = last - origin
        if eventCount > 0 { keepState(at: last) }
        for serial in Array(open.keys) {
            while let entry = open[serial]?.popLast() {
                addCallback(serial, entry.name, entry.begin, end, depth: open[serial]?.count ?? 0, entry.ordinal, nil)
            }
        }
        for serial in Array(appearance.keys) { closeLane(serial, at: end, isEnd: true) }
        if let current = appState, end > current.since { appSpans.append(ReportTrace.AppSpan(start: current.since, end: end, name: current.name)) }
        let findings = (session?.finish() ?? []).map { finding in
            ReportTrace.FindingEntry(
                rule: finding.ruleID, severity: finding.severity.rawValue, verdict: finding.verdict.rawValue,
                message: finding.message, fix: fixes[finding.ruleID] ?? "", controller: finding.controller,
                callback: finding.callback, time: finding.timestamp - min(finding.timestamp, origin), ordinal: finding.ordinal,
                related: finding.related.map { ReportTrace.Related(ordinal: $0.ordinal, time: $0.timestamp - min($0.timestamp, origin), message: $0.message) })
        }
        let sortedLanes = lanes.values.sorted { lhs, rhs in
            lhs.order != rhs.order ? lhs.order.lexicographicallyPrecedes(rhs.order) : lhs.ref.serial < rhs.ref.serial
        }
        return ReportTrace(
            path: path, producer: header?.producer ?? "", eventCount: eventCount, start: origin, end: end,
            wallClockAnchor: header?.wallClockAnchor, clockDomain: header.map { "\($0.clockDomain)" } ?? "",
            lanes: sortedLanes, appSpans: appSpans, findings: findings, states: states,
            isStateSampled: stride > 1, callbackNames: callbackNames, droppedItems: droppedItems)
    }

    // MARK: Pieces

    private mutating func keepState(at time: UInt64) {
        defer { distinctTimes += 1 }
        guard distinctTimes % stride == 0 else { return }
        let origin = start ?? time
        states.append(ReportTrace.StateAt(time: time - origin, summary: StateText.summary(state), tree: state.tree(start: origin)))
        if states.count >= stateLimit {
            states = states.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            stride *= 2
        }
    }

    private mutating func lane(_ ref: ControllerRef) {
        guard lanes[ref.serial] == nil else { return }
        lanes[ref.serial] = ReportTrace.Lane(ref: ref, order: TreeOrder.key(of: ref.serial, in: state))
        if let c = state.controllers[ref.serial] { appearance[ref.serial] = (c.appearance, last - (start ?? last)) }
    }

    private mutating func nameIndex(_ name: String) -> Int {
        if let index = callbackNameIndex[name] { return index }
        callbackNames.append(name)
        callbackNameIndex[name] = callbackNames.count - 1
        return callbackNames.count - 1
    }

    private mutating func addItem(_ serial: UInt32, _ body: (inout ReportTrace.Lane) -> Void) {
        guard var lane = lanes[serial] else { return }
        body(&lane)
        lanes[serial] = lane
        itemCount += 1
    }

    private mutating func addCallback(_ serial: UInt32, _ name: Int, _ begin: UInt64, _ end: UInt64, depth: Int, _ beginOrdinal: UInt64, _ endOrdinal: UInt64?) {
        guard itemCount < itemLimit else {
            droppedItems += 1
            return
        }
        addItem(serial) {
            $0.callbacks.append(ReportTrace.CallbackSpan(name: name, start: begin, end: end, depth: depth, beginOrdinal: beginOrdinal, endOrdinal: endOrdinal))
        }
    }

    private mutating func updateAppearance(_ serial: UInt32, at rel: UInt64) {
        guard let c = state.controllers[serial], let current = appearance[serial] else { return }
        guard c.appearance != current.state else { return }
        addSpan(serial, current.state, current.since, rel, next: c.appearance)
        appearance[serial] = (c.appearance, rel)
    }

    private mutating func closeLane(_ serial: UInt32, at rel: UInt64, isEnd: Bool = false) {
        guard let current = appearance.removeValue(forKey: serial) else { return }
        addSpan(serial, current.state, current.since, rel, next: nil)
        if !isEnd { lanes[serial]?.end = rel }
    }

    private mutating func addSpan(_ serial: UInt32, _ appearance: Appearance, _ since: UInt64, _ until: UInt64, next: Appearance?) {
        guard appearance == .appearing || appearance == .appeared || appearance == .disappearing else { return }
        let isCancelled = (appearance == .appearing && next == .disappearing) || (appearance == .disappearing && next == .appearing)
        lanes[serial]?.spans.append(ReportTrace.AppearanceSpan(state: appearance.name, start: since, end: until, isCancelled: isCancelled))
    }

    private static func operationLabel(_ event: ContainerEvent) -> String {
        var text = event.operation.name
        if !event.controllers.isEmpty { text += " " + event.controllers.map(\.displayName).joined(separator: ", ") }
        if let style = event.style { text += " (\(style.name))" }
        return text
    }
}
