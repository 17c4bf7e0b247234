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
            number of seconds. Without --at: the state after the last event. A T after the last event gives that
            same state, with a note on standard error saying where the trace ends; a T that reaches past the end
            of the trace clock (2^64 - 1 ns) is shown at that end, and the note says so. The state covers every
            event whose time is at or before T; it is rebuilt from the nearest checkpoint before T, so only one
            checkpoint interval is decoded. A trace without events (only its header) prints "no events: no state
            to show" (json: the empty state) and a note on standard error; exit 0.

            text: a tree (window → containers → children, presented chains), then controllers whose place in the
            tree is unknown (imported console logs), dead controllers (deinitialized), controllers that ended with
            their process (a later recording run started; never deinitialized), in-flight transitions and diagnostics.
            json: one object, see docs/REPLAY.md ("t_ns", "app", "scenes", "controllers", "transitions",
            "diagnostics"); controller "name" is the same display name the events' "controller" field uses, and
            "status" is alive, deinitialized or process_ended.

            A JSON Lines input is folded from its first line and read on to its end: a line after T that cannot be
            read is a warning naming FILE:LINE, exit 1 (the state is complete; a .lifetrace damaged after T warns
            when opened, the same way). A frame of a .lifetrace whose CRC holds but that does not decode is found
            only when the state needs it (the seek decodes one checkpoint interval; 'lifetrace verify' checks every
            frame).

            Examples:
              lifetrace state app.lifetrace --at 6s
              lifetrace state app.lifetrace --at 1500ms --format json

            \(TraceInput.help)

            \(TraceInput.exitHelp)
            """,
        options: [
            OptionSpec("at", value: "T", help: "Instant, relative to the first event (default: the end)."),
            OptionSpec("format", value: "FORMAT", help: "Output format: text (default) or json."),
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let format = try arguments.choice("format", among: ["text", "json"], default: "text")
        output.isHumanReadable = format == "text"
        let offset = try arguments.value("at").map { try TimeOption.parse($0, option: "at") }
        let input = try TraceInput(path: arguments.positionals[0])
        let damage = input.reportOpenProblems(command: "state", output: output)
        let found = try input.state(atOffset: offset)
        for skipped in found.skippedCheckpoints {
            output.errorLine("lifetrace state: warning: skipped a bad checkpoint (\(skipped)); replayed from an earlier one")
        }
        let state = found.state
        if found.hasNoEvents {
            // No instant to show a state at: text says so instead of "state at 0.000 s"; JSON stays the (empty)
            // state object scripts parse, with the same note.
            output.errorLine("lifetrace state: note: \(input.noEventsText)")
            if format == "json" {
                output.line(state.json(at: 0, start: 0))
            } else {
                output.line("no events: no state to show")
            }
            return damage
        }
        if let text = arguments.value("at"), found.stop == nil, let end = found.end, found.instant > end || found.isPastClockEnd {
            // Past the clock's end, the state is shown at that end (JSON's t_ns cannot go further), and the note
            // says so; a trace ending at the clock's very end gets the note too.
            let clamp = found.isPastClockEnd
                ? " and past the end of the trace clock (2^64 − 1 ns, \(TimeText.seconds(UInt64.max - found.start)) after the first event), where the state is shown"
                : ""
            output.errorLine(
                "lifetrace state: note: --at \(text) is after the last event (at \(TimeText.seconds(end - min(end, found.start))))\(clamp); "
                    + "this is the state after it")
        }
        if format == "json" {
            output.line(state.json(at: found.instant, start: found.start))
        } else {
            // The same instant as JSON's t_rel_ns: an --at past the clock's end reads as that end.
            let relative = found.instant - min(found.instant, found.start)
            output.line("state at \(TimeText.seconds(relative)) (\(state.eventCount) events; app \(state.app.name)\(scenesText(state)))")
            output.write(state.tree(start: found.start))
        }
        guard let stop = found.stop else { return damage }
        return TraceDamage.worse(damage, stop.report(command: "state", output: output))
    }

    static func scenesText(_ state: ReplayState) -> String {
        guard !state.scenes.isEmpty else { return "" }
        return "; scenes " + state.scenes.keys.sorted().map { "\($0.controlCharactersEscaped)=\(state.scenes[$0]!.name)" }.joined(separator: ", ")
    }
}
