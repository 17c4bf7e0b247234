import Replay
import TraceLog
import TraceModel

extension TraceInput {
    /// The replayed state at an instant, and how it was found.
    struct StateAt {
        var state: ReplayState
        /// The first event's timestamp (ns; 0 for an input without events).
        var start: UInt64
        /// The instant (ns on the trace clock): `start + offset`, or the last event's time.
        var instant: UInt64
        /// Checkpoints tried and rejected on the way (trace only).
        var skippedCheckpoints: [any Error]
        /// Where reading stopped early, when the state needed events that cannot be decoded.
        var stop: Stop?
        /// The last event's timestamp (ns), when the input was read to its end or says where it ends.
        var end: UInt64?
        /// Whether `start + offset` is past the end of the trace clock (2^64 − 1 ns): `instant` is then that end,
        /// and the requested instant is after every event even when the last one is at the clock's very end.
        var isPastClockEnd = false
        /// Whether the input holds no readable event (a header only, or damage before the first event).
        var hasNoEvents: Bool { state.eventCount == 0 && stop == nil }
    }

    /// The state after every event at or before `start + offset` (or after the last event when `offset` is
    /// `nil`).
    ///
    /// A trace seeks from the nearest checkpoint (only one checkpoint interval is decoded); when a frame it needs
    /// does not decode, the state is the fold of the readable events before that frame and `stop` says where.
    /// A JSON Lines file is folded from its first line.
    func state(atOffset offset: UInt64?) throws -> StateAt {
        switch source {
        case .trace(let reader):
            guard let span = reader.timeSpan else {
                return StateAt(state: ReplayState(), start: 0, instant: 0, skippedCheckpoints: [], stop: nil, end: nil)
            }
            let instant = offset.map { Self.adding(span.lowerBound, $0) } ?? span.upperBound
            let isPastClockEnd = offset.map { span.lowerBound.addingReportingOverflow($0).overflow } ?? false
            do {
                let seek = try Replayer(reader: reader).seek(to: instant)
                return StateAt(
                    state: seek.state, start: span.lowerBound, instant: instant, skippedCheckpoints: seek.skippedCheckpoints,
                    stop: nil, end: span.upperBound, isPastClockEnd: isPastClockEnd)
            } catch let error as TraceError {
                var state = ReplayState()
                let stop = try scan(fromOffset: nil) { ordinal, event, _ in
                    guard event.timestamp <= instant else { return false }
                    state.apply(event, ordinal: ordinal)
                    return true
                }
                return StateAt(
                    state: state, start: span.lowerBound, instant: instant, skippedCheckpoints: [],
                    stop: stop ?? Self.stop(reader, error), end: span.upperBound, isPastClockEnd: isPastClockEnd)
            }
        case .jsonl:
            var state = ReplayState()
            var start: UInt64?
            var limit = UInt64.max
            var readToEnd = true
            // Past T, the rest is read for damage only (a warning, exit 1), as a damaged .lifetrace warns when opened.
            let stop = try scan(fromOffset: nil, checkingRest: { true }) { ordinal, event, first in
                if start == nil {
                    start = first
                    limit = offset.map { Self.adding(first, $0) } ?? .max
                }
                guard event.timestamp <= limit else {
                    readToEnd = false
                    return false
                }
                state.apply(event, ordinal: ordinal)
                return true
            }
            let origin = start ?? 0
            let instant = offset.map { Self.adding(origin, $0) } ?? state.time ?? origin
            return StateAt(
                state: state, start: origin, instant: instant, skippedCheckpoints: [], stop: stop,
                end: readToEnd && stop == nil ? state.time : nil,
                isPastClockEnd: start != nil && offset.map { origin.addingReportingOverflow($0).overflow } ?? false)
            // (`readToEnd` is false when T came before the last event: the note "after the last event" is not due.)
        }
    }

    /// The timeline of every readable event, and where reading stopped early (if it did).
    func timeline() throws -> (timeline: Timeline, stop: Stop?) {
        var builder = Timeline.Builder()
        var state = ReplayState()
        let stop = try scan(fromOffset: nil) { ordinal, event, _ in
            try builder.willApply(event, ordinal: ordinal, to: state)
            state.apply(event, ordinal: ordinal)
            try builder.didApply(event, ordinal: ordinal, giving: state)
            return true
        }
        return (builder.timeline, stop)
    }
}
