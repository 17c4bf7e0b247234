import ArgumentParsing
import Replay
import TraceLog
import TraceModel

/// `lifetrace state TRACE --at T`: the state of every controller at one instant.
struct StateCommand: Command {
    static let spec = CommandSpec(
        name: "state",
        abstract: "Show the state of the app and of every controller at an instant of a trace.",
        usage: "TRACE [--at T] [--format text|json]",
        discussion: """
            T is a duration from the trace's first event: 12.48s, 1500ms, 250us, 1500000000ns, 2m, or a bare
            number of seconds. Without --at, the state after the last event. The state covers every event whose
            time is at or before T; it is rebuilt from the nearest checkpoint before T, so only one checkpoint
            interval is decoded.

            text: a tree (window → containers → children, presented chains), then controllers whose place in the
            tree is unknown (imported console logs), dead controllers, in-flight transitions and diagnostics.
            json: one object, see docs/REPLAY.md ("t_ns", "app", "scenes", "controllers", "transitions",
            "diagnostics"); controller "name" is the same display name the events' "controller" field uses.

            Exit codes: 0 success; 1 the trace is damaged (a warning names the offset; the state covers the events
            before it); 2 usage error or unreadable trace (the error names the file and offset).
            """,
        options: [
            OptionSpec("at", value: "T", help: "Instant, relative to the first event (default: the end)."),
            OptionSpec("format", value: "FORMAT", help: "Output format: text (default) or json."),
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let format = try arguments.choice("format", among: ["text", "json"], default: "text")
        var offset: UInt64?
        if let text = arguments.value("at") {
            guard let parsed = TimeText.parseDuration(text) else {
                throw ValidationError("--at must be a duration such as 12.48s, 1500ms or 2m; got '\(text)'")
            }
            offset = parsed
        }
        let replayer = try Replayer(path: arguments.positionals[0])
        let start = replayer.reader.timeSpan?.lowerBound ?? 0
        let instant: UInt64
        if let offset {
            instant = UInt64.max - start < offset ? UInt64.max : start + offset
        } else {
            instant = replayer.reader.timeSpan?.upperBound ?? 0
        }
        let seek = try replayer.seek(to: instant)
        for skipped in seek.skippedCheckpoints {
            output.errorLine("lifetrace state: warning: skipped a bad checkpoint (\(skipped)); replayed from an earlier one")
        }
        if format == "json" {
            output.line(seek.state.json(at: instant, start: start))
        } else {
            let relative = instant == UInt64.max ? (replayer.reader.timeSpan.map { $0.upperBound - $0.lowerBound } ?? 0) : instant - start
            output.line("state at \(TimeText.seconds(relative)) (\(seek.state.eventCount) events; app \(seek.state.app.name)\(scenesText(seek.state)))")
            output.write(seek.state.tree(start: start))
        }
        return TraceDamage.report(replayer.reader, command: "state", output: output)
    }

    static func scenesText(_ state: ReplayState) -> String {
        guard !state.scenes.isEmpty else { return "" }
        return "; scenes " + state.scenes.keys.sorted().map { "\($0)=\(state.scenes[$0]!.name)" }.joined(separator: ", ")
    }
}
