import ArgumentParsing
import Replay
import TraceLog
import TraceModel

/// `lifetrace timeline TRACE`: one text lane per controller.
struct TimelineCommand: Command {
    static let spec = CommandSpec(
        name: "timeline",
        abstract: "Print a compact per-controller timeline of appearance states and marks.",
        usage: "TRACE [--width N] [--spans]",
        discussion: """
            One lane per controller, in order of first appearance; the trace's time span is spread over the
            columns. Symbols: # appeared, / appearing, \\ disappearing, . disappeared, ? unknown (a controller
            first seen mid-session), x deinit, ~ its process ended (a later recording run started: killed or
            crashed, never deinitialized; the lane closes there), ! a diagnostic; marks S save, E edit, T timer, O observer,
            R task/request, * other. A last lane shows the app state (A active, i inactive, B background).
            A trace without events (only its header) prints "no events: no timeline to show" and a note on
            standard error; exit 0.
            --spans adds, per controller, its exact spans and marks (with the callback each mark happened in).

            Examples:
              lifetrace timeline app.lifetrace
              lifetrace timeline app.lifetrace --spans

            \(TraceInput.help)

            \(TraceInput.exitHelp)
            """,
        options: [
            OptionSpec("width", value: "N", help: "Columns for the time axis (default 80, at least 10)."),
            OptionSpec("spans", help: "Also list each controller's spans and marks with exact times."),
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        var width = 80
        if let text = arguments.value("width") {
            guard let value = Int(text), value >= 10, value <= 10_000 else {
                throw ValidationError("--width must be a whole number from 10 to 10000; got '\(text)'")
            }
            width = value
        }
        output.isHumanReadable = true
        let input = try TraceInput(path: arguments.positionals[0])
        let damage = input.reportOpenProblems(command: "timeline", output: output)
        let (timeline, stop) = try input.timeline()
        if timeline.start == nil, stop == nil {
            output.errorLine("lifetrace timeline: note: \(input.noEventsText)")
            output.line("no events: no timeline to show")
            return damage
        }
        output.write(timeline.render(width: width))
        if arguments.flag("spans"), let start = timeline.start {
            func rel(_ time: UInt64) -> String { TimeText.seconds(time - min(time, start)) }
            for lane in timeline.lanes {
                output.line("")
                output.line(lane.controller.displayName)
                for span in lane.spans {
                    output.line("  \(rel(span.start)) – \(span.end.map(rel) ?? "end")  \(span.appearance.name)")
                }
                for mark in lane.marks {
                    let inside = mark.enclosingName.map { " in \($0)" } ?? ""
                    output.line("  \(rel(mark.time))  mark \(mark.name.displayEscaped)\(inside.displayEscaped)")
                }
                for diagnostic in lane.diagnostics {
                    output.line("  \(rel(diagnostic.time))  ! \(diagnostic.kind.name): \(diagnostic.message.displayEscaped)")
                }
                if let deinitTime = lane.deinitTime { output.line("  \(rel(deinitTime))  deinit") }
                if let end = lane.processEndTime { output.line("  \(rel(end))  process ended (a new run started; never deinitialized)") }
            }
        }
        guard let stop else { return damage }
        return TraceDamage.worse(damage, stop.report(command: "timeline", output: output))
    }
}
