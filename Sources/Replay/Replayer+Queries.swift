import TraceLog
import TraceModel

extension Replayer {
    /// Streams every event of the trace with, for each mark, the callback it happened in
    /// (`ReplayState.enclosingCallback(of:)` on the state just before the mark; `nil` for other events and for
    /// marks outside any callback).
    ///
    /// - Throws: As `replay(visitor:)`, and whatever `body` throws.
    public func forEachEvent(_ body: (_ ordinal: UInt64, _ event: Event, _ enclosing: ActiveCallback?) throws -> Void) throws {
        try withoutActuallyEscaping(body) { escapable in
            var visitor = AttributingVisitor(body: escapable)
            try replay(visitor: &visitor)
        }
    }

    /// The intervals during which the controller named `name` (`ControllerRef.displayName`) was `appeared`,
    /// as `[start, end)` in ns on the trace clock; `end == nil` when it was still appeared at the last event.
    ///
    /// - Throws: As `replay(visitor:)`.
    public func visibleIntervals(of name: String) throws -> [Timeline.Span] {
        var visitor = VisibilityVisitor(name: name)
        try replay(visitor: &visitor)
        return visitor.intervals
    }
}

private struct AttributingVisitor: ReplayVisitor {
    let body: (UInt64, Event, ActiveCallback?) throws -> Void

    mutating func willApply(_ event: Event, ordinal: UInt64, to state: ReplayState) throws {
        if case .mark(let mark) = event.payload {
            try body(ordinal, event, state.enclosingCallback(of: mark.controller))
        } else {
            try body(ordinal, event, nil)
        }
    }
}

private struct VisibilityVisitor: ReplayVisitor {
    let name: String
    var serial: UInt32?
    var intervals: [Timeline.Span] = []

    mutating func didApply(_ event: Event, ordinal: UInt64, giving state: ReplayState) throws {
        if serial == nil {
            guard let ref = event.controllers.first(where: { $0.displayName == name }) else { return }
            serial = ref.serial
        }
        guard let serial, event.controllers.contains(where: { $0.serial == serial }), let c = state.controllers[serial] else { return }
        let isOpen = intervals.last.map { $0.end == nil } ?? false
        let isVisible = c.appearance == .appeared && c.isAlive
        if isVisible, !isOpen {
            intervals.append(Timeline.Span(appearance: .appeared, start: event.timestamp, end: nil))
        } else if !isVisible, isOpen {
            intervals[intervals.count - 1].end = event.timestamp
        }
    }
}
