import Replay
import TraceModel

/// Runs fact rules (`AuditRule`) over one trace: takes each event after the fold applied it, derives its facts
/// (`FactDeriver`) and hands each fact to the rules that asked for its kind, by a table per kind.
///
/// Not `Sendable`: one engine per trace, on one thread.
///
/// The mutable stored properties the per-event path touches are `@exclusivity(unchecked)`: a class's `var` costs
/// a dynamic exclusivity check per access (a quarter of the audit's instructions, measured with callgrind), and
/// the engine is used from one thread and never lends them out overlapping.
final class FactEngine {
    /// A rule's slot with its id and `needs` (for `idleRules`).
    private struct Entry {
        let slot: any RuleSlot
        let id: String
        let needs: [FactKind]
    }

    private let entries: [Entry]
    /// The rules (in registry order) by callback raw value.
    private let byCallback: [[any RuleSlot]]
    /// The rules by mark name (those that want every mark included), and the rules that want every mark.
    private let byMark: [String: [any RuleSlot]]
    private let anyMark: [any RuleSlot]
    /// The rules by the other kinds (`FactKind.otherIndex`).
    private let byKind: [[any RuleSlot]]
    @exclusivity(unchecked) private var deriver = FactDeriver()
    @exclusivity(unchecked) private(set) var findings: [Finding] = []
    @exclusivity(unchecked) private var firstTimestamp: UInt64?
    @exclusivity(unchecked) private var lastTimestamp: UInt64?
    @exclusivity(unchecked) private var lastOrdinal: UInt64 = 0
    /// The other kinds (by `FactKind.otherIndex`), callbacks (by raw value) and mark names of which a fact came
    /// (for `idleRules`).
    @exclusivity(unchecked) private var seenKinds = [Bool](repeating: false, count: FactKind.otherCount)
    @exclusivity(unchecked) private var seenCallbacks = [Bool](repeating: false, count: Callback.allCases.count)
    @exclusivity(unchecked) private var seenMarks = Set<String>()

    /// - Parameter rules: Each rule's slot, id and descriptor's `needs`, in registry order.
    init(rules: [(slot: any RuleSlot, id: String, needs: [FactKind])]) {
        entries = rules.map { Entry(slot: $0.slot, id: $0.id, needs: $0.needs) }
        var byCallback = [[any RuleSlot]](repeating: [], count: Callback.allCases.count)
        var byMark: [String: [Int]] = [:]
        var anyMark: [Int] = []
        var byKind = [[any RuleSlot]](repeating: [], count: FactKind.otherCount)
        for (index, entry) in entries.enumerated() {
            var wanted = Set<FactKind>()
            for kind in entry.slot.facts where wanted.insert(kind).inserted {
                switch kind {
                case .callback(let callback): byCallback[Int(callback.rawValue)].append(entry.slot)
                case .mark(let name): byMark[name, default: []].append(index)
                case .anyMark: anyMark.append(index)
                default: if let other = kind.otherIndex { byKind[other].append(entry.slot) }
                }
            }
        }
        self.byCallback = byCallback
        let slots = entries.map(\.slot)
        self.byMark = byMark.mapValues { Set($0 + anyMark).sorted().map { slots[$0] } }
        self.anyMark = anyMark.map { slots[$0] }
        self.byKind = byKind
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Takes `event` (ordinal `ordinal`, at `timestamp` ns), which the fold has applied: `state` is the state after it.
    func observe(_ event: EngineEvent, ordinal: UInt64, timestamp: UInt64, source: EventSource?, state: UnsafePointer<ReplayState>) {
        if firstTimestamp == nil { firstTimestamp = timestamp }
        let previous = lastTimestamp
        lastTimestamp = timestamp
        lastOrdinal = ordinal
        let start = firstTimestamp ?? 0
        guard let source else {
            let view = ReplayView(state, ordinal: ordinal, timestamp: timestamp, source: nil, traceStart: start)
            deriver.derive(event, ordinal: ordinal, timestamp: timestamp, source: nil, previousTimestamp: previous, state: state) { dispatch($0, view) }
            return
        }
        withUnsafePointer(to: source) { pointer in
            let view = ReplayView(state, ordinal: ordinal, timestamp: timestamp, source: pointer, traceStart: start)
            deriver.derive(event, ordinal: ordinal, timestamp: timestamp, source: source, previousTimestamp: previous, state: state) { dispatch($0, view) }
        }
    }

    /// Ends the trace: the exits still open complete, then every rule's `finish`. Returns the findings (unsorted).
    func finish(state: UnsafePointer<ReplayState>) -> [Finding] {
        let view = ReplayView(state, ordinal: lastOrdinal, timestamp: lastTimestamp ?? 0, source: nil, traceStart: firstTimestamp ?? 0)
        deriver.finish { dispatch($0, view) }
        for entry in entries { entry.slot.finish(view, &findings) }
        return findings
    }

    /// The rules that received none of the facts they need to have anything to check (`AuditRule` descriptors'
    /// `needs`), with the kinds missing: `critical_save_placement: no save marks`.
    var idleRules: [IdleRule] {
        entries.compactMap { entry in
            guard !entry.needs.isEmpty, !entry.needs.contains(where: hasSeen) else { return nil }
            return IdleRule(ruleID: entry.id, missing: entry.needs)
        }
    }

    private func hasSeen(_ kind: FactKind) -> Bool {
        switch kind {
        case .callback(let callback): seenCallbacks[Int(callback.rawValue)]
        case .mark(let name): seenMarks.contains(name)
        case .anyMark: !seenMarks.isEmpty
        default: kind.otherIndex.map { seenKinds[$0] } ?? false
        }
    }

    private func dispatch(_ fact: Fact, _ view: ReplayView) {
        switch fact {
        case .callback(let callback):
            seenCallbacks[Int(callback.callback.rawValue)] = true
            for slot in byCallback[Int(callback.callback.rawValue)] { slot.reduce(fact, view, &findings) }
        case .mark(let mark):
            if !seenMarks.contains(mark.name) { seenMarks.insert(mark.name) }
            for slot in byMark[mark.name] ?? anyMark { slot.reduce(fact, view, &findings) }
        default:
            guard let other = fact.kind.otherIndex else { return }
            seenKinds[other] = true
            for slot in byKind[other] { slot.reduce(fact, view, &findings) }
        }
    }
}
