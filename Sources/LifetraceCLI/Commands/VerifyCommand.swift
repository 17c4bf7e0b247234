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

            Exit codes: 0 the file is sound (or was repaired to a sound file); 1 problems found; 2 usage
            error or unreadable file (the error names the file and the byte offset).
            """,
        options: [OptionSpec("repair", help: "Truncate a torn tail in place after saying what it drops.")],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let path = arguments.positionals[0]
        var reader = try TraceReader(path: path)
        var report = try reader.verify()
        if arguments.flag("repair"), let tail = report.tornTail {
            // Say "dropping" only for what was cut: the walk can see a torn tail where the file's own index
            // (which truncateTornTail trusts) lists a complete frame, and then nothing is cut.
            if let done = try TraceWriter.truncateTornTail(path: path) {
                output.line("repair: dropping \(done.droppedBytes) bytes at offset \(done.offset): \(tail.reason)")
                output.line("repair: \(path) now ends at offset \(done.offset)")
            } else {
                output.line("repair: nothing cut: the damage at offset \(tail.offset) is inside a frame the file's index lists, not a torn tail")
            }
            reader = try TraceReader(path: path)
            report = try reader.verify()
        }
        for problem in report.problems {
            output.line(problem.description)
        }
        // The verification's "cleanly closed" also needs the index to match the walk; a file with a footer whose
        // index disagrees is not one "with no valid footer".
        let closed = report.isCleanlyClosed ? "closed cleanly"
            : reader.hasFooter ? "footer present, but its index does not match the frames found"
            : "not closed cleanly (no valid footer)"
        let checked = "\(report.framesChecked) frames, \(report.eventsChecked) events, \(report.checkpointsChecked) checkpoints checked; \(closed)"
        if report.problems.isEmpty {
            output.line("ok: \(path): \(checked)")
            return .success
        }
        let plural = report.problems.count == 1 ? "problem" : "problems"
        output.line("FAILED: \(path): \(report.problems.count) \(plural); \(checked)")
        if report.tornTail != nil, !arguments.flag("repair") {
            output.line("hint: 'lifetrace verify --repair \(path)' cuts off the torn tail")
        }
        return .problemFound
    }
}
