import ArgumentParsing
import Audit
import TraceModel
import TraceViews

/// `lifetrace report [TRACE…] [-o FILE]`: one self-contained HTML page with lanes, findings and the replayed state at
/// any instant of one or more traces.
struct ReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Write a self-contained HTML report of traces: lanes, findings, and the state at any instant.",
        usage: "[TRACE…] [-o FILE] [--config FILE] [--no-findings] [--title TEXT] [--states N]",
        discussion: """
            One HTML file, with its CSS, JavaScript and data inside (it loads nothing from the network): a summary
            table of the traces (events, span, controllers, findings by severity); for the selected trace, a lane per
            controller in container-tree order with its appearance spans (cancelled ones hatched), its callbacks
            nested as they ran, its marks and container operations, and the findings as flags; the wheel zooms, a drag
            pans. Clicking the lanes or the axis shows the state at that instant, exactly as 'lifetrace state TRACE
            --at T' prints it (the replayer computes those texts; the page picks the one at or before the instant).
            The findings list (rule, severity, message, fix) jumps to a finding's time and highlights its related
            events; filters by controller and by rule.

            No TRACE: every *.lifetrace under traces/ (as 'lifetrace audit'); a directory: every *.lifetrace under it.
            Findings: the rules as 'lifetrace audit' runs them (--config FILE, or the nearest .lifetrace.json).
            Large traces: at most --states N instants (default \(ReportTraceBuilder.defaultStateLimit)) keep a state, evenly
            spread (the page says so and shows the state at the kept instant it uses), and at most
            \(ReportTraceBuilder.defaultItemLimit) callbacks, marks and operations per trace are drawn (docs/VIEWS.md).

            With -o the file is written next to FILE under a temporary name and renamed when complete; -o never
            replaces one of the traces.

            Examples:
              lifetrace report swipe.lifetrace -o swipe.html
              lifetrace report traces/ -o traces.html --title "CI run 1234"

            \(TraceInput.help)

            \(TraceInput.exitHelp) A bad configuration is exit 2.
            """,
        options: [
            OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE instead of standard output."),
            OptionSpec("config", value: "FILE", help: "Audit configuration, - for standard input (default: nearest .lifetrace.json upwards)."),
            OptionSpec("no-findings", help: "Leave the findings out (no audit runs)."),
            OptionSpec("title", value: "TEXT", help: "The page's title (default: Lifetrace report)."),
            OptionSpec("states", value: "N", help: "Most instants per trace that keep a state (default \(ReportTraceBuilder.defaultStateLimit))."),
        ],
        positionalCount: (0, nil)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let auditor = arguments.flag("no-findings") ? nil : try Auditor(configuration: AuditCommand.loadConfiguration(arguments.value("config")))
        var stateLimit = ReportTraceBuilder.defaultStateLimit
        if let text = arguments.value("states") {
            guard let value = Int(text), value >= 2 else { throw ValidationError("--states '\(text)' is not a whole number of 2 or more") }
            stateLimit = value
        }
        let paths = arguments.positionals.isEmpty ? try AuditCommand.defaultTraces() : try arguments.positionals.flatMap(AuditCommand.tracesIn)
        let outputPath = arguments.value("output")
        if let outputPath, outputPath != "-" {
            for path in paths where FilePaths.isSameFile(outputPath, path) {
                throw ValidationError("-o '\(outputPath)' is the trace \(path); choose another file")
            }
            if FilePaths.isDirectory(outputPath) { throw ValidationError("-o '\(outputPath)' is a directory; give a file name") }
            if let problem = FilePaths.unwritableDirectory(of: outputPath) { throw ValidationError("-o '\(outputPath)': \(problem)") }
        }
        var exit = ExitCode.success
        var reports: [ReportTrace] = []
        for path in paths {
            let input = try TraceInput(path: path)
            exit = TraceDamage.worse(exit, input.reportOpenProblems(command: "report", output: output))
            var builder = ReportTraceBuilder(path: path, header: try input.header(), auditor: auditor, stateLimit: stateLimit)
            let stop = try input.scan(fromOffset: nil) { ordinal, event, _ in
                builder.observe(event, ordinal: ordinal)
                return true
            }
            if let stop { exit = TraceDamage.worse(exit, stop.report(command: "report", output: output)) }
            reports.append(builder.finish())
        }
        let page = HTMLReport.render(reports, title: arguments.value("title") ?? "Lifetrace report")
        guard let outputPath, outputPath != "-" else {
            output.write(page)
            return exit
        }
        let file = try OutputFile(path: outputPath)
        file.removeStaleTemporaries(command: "report", output: output)
        do {
            try file.write(Array(page.utf8))
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
        let findings = reports.reduce(0) { $0 + $1.findings.count }
        let events = reports.reduce(0) { $0 + $1.eventCount }
        output.line("wrote \(outputPath.displayEscaped) (\(page.utf8.count) bytes): \(reports.count) trace\(reports.count == 1 ? "" : "s"), \(events) events, \(findings) findings")
        return exit
    }
}
