import TraceLog
import TraceModel

/// What `lifetrace verify` found in one file, written as its text report or (`--format json`) one JSON object.
struct VerifyResult {
    /// How a `.lifetrace` ends.
    enum Closing {
        /// A valid footer whose index matches the frames found.
        case cleanly
        /// A valid footer, then bytes that are not a frame.
        case junkAfterFooter(bytes: UInt64)
        /// A footer whose index does not match the frames found.
        case indexMismatch
        /// No valid footer (a writer that did not close it).
        case notClosed

        var text: String {
            switch self {
            case .cleanly: "closed cleanly"
            case .junkAfterFooter(let bytes): "closed cleanly, then \(bytes) bytes of junk after the footer"
            case .indexMismatch: "footer present, but its index does not match the frames found"
            case .notClosed: "not closed cleanly (no valid footer)"
            }
        }

        var name: String {
            switch self {
            case .cleanly: "cleanly"
            case .junkAfterFooter: "junk_after_footer"
            case .indexMismatch: "index_mismatch"
            case .notClosed: "not_closed"
            }
        }
    }

    /// What `--repair` did.
    enum Repair {
        /// Cut the torn tail: the file now ends at `offset`.
        case cut(RecoveryReport)
        /// The damage at `offset` is inside a frame the file's index lists, so nothing was cut.
        case nothingCut(offset: UInt64)
    }

    /// Where the events other commands read end: a frame that passes its CRCs but does not decode, a JSON line
    /// that is not an event (exit 2).
    struct Unreadable {
        var offset: UInt64?
        var line: UInt64?
        var readableEvents: UInt64
        /// `offset 1234: events frame 3 passes its CRC checks but does not decode; …`.
        var text: String
    }

    var path: String
    /// `lifetrace` or `jsonl`.
    var format: String
    var problems: [TraceError] = []
    /// The JSON Lines line that cannot be read (JSON Lines only).
    var jsonlProblem: (any Error)?
    var frames = 0
    var events: UInt64 = 0
    var checkpoints = 0
    var closed: Closing?
    var repair: Repair?
    var hint: String?
    var unreadable: Unreadable?

    /// 0 sound, 1 problems found, 2 a part other commands cannot read.
    var exitCode: ExitCode {
        if unreadable != nil { return .usageOrInput }
        return problems.isEmpty ? .success : .problemFound
    }

    /// `ok`, `failed` or `unreadable`.
    var status: String {
        unreadable != nil ? "unreadable" : problems.isEmpty ? "ok" : "failed"
    }

    private var isJSONL: Bool { format == "jsonl" }

    /// The text report, one string per line, names escaped and `ok`/`FAILED` coloured by `style`.
    func textLines(style: TerminalStyle) -> [String] {
        let shown = path.displayEscaped
        let ok = style.apply(.success, to: "ok")
        let failed = style.apply(.error, to: "FAILED")
        if isJSONL {
            let checked = "\(events) events checked (JSON Lines: every line parsed as an event, times in order; the format has no CRCs)"
            guard let problem = jsonlProblem, let unreadable else { return ["\(ok): \(shown): \(checked)"] }
            return ["\(problem)".displayEscaped, "\(failed): \(shown): 1 problem; \(checked) before \(unreadable.text.displayEscaped)"]
        }
        var lines: [String] = []
        switch repair {
        case .cut(let done):
            lines.append("repair: dropping \(done.droppedBytes) bytes at offset \(done.offset): \(done.reason.displayEscaped)")
            lines.append("repair: \(shown) now ends at offset \(done.offset)")
        case .nothingCut(let offset):
            lines.append("repair: nothing cut: the damage at offset \(offset) is inside a frame the file's index lists, not a torn tail")
        case nil:
            break
        }
        lines += problems.map(\.description.displayEscaped)
        func count(_ value: some BinaryInteger, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
        let checked = "\(count(frames, "frame")), \(count(events, "event")), \(count(checkpoints, "checkpoint")) checked; \(closed?.text ?? "")"
        if problems.isEmpty {
            return lines + ["\(ok): \(shown): \(checked)"]
        }
        lines.append("\(failed): \(shown): \(count(problems.count, "problem")); \(checked)")
        if let hint { lines.append("hint: \(hint.displayEscaped)") }
        if let unreadable { lines.append("unreadable: \(shown): \(unreadable.text.displayEscaped)") }
        return lines
    }

    /// One JSON object: `path`, `input_format`, `status` (`ok`, `failed`, `unreadable`), the counts checked
    /// (`null` where the format has none), `closed`, `problems` (`code`, `message`, `offset`, `line`, `event`),
    /// `repair`, `readable_events` and where reading stops (`unreadable_at_offset`, `unreadable_at_line`), `hint`.
    var json: String {
        func number(_ value: (some BinaryInteger)?) -> String { value.map { "\($0)" } ?? "null" }
        func string(_ value: String?) -> String { value.map(JSONString.quoted) ?? "null" }
        var problemObjects: [String] = problems.map { problem in
            "{\"code\": \(string(problem.code.rawValue)), \"message\": \(string(problem.message)), \"offset\": \(number(problem.offset)), \"line\": \(number(problem.line)), \"event\": \(number(problem.eventOrdinal))}"
        }
        if let problem = jsonlProblem {
            let error = problem as? JSONLError
            let code = error?.code.name ?? "unreadable"
            let message = error?.message ?? "\(problem)"
            problemObjects.append(
                "{\"code\": \(string(code)), \"message\": \(string(message)), \"offset\": null, \"line\": \(number(error.map { UInt64($0.line) })), \"event\": \(number(unreadable?.readableEvents))}")
        }
        let repairObject: String
        switch repair {
        case .cut(let done):
            repairObject = "{\"cut\": true, \"offset\": \(done.offset), \"dropped_bytes\": \(done.droppedBytes), \"reason\": \(string(done.reason))}"
        case .nothingCut(let offset):
            repairObject = "{\"cut\": false, \"offset\": \(offset), \"dropped_bytes\": 0, \"reason\": null}"
        case nil:
            repairObject = "null"
        }
        let fields: [(String, String)] = [
            ("path", string(path)),
            ("input_format", string(format)),
            ("status", string(status)),
            ("frames_checked", isJSONL ? "null" : "\(frames)"),
            ("events_checked", "\(events)"),
            ("checkpoints_checked", isJSONL ? "null" : "\(checkpoints)"),
            ("closed", string(closed?.name)),
            ("problems", "[" + problemObjects.joined(separator: ", ") + "]"),
            ("repair", repairObject),
            ("readable_events", number(unreadable?.readableEvents)),
            ("unreadable_at_offset", number(unreadable?.offset)),
            ("unreadable_at_line", number(unreadable?.line)),
            ("hint", string(hint)),
        ]
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
}
