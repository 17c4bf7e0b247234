import ArgumentParsing
import Replay
import TraceLog
import TraceModel

/// The replay-backed parts of `lifetrace events`: the callback each mark happened in, and `--visible NAME`.
struct MarkAttribution {
    private var state = ReplayState()
    /// Set when the events before `--from` could not be replayed (attribution then starts at `--from`).
    private(set) var warning: String?

    /// Prepares the state just before `offset` (ns after the first event), so marks at or after it are
    /// attributed as a replay from the start would: from the nearest checkpoint for a trace, by folding the
    /// earlier lines for a JSONL file.
    init(input: TraceInput, fromOffset offset: UInt64?) {
        guard let offset, offset > 0 else { return }
        do {
            switch input.source {
            case .trace(let reader):
                guard let start = reader.timeSpan?.lowerBound else { return }
                state = try Replayer(reader: reader).state(at: TraceInput.adding(start, offset) - 1)
            case .jsonl:
                var folded = ReplayState()
                let stop = try input.scan(fromOffset: nil) { ordinal, event, start in
                    guard event.timestamp < TraceInput.adding(start, offset) else { return false }
                    folded.apply(event, ordinal: ordinal)
                    return true
                }
                if let stop { throw stop }
                state = folded
            }
        } catch {
            state = ReplayState()
            warning = "the events before --from could not be replayed (\(error)); marks are attributed from --from on"
        }
    }

    /// Folds `event`; for a mark, returns the callback it happened in (from the state just before it).
    mutating func step(_ ordinal: UInt64, _ event: Event) -> ActiveCallback? {
        var enclosing: ActiveCallback?
        if case .mark(let mark) = event.payload {
            enclosing = state.enclosingCallback(of: mark.controller)
        }
        state.apply(event, ordinal: ordinal)
        return enclosing
    }

    /// `step(_:_:)` for a record of `cursor`'s frame, folded from the record (`ReplayState.apply(_:from:)`, the
    /// same fold) unless `event` is given (a `.other` record's event, taken out of the cursor); a mark's
    /// controller is read from the frame's controller table.
    mutating func step(_ record: EventRecord, event: Event?, from cursor: FrameCursor) -> ActiveCallback? {
        if let event { return step(record.ordinal, event) }
        var enclosing: ActiveCallback?
        if record.kind == .mark {
            enclosing = state.enclosingCallback(of: record.hasController ? cursor.controller(atSlot: record.controllerSlot) : nil)
        }
        state.apply(record, from: cursor)
        return enclosing
    }

    /// `  (in NoteEditorViewController#3.viewWillDisappear)`, or `(after …)` when the callback was logged as an
    /// instant just before the mark (imported console logs); empty when nothing encloses the mark.
    func suffix(_ enclosing: ActiveCallback?) -> String {
        guard let enclosing else { return "" }
        return "  (\(enclosing.isInstant ? "after" : "in") \(state.describe(enclosing)))"
    }
}

extension EventsCommand {
    /// `--visible NAME`: the intervals when each controller named NAME (display name, or type name for every
    /// instance) was `appeared`, clipped to `--from`/`--to`. Text: one line per interval; jsonl: one object per
    /// interval `{"controller", "start_ns", "end_ns"}` (`end_ns` null while still appeared at the end).
    ///
    /// - Returns: Where reading stopped early, if it did (the intervals cover the events before it), and whether a
    ///   controller is named NAME (when none is, a warning says so, with the nearest name when one is close).
    static func printVisible(
        _ name: String, input: TraceInput, from: UInt64?, to: UInt64?, format: String, output: CommandOutput
    ) throws -> (stop: TraceInput.Stop?, found: Bool) {
        var builder = Timeline.Builder()
        var state = ReplayState()
        var origin: UInt64 = 0
        let stop = try input.scan(fromOffset: nil) { ordinal, event, start in
            origin = start
            try builder.willApply(event, ordinal: ordinal, to: state)
            state.apply(event, ordinal: ordinal)
            try builder.didApply(event, ordinal: ordinal, giving: state)
            return true
        }
        let timeline = builder.timeline
        var lanes = timeline.lanes.filter { ControllerName(name).matches($0.controller) }
        if lanes.isEmpty, let loose = LooseControllerMatch.find(name, among: timeline.lanes.map(\.controller)) {
            output.errorLine(loose.note(command: "events", option: "--visible"))
            lanes = timeline.lanes.filter { loose.types.contains($0.controller.typeName) }
        }
        guard !lanes.isEmpty else {
            // Nothing selected, as `--controller` with no match: exit 1 (grep-like), not a usage error.
            let known = timeline.lanes.map(\.controller)
            let hint = nearestController(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            output.errorLine(
                "lifetrace events: warning: no controller named '\(name)' in the trace\(hint); use a display name such as \(LooseControllerMatch.exampleName(among: known)), or a type name ('lifetrace state TRACE' lists them)")
            return (stop, false)
        }
        let traceEnd = state.time ?? origin
        let lower = from.map { TraceInput.adding(origin, $0) } ?? 0
        let upper = to.map { TraceInput.adding(origin, $0) } ?? UInt64.max
        for lane in lanes {
            let intervals = lane.visibleIntervals.compactMap { span -> (UInt64, UInt64?)? in
                let end = span.end
                // Still appeared at the end: known up to the last event, not beyond (`--from` past the end selects nothing).
                guard span.start <= upper, (end ?? max(traceEnd, span.start)) >= lower else { return nil }
                return (max(span.start, lower), end.map { min($0, upper) } ?? (to == nil ? nil : upper))
            }
            if format == "jsonl" {
                for (start, end) in intervals {
                    output.line("{\"controller\":\"\(jsonEscaped(lane.controller.displayName))\",\"start_ns\":\(start),\"end_ns\":\(end.map(String.init) ?? "null")}")
                }
            } else {
                output.line("\(lane.controller.displayName) appeared:\(intervals.isEmpty ? " never" : "")")
                for (start, end) in intervals {
                    let from = TimeText.seconds(start - min(start, origin))
                    if let end {
                        output.line("  \(from) – \(TimeText.seconds(end - min(end, origin)))  (\(TimeText.duration(end - start)))")
                    } else {
                        output.line("  \(from) – end of trace")
                    }
                }
            }
        }
        return (stop, true)
    }

    private static func jsonEscaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
