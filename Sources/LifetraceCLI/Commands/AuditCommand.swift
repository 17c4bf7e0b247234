import ArgumentParsing
import Audit
import Foundation
import TraceLog
import TraceModel

/// `lifetrace audit [TRACE…] [--config F] [--format text|json|ndjson|sarif|junit|github|markdown] [--strict] [-o FILE] [--jobs N]`
struct AuditCommand: Command {
    static let spec = CommandSpec(
        name: "audit",
        abstract: "Check traces against the lifecycle rules (see 'lifetrace rules').",
        usage: "[TRACE…] [--config FILE] [--format text|json|ndjson|sarif|junit|github|markdown] [--strict] [--category NAME] [-o FILE] [--jobs N] [--rules PATH]…",
        discussion: """
            With no TRACE, audits every *.lifetrace under traces/ (recursively); a TRACE that is a directory is
            searched the same way.
            Configuration: --config FILE, else the nearest .lifetrace.json from the current directory up
            (disabled_rules, opt_in_rules, inconclusive_severity, rules.<id>.{enabled,severity,<parameter>});
            see docs/RULES.md.
            Locations (SARIF, github, text) name files relative to the repository root (the nearest directory
            upwards holding .git; file:// URIs outside it): the recorded source of the event (the Swift line of a
            recorded mark, an imported console log's line), else the line of a JSON Lines input, else the trace
            file. Nothing is written beside a trace.
            Custom rules: every *.rule file of --rules PATH (a file or a directory; repeatable), else of the
            nearest lifetrace-rules/ directory upwards; they run, report and are configured like the built-in
            ones (docs/RULE_LANGUAGE.md). A bad rule file is exit 2, naming FILE:LINE:COLUMN.

            Examples:
              lifetrace audit
              lifetrace audit app.lifetrace --format sarif -o lifetrace.sarif
              lifetrace audit traces/ui-tests.lifetrace --strict --format github

            When GITHUB_STEP_SUMMARY is set (a GitHub Actions step), the report is also appended to that file as
            a Markdown job summary (as --format markdown writes it), unless the format is markdown already.

            Several traces are audited at the same time (--jobs N, default: one per active processor); the
            report and the messages are the same, in the same order, as auditing them one after another.

            A damaged trace (torn tail, or a corrupt frame in the middle) is audited up to the damage: a warning
            names the file, the byte offset and the events readable before it.

            A TRACE given by name may be a .lifetrace file or a JSON Lines export of one (recognised by its content).
            Findings in a .lifetrace are placed by event ordinal (FILE:event 77, the #77 of 'lifetrace events'); in a
            JSON Lines input by the line of the event (FILE:79), in every format. Directories are searched for
            *.lifetrace only.

            Exit 1 on an error-level finding (or a warning, with --strict) and on a damaged trace; 2 on a bad
            configuration; the rest as for every command ('lifetrace --help').
            """,
        options: [
            OptionSpec("config", value: "FILE", help: "Configuration file, - for standard input (default: nearest .lifetrace.json upwards)."),
            OptionSpec("format", value: "FORMAT", help: "text (default), json, ndjson (one record per line, docs/NDJSON.md), sarif, junit, github or markdown (a job summary)."),
            OptionSpec("strict", help: "Warnings fail the run too (exit 1)."),
            OptionSpec("category", value: "NAME", help: "SARIF automationDetails category, to keep several audits' alerts apart on GitHub."),
            OptionSpec("output", short: "o", value: "FILE", help: "Write the report to FILE instead of standard output (- for standard output)."),
            OptionSpec("jobs", short: "j", value: "N", help: "Audit up to N traces at a time (default: the number of active processors)."),
            CustomRules.option,
            ColorOption.spec,
        ],
        positionalCount: (0, nil)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let formatName = try arguments.choice("format", among: ReportFormat.allCases.map(\.rawValue), default: "text")
        let format = ReportFormat(rawValue: formatName)!
        output.isHumanReadable = format == .text
        let style = try ColorOption.style(arguments, output: output)
        let jobs = try jobCount(arguments.value("jobs"))
        let rules = BuiltinRules.all + (try CustomRules.load(arguments))
        let configuration = try loadConfiguration(arguments.value("config"), rules: rules)
        let auditor = try Auditor(configuration: configuration, rules: rules)
        let paths = arguments.positionals.isEmpty ? try defaultTraces() : try arguments.positionals.flatMap(tracesIn)
        // `-o -` is standard output, as for every command.
        let outputFile = arguments.value("output").flatMap { $0 == "-" ? nil : $0 }
        if let file = outputFile {
            for path in paths where FilePaths.isSameFile(file, path) {
                throw ValidationError("-o '\(file)' would overwrite the trace \(path); choose another file")
            }
            if FilePaths.isDirectory(file) {
                throw ValidationError("-o '\(file)' is a directory; give a file name")
            }
            if let problem = FilePaths.unwritableDirectory(of: file) {
                throw ValidationError("-o '\(file)': \(problem)")
            }
        }

        // NDJSON is written trace by trace, as each trace's audit ends (in the order of the traces); to a file,
        // it is collected and the file written whole at the end, as for the other formats.
        let streamed = StreamedLines()
        var stream: (@Sendable (TraceOutcome) -> Void)?
        if format == .ndjson {
            let toStandardOutput = outputFile == nil
            stream = { (outcome: TraceOutcome) in
                let lines = NDJSONReporter.lines(for: outcome.path, audit: outcome.audit, problems: outcome.problems)
                if toStandardOutput { output.write(lines) } else { streamed.append(lines) }
            }
        }
        let repository = FilePaths.repositoryPaths()
        let category = arguments.value("category")
        if let category, category.isEmpty || category.contains(where: { $0.isNewline }) {
            throw ValidationError("--category must be a non-empty name on one line")
        }
        let (audits, problems) = try auditAll(
            paths, jobs: jobs, auditor: auditor, paths: repository, sources: SourceFileIndex(root: repository.root), output: output,
            stream: stream, progress: paths.count > 1 ? ProgressLine(output: output, printsToStandardOutput: stream != nil && outputFile == nil) : nil)
        var report = AuditReport(
            traces: audits, rules: auditor.active.map(\.rule.descriptor), isStrict: arguments.flag("strict"), inputProblems: problems
        )
        report.category = category
        report.disabledRules = BuiltinRules.all.map(\.descriptor).filter { !configuration.isEnabled($0) }
        if format != .markdown, let summary = output.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            appendJobSummary(MarkdownReporter.render(report), to: summary, output: output)
        }
        let text = format == .ndjson ? streamed.text + NDJSONReporter.summaryLine(report) : format.render(report)
        if let file = outputFile {
            // Through OutputFile: written whole or not at all, and never renamed over a device or a symbolic link.
            do {
                let report = try OutputFile(path: file)
                report.removeStaleTemporaries(command: "audit", output: output)
                do {
                    try report.write(Array(text.utf8))
                    try report.commit()
                } catch {
                    report.discard()
                    throw error
                }
            } catch {
                output.errorLine("lifetrace audit: error: \(error)")
                return .usageOrInput
            }
            output.errorLine(TextReporter.summaryLine(report) + " → \(file)")
        } else {
            if format == .text, style.isEnabled {
                output.write(styled: TextReporter.render(report, style: style))
            } else {
                output.write(format == .ndjson ? NDJSONReporter.summaryLine(report) : text)
            }
        }
        if report.hasUnreadableInput { return .usageOrInput }
        return report.hasFailures || !problems.isEmpty ? .problemFound : .success
    }

    /// Appends `markdown` to the job summary file GitHub Actions names (`$GITHUB_STEP_SUMMARY`; the runner creates
    /// it, and every step's text is appended), never replacing what it holds. A failure is a warning: the report
    /// itself is still written.
    static func appendJobSummary(_ markdown: String, to path: String, output: CommandOutput) {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            output.errorLine("lifetrace audit: warning: cannot append the job summary to GITHUB_STEP_SUMMARY '\(path)': \(FilePaths.unreadableReason(path))")
            return
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(markdown.utf8))
        } catch {
            output.errorLine("lifetrace audit: warning: cannot append the job summary to GITHUB_STEP_SUMMARY '\(path)': \(error)")
        }
    }

    /// `--config FILE` (`-`: standard input, named `<stdin>` in errors), else the nearest `.lifetrace.json`, else
    /// the defaults.
    static func loadConfiguration(_ explicit: String?, rules: [Rule] = BuiltinRules.all) throws -> AuditConfiguration {
        if explicit == "-" {
            let name = ImportCommand.standardInputName
            let data: Data
            do {
                // One byte past the limit is enough for the configuration's size check to refuse it.
                data = try FileHandle.standardInput.read(upToCount: AuditConfiguration.maximumFileSize + 1) ?? Data()
            } catch {
                // Foundation wraps the read(2) error; its errno says why (a closed standard input: EBADF).
                let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
                let reason = posix.map { String(cString: strerror(Int32($0.code))) } ?? error.localizedDescription
                throw ConfigurationError(file: name, keyPath: "", message: "cannot read standard input: \(reason)")
            }
            return try AuditConfiguration(json: data, origin: name, rules: rules)
        }
        if let explicit {
            guard FileManager.default.fileExists(atPath: explicit) else {
                throw ValidationError("configuration file '\(explicit)' does not exist")
            }
            if let kind = FilePaths.specialInputKind(explicit) {
                throw FilePaths.SpecialInput(path: explicit, kind: kind)
            }
            return try AuditConfiguration.load(contentsOf: URL(fileURLWithPath: explicit), displayPath: explicit, rules: rules)
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        guard let found = AuditConfiguration.locate(from: cwd) else { return .default }
        return try AuditConfiguration.load(contentsOf: found, rules: rules)
    }

    /// Every `*.lifetrace` under `traces/`, sorted.
    static func defaultTraces() throws -> [String] {
        guard FilePaths.isDirectory("traces") else {
            throw ValidationError("no TRACE given and there is no traces/ directory here")
        }
        let found = lifetraceFiles(under: "traces")
        guard !found.isEmpty else {
            throw ValidationError("no TRACE given and no *.lifetrace file under traces/")
        }
        return found
    }

    /// `path` itself, or for a directory every *.lifetrace under it (recursively, sorted), as with no TRACE.
    static func tracesIn(_ path: String) throws -> [String] {
        guard FilePaths.isDirectory(path) else { return [path] }
        let found = lifetraceFiles(under: path)
        guard !found.isEmpty else { throw ValidationError("no *.lifetrace file under \(path)") }
        return found
    }

    private static func lifetraceFiles(under directory: String) -> [String] {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        // A directory given through a symbolic link (`dl -> traces`) is searched where the link leads (the
        // enumerator does not follow a link it starts at); the paths found keep the name given.
        let resolved = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        return (FileManager.default.enumerator(atPath: resolved)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".lifetrace") }
            .map { prefix + $0 }
            .sorted()
    }

    struct AuditInputError: Error {
        var message: String
        var partial: TraceAudit?
        /// Where the input stops being readable: a JSON Lines line, or a byte offset in a trace.
        var line: UInt64?
        var offset: UInt64?

        init(_ underlying: any Error, message: String? = nil, partial: TraceAudit?) {
            self.message = message ?? "\(underlying)"
            self.partial = partial
            if let error = underlying as? JSONLError, error.line > 0 { line = UInt64(error.line) }
            if let error = underlying as? TraceError { offset = error.offset }
        }
    }

    /// Audits a `.lifetrace` file on the replay's fast path, its rules split into `groups` groups run at the same
    /// time (`Auditor.audit(_:groups:)`; `nil`: the auditor's default): each frame is decoded by a `FrameCursor` in
    /// record batches and folded from its records, building an `Event` only for the kinds that have no record form
    /// (the findings are the same as from `AuditSession.observe(_:ordinal:)`).
    ///
    /// - Returns: The audit, and where reading stopped early (an events frame that does not decode) or `nil`.
    static func auditRecords(_ reader: TraceReader, _ auditor: Auditor, groups: Int?) -> (audit: FramesAudit, stop: TraceInput.Stop?) {
        let audit = auditor.audit(reader, groups: groups)
        guard let stop = audit.stop else { return (audit, nil) }
        if let error = stop.error as? TraceError { return (audit, TraceInput.stop(reader, error)) }
        // The replay counts what it observed, also the events before a bad one in a frame.
        return (audit, TraceInput.Stop(
            underlying: stop.error, readableEvents: audit.state.eventCount,
            place: "offset \(stop.frame.offset) (events frame \(stop.frame.sequence))"))
    }

    /// Audits any input event by event (a JSON Lines export); records each event's line in `lines`.
    static func auditEvents(
        _ input: TraceInput, _ session: AuditSession, lines: inout JSONLLineMap, count: inout UInt64, start: inout UInt64?
    ) throws -> TraceInput.Stop? {
        try input.scan(fromOffset: nil, lines: { lines.record(ordinal: $0, line: UInt64($1)) }) { ordinal, event, _ in
            if start == nil { start = event.timestamp }
            session.observe(event, ordinal: ordinal)
            count += 1
            return true
        }
    }

    /// Audits one trace (a `.lifetrace` or a JSON Lines export, `TraceInput`), streaming its events; locations are
    /// named by `paths`, recorded call sites (`#fileID`) resolved to committed files by `sources`; a `.lifetrace`'s
    /// rules run in `groups` groups at the same time (`auditRecords`; `nil`: the auditor's default).
    static func audit(
        _ path: String, auditor: Auditor, groups: Int? = nil, paths: RepositoryPaths, sources: SourceFileIndex,
        output: CommandOutput, problems: inout [InputProblem]
    ) throws -> TraceAudit {
        let input: TraceInput
        do {
            input = try TraceInput(path: path)
        } catch {
            throw AuditInputError(error, partial: nil)
        }
        if case .trace(let reader) = input.source {
            let prefix = "lifetrace audit: warning: "
            let warnings = TraceDamage.warnings(reader.problems, readableEvents: reader.eventCount, command: "audit", afterFooter: reader.hasFooter)
            for (line, problem) in zip(warnings, reader.problems) {  // one warning per problem, in order
                output.errorLine(line)
                let message = line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
                problems.append(InputProblem(path: path, severity: .warning, message: message, byteOffset: problem.offset))
            }
        }
        let clock = ContinuousClock()
        let began = clock.now
        var count: UInt64 = 0
        var start: UInt64?
        let stop: TraceInput.Stop?
        let findings: [Finding]
        let idleRules: [IdleRule]
        var lines = JSONLLineMap()
        if case .trace(let reader) = input.source {
            let audited = Self.auditRecords(reader, auditor, groups: groups)
            count = audited.audit.state.eventCount
            start = audited.audit.startTimestamp
            stop = audited.stop
            findings = audited.audit.findings
            idleRules = audited.audit.idleRules
        } else {
            let session = auditor.makeSession()
            stop = try auditEvents(input, session, lines: &lines, count: &count, start: &start)
            findings = session.finish()
            idleRules = session.idleRules
        }
        var jsonlPath: String?
        var lineMap: JSONLLineMap?
        if input.isJSONL {
            // Findings point at the input's own lines (every format: text and JUnit `FILE:LINE`, JSON `line`, SARIF,
            // GitHub), wherever blank lines (LF or CRLF) or a header put them.
            jsonlPath = path
            lineMap = lines
        }
        var audit = TraceAudit(path: path, eventCount: count, startTimestamp: start ?? 0, findings: findings, jsonlPath: jsonlPath)
            .resolvingSources(sources)
        audit.jsonlLineMap = lineMap
        audit.idleRules = idleRules
        audit.paths = paths
        let elapsed = clock.now - began
        audit.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        audit.identity = input.identity()
        if let stop {
            throw AuditInputError(stop.underlying, message: "\(stop)", partial: audit)
        }
        if count == 0 {
            // Not a problem of the input (exit 0; the summary counts it as audited), but no rule had anything to
            // check, which the summary's "0 events" hides among other traces; this note says so once, in place of a
            // list of every rule.
            audit.idleRules = []
            output.errorLine("lifetrace audit: note: \(input.noEventsText); no rule had anything to check")
        }
        return audit
    }
}
