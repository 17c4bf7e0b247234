import ArgumentParsing
import TraceLog

/// `lifetrace verify TRACE [--repair]`: checks every byte of a trace that can be checked.
struct VerifyCommand: Command {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check a trace's CRCs, monotonic time, frame sequence and index; optionally cut a torn tail.",
        usage: "TRACE [--repair]",
        discussion: """
            Walks every frame (ignoring the index), checks header and payload CRCs, decodes every event,
            checks that time never goes backwards and that frame sequence numbers and event ordinals follow
            each other, and compares the index written on close with the frames found.

            --repair cuts off a torn tail (the partial frame a killed writer leaves) after printing what it
            drops. It never touches damage in the middle of the file: valid frames after it would be lost.

            A JSON Lines export is checked line by line: every line must be an event of the schema (docs/JSONL.md)
            and times must not go backwards; it has no CRCs, and --repair does not apply.

            Examples:
              lifetrace verify app.lifetrace
              lifetrace verify app.lifetrace --repair

            Exit 0 when the file is sound (or was repaired to a sound file), 1 when problems are found; the
            "unreadable:" line of an exit 2 says where the events that other commands read end.
            """,
        options: [OptionSpec("repair", help: "Truncate a torn tail in place after saying what it drops.")],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let path = arguments.positionals[0]
        output.isHumanReadable = true
        // The path as the report lines show it (a newline in a file name would split them).
        let shown = path.displayEscaped
        let input = try TraceInput(path: path)
        guard case .trace(var reader) = input.source else {
            if arguments.flag("repair") {
                // Said before checking the file: it may be sound ("fix the bad line" misled for a sound export).
                throw ValidationError("--repair applies only to a .lifetrace trace (it cuts a torn tail); \(path) is JSON Lines, which has none: 'lifetrace verify \(path)' checks it, and a bad line is fixed or deleted by hand")
            }
            return try verifyJSONL(input, output: output)
        }
        var report = try reader.verify()
        if arguments.flag("repair"), let tail = report.tornTail {
            // Say "dropping" only for what was cut: the walk can see a torn tail where the file's own index
            // (which truncateTornTail trusts) lists a complete frame, and then nothing is cut.
            if let done = try TraceWriter.truncateTornTail(path: path) {
                output.line("repair: dropping \(done.droppedBytes) bytes at offset \(done.offset): \(tail.reason)")
                output.line("repair: \(shown) now ends at offset \(done.offset)")
            } else {
                output.line("repair: nothing cut: the damage at offset \(tail.offset) is inside a frame the file's index lists, not a torn tail")
            }
            reader = try TraceReader(path: path)
            report = try reader.verify()
        }
        for problem in report.problems {
            output.line(problem.description.displayEscaped)
        }
        // The verification's "cleanly closed" also needs the index to match the walk; a file with a footer whose
        // index disagrees is not one "with no valid footer".
        let closed = report.isCleanlyClosed ? "closed cleanly"
            : reader.hasFooter && report.tornTail != nil ? "closed cleanly, then \(report.tornTail!.droppedBytes) bytes of junk after the footer"
            : reader.hasFooter ? "footer present, but its index does not match the frames found"
            : "not closed cleanly (no valid footer)"
        func count(_ value: some BinaryInteger, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
        let checked = "\(count(report.framesChecked, "frame")), \(count(report.eventsChecked, "event")), \(count(report.checkpointsChecked, "checkpoint")) checked; \(closed)"
        if report.problems.isEmpty {
            output.line("ok: \(shown): \(checked)")
            return .success
        }
        let plural = report.problems.count == 1 ? "problem" : "problems"
        output.line("FAILED: \(shown): \(report.problems.count) \(plural); \(checked)")
        if report.tornTail != nil, !arguments.flag("repair") {
            output.line("hint: 'lifetrace verify --repair \(shown)' cuts off the torn tail\(reader.hasFooter ? " (only the bytes after the footer)" : "")")
        }
        // A frame of the valid prefix (its CRCs hold: opening checked them) that does not decode is unreadable
        // input, as for every other command: exit 2, saying where the readable events end.
        let prefix = Dictionary(reader.frames.map { ($0.offset, $0) }, uniquingKeysWith: { first, _ in first })
        if let bad = report.problems.first(where: { $0.code == .corruptFrame && $0.offset.flatMap { prefix[$0] } != nil }),
           let frame = bad.offset.flatMap({ prefix[$0] }) {
            output.line("unreadable: \(shown): offset \(frame.offset): events frame \(frame.sequence) passes its CRC checks but does not decode; the other commands read the \(frame.firstOrdinal) events before it (event \(frame.firstOrdinal) onwards cannot be read)")
            return .usageOrInput
        }
        return .problemFound
    }

    /// Checks a JSON Lines file: every line parses as an event of the schema and times never go backwards.
    static func verifyJSONL(_ input: TraceInput, output: CommandOutput) throws -> ExitCode {
        var events: UInt64 = 0
        let stop = try input.scan(fromOffset: nil) { _, _, _ in
            events += 1
            return true
        }
        let checked = "\(events) events checked (JSON Lines: every line parsed as an event, times in order; the format has no CRCs)"
        guard let stop else {
            output.line("ok: \(input.path.displayEscaped): \(checked)")
            return .success
        }
        output.line("\(stop.underlying)".displayEscaped)
        output.line("FAILED: \(input.path.displayEscaped): 1 problem; \(checked) before \(stop.place); the other commands read the \(stop.readableEvents) events before it")
        return .usageOrInput
    }
}
