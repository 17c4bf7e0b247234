import Replay
import TraceLog
import TraceModel

/// One audit of one trace: feed it every event in order, then `finish()`.
///
/// Every input path folds each event once into the replayed state (`Replay`) and hands it to the fact engine
/// (`FactEngine`), which derives the lifecycle facts and dispatches each to the rules that asked for its kind:
/// `observe(_:ordinal:)` for `Event`s (a JSON Lines input, a live recorder feed), `observe(_:from:)` for one
/// record of a `.lifetrace` frame, `observeRest(of:batch:)` for the rest of a frame decoded in record batches.
/// All three give the same facts in the same order.
///
/// Streaming: memory is bounded by the replayed state (live controllers) and what the rules keep per live
/// controller, not by the number of events. Not `Sendable`: use one session on one thread.
public final class AuditSession {
    /// The replayed state after the last event observed. Unchecked exclusivity, as `FactEngine`'s per-event
    /// properties: one thread, never lent out overlapping.
    @exclusivity(unchecked) public private(set) var state = ReplayState()
    private let engine: FactEngine

    init(facts engine: FactEngine) {
        self.engine = engine
    }

    /// Feeds the event with ordinal `ordinal` (0-based, consecutive).
    public func observe(_ event: Event, ordinal: UInt64) {
        state.apply(event, ordinal: ordinal)
        guard let input = EngineEvent(event) else { return }
        take(input, ordinal: ordinal, timestamp: event.timestamp, source: event.source)
    }

    /// Feeds one event decoded by a `FrameCursor` (the record `cursor.next()` just returned): the same as
    /// `observe(_:ordinal:)` with the record's ordinal.
    public func observe(_ record: EventRecord, from cursor: FrameCursor) {
        if record.kind == .other {
            observe(cursor.event(of: record), ordinal: record.ordinal)
            return
        }
        withUnsafePointer(to: cursor) { observe(record, $0) }
    }

    /// Feeds every event `cursor`'s frame has left, decoded a run at a time into `batch` (reuse one batch from
    /// frame to frame): the same as `observe(_:from:)` for each record.
    ///
    /// - Returns: The number of events observed.
    /// - Throws: What decoding the frame throws (`TraceError`); the events before the bad one are observed.
    @discardableResult
    public func observeRest(of cursor: inout FrameCursor, batch: inout RecordBatch) throws -> UInt64 {
        var observed: UInt64 = 0
        while true {
            cursor.decode(into: &batch, limit: 1024)
            let first = batch.firstOrdinal
            let records = batch.records
            let events = batch.events
            withUnsafePointer(to: cursor) { cursor in
                batch.withEntries { entries in
                    for index in entries.indices {
                        let ordinal = first &+ UInt64(index)
                        let word = entries.word(at: index)
                        if word.isRecord {
                            let record = records[Int(word.record)]
                            if record.kind == .other {
                                if let event = events[Int(word.record)] { observe(event, ordinal: ordinal) }
                            } else {
                                observe(record, cursor)
                            }
                        } else {
                            let entry = entries[index]
                            state.apply(callback: entry, ordinal: ordinal, from: cursor)
                            var fact = CallbackFact(entry)
                            if entry.parent == .controller { fact.parentRef = cursor.controller(atSlot: entry.parentSlot) }
                            take(.callback(fact), ordinal: ordinal, timestamp: entry.timestamp, source: nil)
                        }
                    }
                }
            }
            observed &+= UInt64(batch.count)
            if let error = batch.error { throw error }
            if batch.isFinished { return observed }
        }
    }

    /// A container, app, SwiftUI, mark or callback record of the frame `cursor` points to.
    private func observe(_ record: EventRecord, _ cursor: UnsafePointer<FrameCursor>) {
        state.apply(record, from: cursor)
        let input: EngineEvent?
        if record.kind == .callback {
            var fact = CallbackFact(record)
            if record.parent == .controller { fact.parentRef = cursor.controller(atSlot: record.parentSlot) }
            input = .callback(fact)
        } else {
            input = EngineEvent(cursor.payload(of: record))
        }
        if let input { take(input, ordinal: record.ordinal, timestamp: record.timestamp, source: nil) }
    }

    private func take(_ input: EngineEvent, ordinal: UInt64, timestamp: UInt64, source: EventSource?) {
        withUnsafePointer(to: &state) { engine.observe(input, ordinal: ordinal, timestamp: timestamp, source: source, state: $0) }
    }

    /// The rules that had nothing to check in the trace so far (`RuleDescriptor.needs`), in registry order.
    public var idleRules: [IdleRule] {
        engine.idleRules
    }

    /// Ends the trace: lets the rules report what is still pending and returns every finding, in event order
    /// (then by rule id, controller and message).
    public func finish() -> [Finding] {
        Self.ordered(finishUnordered())
    }

    /// `finish()` without the sort: the findings in the order the rules emitted them.
    func finishUnordered() -> [Finding] {
        withUnsafePointer(to: &state) { engine.finish(state: $0) }
    }

    /// `findings` in event order, then by rule id, controller and message: a total order over what a report shows,
    /// so the same trace always gives the same report (rules may emit ties from dictionaries), whether its rules
    /// ran in one session or in several (`Auditor.audit(_:groups:)`; the sort is stable, and findings that tie
    /// have one rule id, so they come from one session in the order that rule emitted them).
    static func ordered(_ findings: [Finding]) -> [Finding] {
        findings.sorted {
            ($0.ordinal, $0.ruleID, $0.controller ?? "", $0.message) < ($1.ordinal, $1.ruleID, $1.controller ?? "", $1.message)
        }
    }
}
