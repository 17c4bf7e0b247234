import ArgumentParsing
import Foundation
import Recorder
import TraceModel

/// `lifetrace record-stress TRACE --run R`: a hidden helper for the recorder's crash test. Records
/// `geometry.read` marks with `width` = the event's index in this run (0, 1, 2, …) and `height` = R into TRACE
/// (appending a run if it exists), flushes every `--batch` events (fsync every 8th flush) and, after each
/// flush returns, writes `flushed N` to standard error (unbuffered), N being the events flushed so far. The
/// test kills it with SIGKILL at random moments and checks that every reported event reads back.
struct RecordStressCommand: Command {
    static let spec = CommandSpec(
        name: "record-stress",
        abstract: "(test helper) Record numbered events until killed, reporting each flush on standard error.",
        usage: "TRACE --run R [--batch N] [--limit N] [--seconds S]",
        discussion: """
            Exit codes: 0 stopped at --limit or after --seconds (default 30); 2 usage error or the trace could
            not be opened for recording.
            """,
        options: [
            OptionSpec("run", value: "R", help: "Run number, recorded as every event's height."),
            OptionSpec("batch", value: "N", help: "Events between flushes (default 200)."),
            OptionSpec("limit", value: "N", help: "Stop after N events (default: no limit)."),
            OptionSpec("seconds", value: "S", help: "Stop after S seconds (default 30), so an orphan ends."),
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        func number(_ name: String, _ defaultValue: Int?) throws -> Int? {
            guard let text = arguments.value(name) else { return defaultValue }
            guard let value = Int(text), value > 0 || (name == "run" && value >= 0) else {
                throw ValidationError("--\(name): '\(text)' is not a positive number")
            }
            return value
        }
        guard let run = try number("run", nil) else { throw ValidationError("--run R is required") }
        let batch = try number("batch", 200) ?? 200
        let limit = try number("limit", nil)
        let seconds = try number("seconds", 30) ?? 30
        var options = RecorderOptions()
        options.processDescription = "record-stress[run \(run)]"
        let recorder = try Recorder(path: arguments.positionals[0], options: options)
        let controller = recorder.registry.register(typeName: "StressViewController")
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        var index = 0
        var flushes = 0
        while limit.map({ index < $0 }) ?? true, Date() < deadline {
            let end = limit.map { min(index + batch, $0) } ?? index + batch
            while index < end {
                recorder.geometryRead(width: Double(index), height: Double(run), controller: controller)
                index += 1
            }
            flushes += 1
            try recorder.flush(sync: flushes % 8 == 0)
            output.errorLine("flushed \(index)")
        }
        try recorder.close()
        output.errorLine("closed \(index)")
        return .success
    }
}
