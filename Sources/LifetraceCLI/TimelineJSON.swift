import Replay
import TraceModel

/// `lifetrace timeline --format json`: the timeline as one JSON object.
///
/// ```
/// {"path": "app.lifetrace", "origin_ns": 1000, "start_ns": 1000, "end_ns": 9701000,
///  "lanes": [{"controller": "NoteEditorViewController#3", "type": "NoteEditorViewController", "serial": 3,
///             "label": null, "first_seen_ns": …, "deinit_ns": null, "process_end_ns": null,
///             "spans": [{"appearance": "appeared", "start_ns": …, "end_ns": …}],
///             "marks": [{"name": "save", "t_ns": …, "event": 77, "in": "NoteEditorViewController#3.viewWillDisappear"}],
///             "diagnostics": [{"kind": "…", "t_ns": …, "event": …, "message": "…"}]}],
///  "app": [{"t_ns": …, "state": "active"}]}
/// ```
///
/// Times are trace clock nanoseconds, as the JSON Lines `t_ns`; `origin_ns` is the trace's first event (the 0 s
/// of the text formats), `start_ns`/`end_ns` the span shown (the window of `--from`/`--to`). A span still open
/// at the end has `"end_ns": null`. Names are kept exactly (JSON escapes control characters).
enum TimelineJSON {
    static func render(_ timeline: Timeline, path: String, origin: UInt64?) -> String {
        func string(_ text: String?) -> String { text.map(JSONString.quoted) ?? "null" }
        func number(_ value: UInt64?) -> String { value.map { "\($0)" } ?? "null" }
        let lanes = timeline.lanes.map { lane -> String in
            let controller = lane.controller
            let spans = lane.spans.map {
                "{\"appearance\": \(string($0.appearance.name)), \"start_ns\": \($0.start), \"end_ns\": \(number($0.end))}"
            }
            let marks = lane.marks.map {
                "{\"name\": \(string($0.name)), \"t_ns\": \($0.time), \"event\": \($0.ordinal), \"in\": \(string($0.enclosingName))}"
            }
            let diagnostics = lane.diagnostics.map {
                "{\"kind\": \(string($0.kind.name)), \"t_ns\": \($0.time), \"event\": \($0.ordinal), \"message\": \(string($0.message))}"
            }
            let fields: [(String, String)] = [
                ("controller", string(controller.displayName)),
                ("type", string(controller.typeName)),
                ("serial", "\(controller.serial)"),
                ("label", string(controller.label)),
                ("first_seen_ns", "\(lane.firstSeen)"),
                ("deinit_ns", number(lane.deinitTime)),
                ("process_end_ns", number(lane.processEndTime)),
                ("spans", "[" + spans.joined(separator: ", ") + "]"),
                ("marks", "[" + marks.joined(separator: ", ") + "]"),
                ("diagnostics", "[" + diagnostics.joined(separator: ", ") + "]"),
            ]
            return object(fields)
        }
        let app = timeline.appStates.map { "{\"t_ns\": \($0.time), \"state\": \(string($0.state.name))}" }
        return object([
            ("path", string(path)),
            ("origin_ns", number(origin)),
            ("start_ns", number(timeline.start)),
            ("end_ns", number(timeline.end)),
            ("lanes", "[" + lanes.joined(separator: ", ") + "]"),
            ("app", "[" + app.joined(separator: ", ") + "]"),
        ])
    }

    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
}
