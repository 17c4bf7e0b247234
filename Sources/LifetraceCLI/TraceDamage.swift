import TraceLog

/// How every command that reads a trace reports what opening it found: one warning line per problem on standard
/// error, and exit status 1.
///
/// A damaged trace (a torn tail, or a corrupt frame in the middle) reads as its longest valid prefix: the events
/// of the frames before the first damaged one (`TraceReader.frames`). Its warning names the file, the byte
/// offset of the damage and how many events were readable before it, e.g.
/// `lifetrace events: warning: /tmp/a.lifetrace: offset 40123: events frame 3: payload CRC mismatch (…); trace
/// damaged at offset 40123: using the 12288 readable events before it`.
enum TraceDamage {
    /// The warning lines for `problems` (those of `TraceReader.problems`), `readableEvents` being the events
    /// of the valid prefix.
    static func warnings(_ problems: [TraceError], readableEvents: UInt64, command: String, afterFooter: Bool = false) -> [String] {
        problems.map { problem in
            var line = "lifetrace \(command): warning: \(problem)"
            if afterFooter, problem.code == .tornTail {
                line += "; all \(readableEvents) events were read ('lifetrace verify --repair' cuts the junk)"
            } else if problem.code == .corruptFrame || problem.code == .tornTail, let offset = problem.offset {
                line += "; trace damaged at offset \(offset): using the \(readableEvents) readable events before it"
            }
            return line
        }
    }

    /// Prints the warnings for what opening `reader` found; returns `.problemFound` when there was anything,
    /// `.success` otherwise.
    @discardableResult
    static func report(_ reader: TraceReader, command: String, output: CommandOutput) -> ExitCode {
        report(reader.problems, readableEvents: reader.eventCount, command: command, output: output, afterFooter: reader.hasFooter)
    }

    /// Prints the warnings for `problems`; returns `.problemFound` when there are any, `.success` otherwise.
    @discardableResult
    static func report(
        _ problems: [TraceError], readableEvents: UInt64, command: String, output: CommandOutput, afterFooter: Bool = false
    ) -> ExitCode {
        for line in warnings(problems, readableEvents: readableEvents, command: command, afterFooter: afterFooter) {
            output.errorLine(line)
        }
        return problems.isEmpty ? .success : .problemFound
    }

    /// The worse of two exit statuses (2 over 1 over 0).
    static func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode {
        a.rawValue >= b.rawValue ? a : b
    }
}
