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
    /// A rule's value, held in a class so that `reduce` mutates it in place.
    final class Slot {
        @exclusivity(unchecked) var rule: any AuditRule
        let id: String
        let needs: [FactKind]
        init(_ rule: any AuditRule, id: String, needs: [FactKind]) {
            self.rule = rule
            self.id = id
            self.needs = needs
        }
    }

    private let slots: [Slot]
    /// Rule indexes by callback raw value.
    private let byCallback: [[Int]]
    /// Rule indexes by mark name, and the rules that want every mark.
    private let byMark: [String: [Int]]
    private let anyMark: [Int]
    /// Rule indexes by the other kinds (`FactKind.otherIndex`).
    private let byKind: [[Int]]
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

    init(rules: [(rule: any AuditRule, id: String, facts: [FactKind], needs: [FactKind])]) {
        slots = rules.map { Slot($0.rule, id: $0.id, needs: $0.needs) }
        var byCallback = [[Int]](repeating: [], count: Callback.allCases.count)
        var byMark: [String: [Int]] = [:]
        var anyMark: [Int] = []
        var byKind = [[Int]](repeating: [], count: FactKind.otherCount)
        for (index, entry) in rules.enumerated() {
            for kind in Set(entry.facts) {
                switch kind {
                case .callback(let callback): byCallback[Int(callback.rawValue)].append(index)
                case .mark(let name): byMark[name, default: []].append(index)
                case .anyMark: anyMark.append(index)
                default: if let other = kind.otherIndex { byKind[other].append(index) }
                }
            }
        }
        for index in byCallback.indices { byCallback[index].sort() }
        self.byCallback = byCallback
        self.byMark = byMark.mapValues { $0.sorted() }
        self.anyMark = anyMark
        self.byKind = byKind.map { $0.sorted() }
    }

    var isEmpty: Bool { slots.isEmpty }

    /// Takes `event` (ordinal `ordinal`, at `timestamp` ns), which the fold has applied: `state` is the state after it.
    func observe(_ event: EngineEvent, ordinal: UInt64, timestamp: UInt64, source: EventSource?, state: UnsafePointer<ReplayState>) {
        if firstTimestamp == nil { firstTimestamp = timestamp }
        let previous = lastTimestamp
        lastTimestamp = timestamp
        lastOrdinal = ordinal
        let view = ReplayView(state, ordinal: ordinal, timestamp: timestamp, source: source, traceStart: firstTimestamp ?? 0)
        deriver.derive(event, ordinal: ordinal, timestamp: timestamp, source: source, previousTimestamp: previous, state: state) { dispatch($0, view) }
    }

    /// Ends the trace: the exits still open complete, then every rule's `finish`. Returns the findings (unsorted).
    func finish(state: UnsafePointer<ReplayState>) -> [Finding] {
        let view = ReplayView(state, ordinal: lastOrdinal, timestamp: lastTimestamp ?? 0, source: nil, traceStart: firstTimestamp ?? 0)
        deriver.finish { dispatch($0, view) }
        for slot in slots { slot.rule.finish(view, &findings) }
        return findings
    }

    /// The rules that received none of the facts they need to have anything to check (`AuditRule` descriptors'
    /// `needs`), with the kinds missing: `critical_save_placement: no save marks`.
    var idleRules: [IdleRule] {
        slots.compactMap { slot in
            guard !slot.needs.isEmpty, !slot.needs.contains(where: hasSeen) else { return nil }
            return IdleRule(ruleID: slot.id, missing: slot.needs)
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
            for index in byCallback[Int(callback.callback.rawValue)] { slots[index].rule.reduce(fact, view, &findings) }
        case .mark(let mark):
            if !seenMarks.contains(mark.name) { seenMarks.insert(mark.name) }
            if let targets = byMark[mark.name] {
                if anyMark.isEmpty {
                    for index in targets { slots[index].rule.reduce(fact, view, &findings) }
                } else {
                    for index in Set(targets).union(anyMark).sorted() { slots[index].rule.reduce(fact, view, &findings) }
                }
            } else {
                for index in anyMark { slots[index].rule.reduce(fact, view, &findings) }
            }
        default:
            guard let other = fact.kind.otherIndex else { return }
            seenKinds[other] = true
            for index in byKind[other] { slots[index].rule.reduce(fact, view, &findings) }
        }
    }
}
