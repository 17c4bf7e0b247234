import ArgumentParsing
import TraceLog
import TraceModel

/// `lifetrace verify TRACE [--repair]`: checks every byte of a trace that can be checked.
struct VerifyCommand: Command {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check a trace's CRCs, monotonic time, frame sequence and index; optionally cut a torn tail.",
        usage: "TRACE [--repair] [--format text|json] [--color WHEN]",
        discussion: """
            Walks every frame (ignoring the index), checks header and payload CRCs, decodes every event,
            checks that time never goes backwards and that frame sequence numbers and event ordinals follow
            each other, and compares the index written on close with the frames found.

            --repair cuts off a torn tail (the partial frame a killed writer leaves) after printing what it
            drops. It never touches damage in the middle of the file: valid frames after it would be lost.

            A JSON Lines export is checked line by line: every line must be an event of the schema (docs/JSONL.md)
            and times must not go backwards; it has no CRCs, and --repair does not apply.

            --format json prints one JSON object instead (docs/CLI.md "Machine formats"): "status" is "ok",
            "failed" or "unreadable", with every problem, the counts checked and how the file was closed.

            Examples:
              lifetrace verify app.lifetrace
              lifetrace verify app.lifetrace --repair
              lifetrace verify app.lifetrace --format json | jq .status

            Exit 0 when the file is sound (or was repaired to a sound file), 1 when problems are found; the
            "unreadable:" line of an exit 2 says where the events that other commands read end.
            """,
        options: [
            OptionSpec("repair", help: "Truncate a torn tail in place after saying what it drops."),
            OptionSpec("format", value: "FORMAT", help: "Output format: text (default) or json."),
            ColorOption.spec,
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let path = arguments.positionals[0]
        let json = try arguments.choice("format", among: ["text", "json"], default: "text") == "json"
        output.isHumanReadable = !json
        let style = json ? TerminalStyle.plain : try ColorOption.style(arguments, output: output)
        let input = try TraceInput(path: path)
        guard case .trace(var reader) = input.source else {
            if arguments.flag("repair") {
                // Said before checking the file: it may be sound ("fix the bad line" misled for a sound export).
                throw ValidationError("--repair applies only to a .lifetrace trace (it cuts a torn tail); \(path) is JSON Lines, which has none: 'lifetrace verify \(path)' checks it, and a bad line is fixed or deleted by hand")
            }
            let result = try verifyJSONL(input)
            write(result, json: json, style: style, output: output)
            return result.exitCode
        }
        // Checked first, whatever the file holds: the bytes a writer is writing can look like a torn tail, or like
        // a sound file that a repair then reports "ok" while the writer goes on (docs/RECORDING.md: exit 2).
        if arguments.flag("repair"), FilePaths.isHeldByWriter(path) {
            output.errorLine("lifetrace verify: error: \(path): another writer has this trace open (a recorder in another process, or another TraceWriter); --repair would cut what it is writing. Stop that writer first")
            return .usageOrInput
        }
        var result = VerifyResult(path: path, format: "lifetrace")
        var report = try reader.verify()
        if arguments.flag("repair"), let tail = report.tornTail {
            // Say "dropping" only for what was cut: the walk can see a torn tail where the file's own index
            // (which truncateTornTail trusts) lists a complete frame, and then nothing is cut.
            if let done = try TraceWriter.truncateTornTail(path: path) {
                result.repair = .cut(RecoveryReport(offset: done.offset, droppedBytes: done.droppedBytes, reason: tail.reason))
            } else {
                result.repair = .nothingCut(offset: tail.offset)
            }
            reader = try TraceReader(path: path)
            report = try reader.verify()
        }
        result.problems = report.problems
        result.frames = report.framesChecked
        result.events = report.eventsChecked
        result.checkpoints = report.checkpointsChecked
        // The verification's "cleanly closed" also needs the index to match the walk; a file with a footer whose
        // index disagrees is not one "with no valid footer".
        result.closed = report.isCleanlyClosed ? .cleanly
            : reader.hasFooter && report.tornTail != nil ? .junkAfterFooter(bytes: report.tornTail!.droppedBytes)
            : reader.hasFooter ? .indexMismatch
            : .notClosed
        if report.tornTail != nil, !arguments.flag("repair") {
            result.hint = "'lifetrace verify --repair \(path)' cuts off the torn tail\(reader.hasFooter ? " (only the bytes after the footer)" : "")"
        }
        // A frame of the valid prefix (its CRCs hold: opening checked them) that does not decode is unreadable
        // input, as for every other command: exit 2, saying where the readable events end.
        let prefix = Dictionary(reader.frames.map { ($0.offset, $0) }, uniquingKeysWith: { first, _ in first })
        if let bad = report.problems.first(where: { $0.code == .corruptFrame && $0.offset.flatMap { prefix[$0] } != nil }),
           let frame = bad.offset.flatMap({ prefix[$0] }) {
            result.unreadable = VerifyResult.Unreadable(
                offset: frame.offset, line: nil, readableEvents: frame.firstOrdinal,
                text: "offset \(frame.offset): events frame \(frame.sequence) passes its CRC checks but does not decode; the other commands read the \(frame.firstOrdinal) events before it (event \(frame.firstOrdinal) onwards cannot be read)")
        }
        write(result, json: json, style: style, output: output)
        return result.exitCode
    }

    /// Checks a JSON Lines file: every line parses as an event of the schema and times never go backwards.
    static func verifyJSONL(_ input: TraceInput) throws -> VerifyResult {
        var result = VerifyResult(path: input.path, format: "jsonl")
        let stop = try input.scan(fromOffset: nil) { _, _, _ in
            result.events += 1
            return true
        }
        if let stop {
            let line = (stop.underlying as? JSONLError).map { UInt64($0.line) }
            result.jsonlProblem = stop.underlying
            result.unreadable = VerifyResult.Unreadable(
                offset: nil, line: line, readableEvents: stop.readableEvents,
                text: "\(stop.place); the other commands read the \(stop.readableEvents) events before it")
        }
        return result
    }

    /// Prints `result`: the report lines, or (`--format json`) one JSON object.
    static func write(_ result: VerifyResult, json: Bool, style: TerminalStyle, output: CommandOutput) {
        if json {
            output.line(result.json)
        } else {
            for line in result.textLines(style: style) { output.write(styled: line + "\n") }
        }
    }
}
