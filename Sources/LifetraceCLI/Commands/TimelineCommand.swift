import ArgumentParsing
import Replay
import TraceLog
import TraceModel

/// `lifetrace timeline TRACE [--from T] [--to T] [--controller NAME] [--width N] [--spans] [--format text|json]`:
/// one text lane per controller.
struct TimelineCommand: Command {
    static let spec = CommandSpec(
        name: "timeline",
        abstract: "Print a compact per-controller timeline of appearance states and marks.",
        usage: "TRACE [--from T] [--to T] [--controller NAME] [--width N] [--spans] [--format text|json]",
        discussion: """
            One lane per controller, in order of first appearance; the trace's time span (or --from to --to) is
            spread over the columns. Symbols: # appeared, / appearing, \\ disappearing, . disappeared, ? unknown (a
            controller first seen mid-session), x deinit, ~ its process ended (a later recording run started: killed
            or crashed, never deinitialized; the lane closes there), ! a diagnostic; marks S save, E edit, T timer,
            O observer, R task/request, * other. A last lane shows the app state (A active, i inactive, B background).
            A trace without events (only its header) prints "no events: no timeline to show" and a note on
            standard error; exit 0.
            --spans adds, per controller, its exact spans and marks (with the callback each mark happened in).

            --from, --to and --controller select as for 'lifetrace events': times after the first event (both ends
            inclusive; the lanes of controllers alive then, their spans cut to the window), and controllers by
            display name (Editor#2) or type name, given more than once for several. A NAME that names no controller
            exactly matches the type names that start with it, else that contain it ignoring case (a note on
            standard error says which). No controller selected is a warning, exit 1.
            --format json prints one JSON object (docs/CLI.md "Machine formats") instead of the lanes: times in
            trace clock nanoseconds (t_ns, as in JSON Lines), and origin_ns, the first event's.

            Examples:
              lifetrace timeline app.lifetrace
              lifetrace timeline app.lifetrace --spans
              lifetrace timeline app.lifetrace --controller NoteEditor --from 5s --to 7s
              lifetrace timeline app.lifetrace --format json | jq '.lanes[].controller'

            \(TraceInput.help)

            \(TraceInput.exitHelp)
            """,
        options: [
            OptionSpec("from", value: "T", help: "Start of the window, after the first event (e.g. 1.5s)."),
            OptionSpec("to", value: "T", help: "End of the window, after the first event (inclusive)."),
            OptionSpec(
                "controller", value: "NAME", repeatable: true,
                help: "Only this controller's lane: display name (Editor#2) or type name (all instances); a prefix or part of one."),
            OptionSpec("width", value: "N", help: "Columns for the time axis (default 80, at least 10)."),
            OptionSpec("spans", help: "Also list each controller's spans and marks with exact times."),
            OptionSpec("format", value: "FORMAT", help: "text (default) or json."),
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
        let json = try arguments.choice("format", among: ["text", "json"], default: "text") == "json"
        if json, arguments.flag("spans") { throw ValidationError("--spans goes with the text format (the JSON has every span)") }
        let from = try arguments.value("from").map { try TimeOption.parse($0, option: "from") }
        let to = try arguments.value("to").map { try TimeOption.parse($0, option: "to") }
        if let from, let to, from > to {
            throw ValidationError("--from (\(TimeText.seconds(from))) is after --to (\(TimeText.seconds(to)))")
        }
        output.isHumanReadable = !json
        let input = try TraceInput(path: arguments.positionals[0])
        let damage = input.reportOpenProblems(command: "timeline", output: output)
        var (timeline, stop) = try input.timeline()
        let origin = timeline.start
        if timeline.start == nil, stop == nil {
            output.errorLine("lifetrace timeline: note: \(input.noEventsText)")
            if json {
                output.line(TimelineJSON.render(timeline, path: input.path, origin: nil))
            } else {
                output.line("no events: no timeline to show")
            }
            return damage
        }
        var status = damage
        let names = arguments.allValues("controller")
        if !names.isEmpty {
            let known = timeline.lanes.map(\.controller)
            var types: Set<String> = []
            var exact: [ControllerName] = []
            var missing: [String] = []
            for name in names {
                let controllerName = ControllerName(name)
                if known.contains(where: { controllerName.matches($0) }) {
                    exact.append(controllerName)
                } else if let loose = LooseControllerMatch.find(name, among: known) {
                    output.errorLine(loose.note(command: "timeline"))
                    types.formUnion(loose.types)
                } else {
                    missing.append(name)
                }
            }
            for name in missing {
                let hint = EventsCommand.nearestController(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                output.errorLine(
                    "lifetrace timeline: warning: no controller named '\(name)' in the trace\(hint); use a display name such as \(LooseControllerMatch.exampleName(among: known)), or a type name ('lifetrace state TRACE' lists them)")
            }
            timeline = timeline.keeping { lane in
                types.contains(lane.controller.typeName) || exact.contains { $0.matches(lane.controller) }
            }
            if timeline.lanes.isEmpty { status = TraceDamage.worse(status, .problemFound) }
        }
        if from != nil || to != nil, let origin {
            let lower = from.map { TraceInput.adding(origin, $0) } ?? 0
            let upper = to.map { TraceInput.adding(origin, $0) } ?? UInt64.max
            let selected = timeline.lanes.count
            timeline = timeline.clipped(from: lower, to: upper)
            if timeline.start == nil || (selected > 0 && timeline.lanes.isEmpty) {
                let window = ["from", "to"].compactMap { option in arguments.value(option).map { "--\(option) \($0)" } }
                output.errorLine("lifetrace timeline: warning: no controller in the trace's timeline within \(window.joined(separator: " "))")
                status = TraceDamage.worse(status, .problemFound)
            }
        }
        if json {
            output.line(TimelineJSON.render(timeline, path: input.path, origin: origin))
        } else if timeline.start != nil, names.isEmpty || !timeline.lanes.isEmpty {
            // Nothing when --controller selected no lane (as 'events' lists nothing): the warning says why.
            output.write(timeline.render(width: width, origin: origin))
        }
        if !json, arguments.flag("spans"), let start = origin {
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
        guard let stop else { return status }
        return TraceDamage.worse(status, stop.report(command: "timeline", output: output))
    }
}
