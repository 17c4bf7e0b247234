import ArgumentParsing
import ConsoleImport
import Foundation
import Replay
import Simulator
import TraceLog
import TraceModel

#if canImport(Glibc)
import Glibc
#endif

/// `lifetrace import LOG [-o TRACE] [--format text|jsonl] [--process NAME|PID] [--mark 'SUBSTRING=MARK[,field=value…]']… [--strict]`
///
/// Reads a console log (`text`, see docs/IMPORT.md) or a JSONL export (`jsonl`, docs/JSONL.md) and writes a
/// `.lifetrace` trace. `LOG` `-` is standard input, copied to a file first (`StandardInputSpool`). The input is streamed: read in chunks, parsed line by line and written as it goes, so
/// memory does not grow with the log. The trace is written to a temporary file renamed over `TRACE` at the end,
/// so a failed import never damages an existing trace.
///
/// The output is reproducible: the trace id is derived from the input bytes and the options
/// (`ImportFingerprint`), the wall-clock anchor from the log's own times, and nothing depends on the time of
/// the import.
struct ImportCommand: Command {
    static let producer = "lifetrace-import \(Lifetrace.version)"
    /// How many skipped lines the summary shows.
    static let skippedLinesShown = 5

    static let spec = CommandSpec(
        name: "import",
        abstract: "Turn a console log (or a JSONL export) into a trace.",
        usage: "LOG [-o TRACE] [--format text|jsonl] [--process NAME|PID] [--mark SUBSTRING=MARK[,field=value…]]… [--strict]",
        discussion: """
            Text logs: each line with a lifecycle callback (viewDidLoad, viewWillAppear:, -[Class dealloc],
            Class.viewDidAppear(_:), sceneDidEnterBackground, ...) becomes an event for the controller named on
            the line. Lines that are neither a callback nor a --mark are skipped and listed (the first \(skippedLinesShown));
            --strict makes them an error. Times come from the lines (NSLog, time of day, ISO-8601, leading
            seconds); a log without times gets synthetic times 1 ms apart.

            --mark 'saveDraft=save,critical=true,key=draft' turns every line containing 'saveDraft' into a
            'save' mark, attributed to the controller named on the line, else to the latest callback's. Give
            --mark once per kind of line.

            The default format is jsonl for .jsonl/.ndjson files and for a file whose first line is a Lifetrace
            JSONL header ({"lifetrace": …}) or event (with "t_ns" and "event"), whatever its name; text
            otherwise. See docs/IMPORT.md.

            Lines longer than 64 KiB are cut (a warning names them), invalid UTF-8 is read as U+FFFD (a warning
            names the line). On a terminal, a progress line shows on standard error during long imports.
            A line starting with an impossible date or time (2024-13-45 10:00:00) is read without a time and
            named in a warning. When the process ID of an NSLog/os_log prefix (MyApp[1234:56789]) changes, a new
            run starts (the app was launched again). Printed objects (<MyApp.DetailViewController: 0x7fa1…>)
            with different addresses are different controllers.

            --process MyApp (a program name) or --process 1234 (a PID) imports only the lines of that process
            (a line without a prefix goes with the line before it). Without it, when the lines that give events
            come from two processes at once (two PIDs of one app alternating, or an extension's MyAppWidget[880:3]
            lines), the import says so on standard error, naming each process with its line count and first
            line: they are read as one history. A relaunch (one PID's lines, then another's) is two runs, not a mix.

            LOG '-' reads standard input, so a live console stream can be piped in (-o is then required):
            xcrun simctl spawn booted log stream --style compact | lifetrace import - -o session.lifetrace
            The input ends with the stream, or at Ctrl-C: what was read is imported. If the import fails, what
            was read is kept beside the trace (TRACE.stdin.log) and named; if the run is killed, the next
            import into the same trace keeps it so.

            Examples:
              lifetrace import console.log -o app.lifetrace
              lifetrace import console.log -o app.lifetrace --mark 'saveDraft=save,critical=true,key=draft'
              lifetrace import app.jsonl -o app.lifetrace

            Exit 2, with nothing written, on an empty or binary input, a --process no line is from (the error names
            the processes the log has), or (with --strict) an unreadable line or an invalid time.
            """,
        options: [
            OptionSpec("output", short: "o", value: "TRACE", help: "The trace to write (default: LOG with .lifetrace; required for -)."),
            OptionSpec("format", value: "FORMAT", help: "text or jsonl (default: jsonl for .jsonl/.ndjson or a JSONL export's content)."),
            OptionSpec("process", value: "NAME|PID", help: "Import only the lines of this process: a program name (MyApp) or a PID (1234)."),
            OptionSpec("mark", value: "RULE", repeatable: true, help: "SUBSTRING=MARK[,field=value...]: lines containing SUBSTRING become MARK marks."),
            OptionSpec("strict", help: "Fail on the first line that is neither a callback nor a mark, or has an invalid time."),
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let input = arguments.positionals[0]
        let fromStandardInput = input == "-"
        if !fromStandardInput, let kind = FilePaths.specialInputKind(input) {
            output.errorLine(
                "lifetrace import: error: \(input): \(FilePaths.specialInputMessage(kind)); or pipe the log in: COMMAND | lifetrace import - -o TRACE")
            return .usageOrInput
        }
        if fromStandardInput, arguments.value("output") == nil {
            throw ValidationError("reading the log from standard input (-) needs -o TRACE")
        }
        // Options are checked before standard input is read: a mistake in them must not cost the input.
        let givenFormat = arguments.value("format") == nil ? nil : try arguments.choice("format", among: ["text", "jsonl"], default: "text")
        let destination = arguments.value("output") ?? defaultOutput(for: input)
        var rules: [MarkRule] = []
        for spec in arguments.allValues("mark") {
            do {
                rules.append(try MarkRule(parsing: spec))
            } catch {
                throw ValidationError(error.message)
            }
            try checkStandardFields(spec, rules[rules.count - 1])
        }
        if givenFormat == "jsonl", !rules.isEmpty || arguments.flag("strict") {
            throw ValidationError("--mark and --strict apply to --format text only")
        }
        let process = try processSelector(arguments)
        if givenFormat == "jsonl", process != nil {
            throw ValidationError("--process applies to --format text only (a JSONL export holds one trace's events)")
        }
        let resolvedDestination = try FilePaths.traceDestination(destination)
        // Standard input cannot be read again: -o is checked before it is read, as export and audit check it. (A
        // file's own problems, a missing file, are named first, as before.)
        if fromStandardInput, FilePaths.isDirectory(resolvedDestination) {
            throw ValidationError("-o '\(destination)' is a directory; give a file name")
        }
        if fromStandardInput, let problem = FilePaths.unwritableDirectory(of: resolvedDestination) {
            throw ValidationError("-o '\(destination)': \(problem)")
        }
        let shownInput = fromStandardInput ? standardInputName : input
        var spool: StandardInputSpool?
        var readPath = input
        if fromStandardInput {
            if let problem = standardInputProblem(destination: resolvedDestination, shownAs: destination) {
                output.errorLine("lifetrace import: error: \(problem)")
                return .usageOrInput
            }
            guard let copy = spoolStandardInput(besides: resolvedDestination, givenFormat: givenFormat, output: output) else {
                return .usageOrInput
            }
            spool = copy
            readPath = copy.path
        }
        let exit: ExitCode
        do {
            exit = try importInput(
                readPath, shownAs: shownInput, fromStandardInput: fromStandardInput, givenFormat: givenFormat, rules: rules,
                process: process, destination: destination, resolvedDestination: resolvedDestination, arguments: arguments, output: output)
        } catch {
            spool.map { finish($0, succeeded: false, destination: resolvedDestination, output: output) }
            throw error
        }
        spool.map { finish($0, succeeded: exit == .success, destination: resolvedDestination, output: output) }
        return exit
    }

    /// Removes standard input's copy after a successful import, else keeps it (`StandardInputSpool.keep`) and
    /// says where: the input cannot be read a second time.
    static func finish(_ spool: StandardInputSpool, succeeded: Bool, destination: String, output: CommandOutput) {
        if succeeded || spool.byteCount == 0 {
            spool.remove()
            return
        }
        let kept = spool.keep(besides: destination) ?? spool.path
        if spool.stoppedEarly {
            output.errorLine(
                "lifetrace import: note: standard input was read no further than its first \(spool.byteCount) bytes (they show it cannot be imported); they are kept in \(kept.displayEscaped)")
        } else {
            output.errorLine("lifetrace import: note: what was read from standard input (\(spool.byteCount) bytes) is kept in \(kept.displayEscaped)")
        }
    }

    /// Why standard input cannot be imported into `destination` before anything is read from it: it is closed
    /// (`<&-`), a directory, or the very file `-o` names (`import - -o LOG < LOG` would replace the log with the
    /// trace: a file given by name is refused the same way). `nil` when it can be read.
    static func standardInputProblem(destination: String, shownAs shownDestination: String) -> String? {
        var input = stat()
        guard fstat(STDIN_FILENO, &input) == 0 else {
            return "\(standardInputName): standard input is closed (\(FilePaths.renameFailure(errno))): nothing to import; pipe the log in: COMMAND | lifetrace import - -o TRACE"
        }
        switch input.st_mode & S_IFMT {
        case S_IFDIR:
            return "\(standardInputName): standard input is a directory, not a log"
        case S_IFREG:
            var output = stat()
            if stat(destination, &output) == 0, output.st_dev == input.st_dev, output.st_ino == input.st_ino {
                return "\(shownDestination.displayEscaped): the output is the file on standard input; the trace would replace the log it is read from: choose another -o"
            }
            return nil
        default:
            return nil
        }
    }

    /// Copies standard input into a spool file beside `destination` (`StandardInputSpool`), with a progress line
    /// on a terminal and a note when Ctrl-C ended the input.
    ///
    /// Returns `nil` after printing the error when standard input cannot be read or the copy cannot be written
    /// (a full disk, `ulimit -f`); what was copied is then kept (`StandardInputSpool.keep`) and named in a note
    /// after the error. The error names the trace, not the copy's temporary name.
    /// - Parameter givenFormat: `--format`, when given: with the first 64 KiB of the input, it tells whether the
    ///   import will refuse the input (`InputFile.refusal`), and reading then stops there.
    static func spoolStandardInput(besides destination: String, givenFormat: String?, output: CommandOutput) -> StandardInputSpool? {
        // A killed run's copy of standard input is the only copy of that input: kept as TRACE.stdin.log, not removed.
        FilePaths.cleanUpStaleTemporaries(
            of: destination, "spooling", command: "import", output: output,
            keepingAs: { StandardInputSpool.keep($0, besides: destination) })
        let spool: StandardInputSpool
        do {
            spool = try StandardInputSpool(besides: destination)
        } catch {
            output.errorLine("lifetrace import: error: \(error)")
            return nil
        }
        if isatty(STDIN_FILENO) == 1 {
            output.errorLine("lifetrace import: reading the log from standard input (the terminal); end it with Ctrl-D")
        }
        // Not when standard input is the terminal too: the line would be redrawn over what is being typed.
        let progress = isatty(STDIN_FILENO) == 1 ? nil : SpoolProgress.forTerminal(output: output)
        do {
            let path = spool.path
            try spool.readAll(
                refuses: {
                    let format = givenFormat ?? (startsLikeExport(path) ? "jsonl" : "text")
                    return (try? InputFile.refusal(of: path, format: format, fromStandardInput: true)) != nil
                },
                progress: { progress?.update(bytes: $0) })
        } catch {
            progress?.clear()
            output.errorLine("lifetrace import: error: \(error)")
            finish(spool, succeeded: false, destination: destination, output: output)
            return nil
        }
        progress?.clear()
        if let signal = spool.endingSignal {
            let name = signal == SIGINT ? "Ctrl-C" : signal == SIGTERM ? "SIGTERM" : signal == SIGHUP ? "SIGHUP" : "signal \(signal)"
            output.errorLine("lifetrace import: note: \(name) ended the input after \(spool.byteCount) bytes; importing what was read")
        }
        return spool
    }

    /// Imports the log at `path` (a file, or standard input's copy) into `destination` and prints the report.
    static func importInput(
        _ path: String, shownAs input: String, fromStandardInput: Bool, givenFormat: String?, rules: [MarkRule],
        process: ProcessSelector? = nil, destination: String, resolvedDestination: String, arguments: ParsedArguments, output: CommandOutput
    ) throws -> ExitCode {
        let byExtension = !fromStandardInput && ["jsonl", "ndjson"].contains((path as NSString).pathExtension.lowercased())
        let format = givenFormat ?? (byExtension || Self.startsLikeExport(path) ? "jsonl" : "text")
        if format == "jsonl", !rules.isEmpty || arguments.flag("strict") {
            throw ValidationError("--mark and --strict apply to --format text only")
        }
        if format == "jsonl", process != nil {
            throw ValidationError("--process applies to --format text only (a JSONL export holds one trace's events)")
        }
        let request = ImportRequest(
            input: path, recordedPath: fromStandardInput ? input : FilePaths.repositoryPaths().input(input), format: format, rules: rules, strict: arguments.flag("strict"),
            process: process, destination: resolvedDestination)
        // Standard input's copy has a temporary name; messages name `<stdin>` instead.
        func shown(_ text: String) -> String {
            fromStandardInput ? text.replacingOccurrences(of: path, with: input) : text
        }
        let report: ImportReport
        do {
            if let problem = try InputFile.refusal(of: path, format: format, fromStandardInput: fromStandardInput) {
                output.errorLine("lifetrace import: error: \(input): \(problem)")
                return .usageOrInput
            }
            if !fromStandardInput, FilePaths.isSameFile(path, destination) {
                output.errorLine("lifetrace import: error: \(destination): the output is the input file \(path); choose another -o")
                return .usageOrInput
            }
            // Named before the temporary file beside the destination is created (its own error would name that file).
            if !fromStandardInput, let problem = FilePaths.unwritableDirectory(of: resolvedDestination) {
                output.errorLine("lifetrace import: error: -o '\(destination)': \(problem)")
                return .usageOrInput
            }
            FilePaths.cleanUpStaleTemporaries(of: request.destination, "importing", command: "import", output: output)
            if !fromStandardInput {
                // A killed `import -` into the same TRACE left the only copy of its input: kept as TRACE.stdin.log,
                // with a note, by a file import as by the next `import -` (docs/IMPORT.md).
                FilePaths.cleanUpStaleTemporaries(
                    of: request.destination, "spooling", command: "import", output: output,
                    keepingAs: { StandardInputSpool.keep($0, besides: request.destination) })
            }
            report = try importFile(request, progress: ImportProgress.forTerminal(input: path, shownAs: input, output: output))
        } catch let error as ConsoleImportError {
            output.errorLine("lifetrace import: error: \(printable(shown("\(error)"), limit: 400))")
            return .usageOrInput
        } catch let error as JSONLError {
            output.errorLine("lifetrace import: error: \(shown("\(error)"))")
            return .usageOrInput
        } catch let error as ImportInputError {
            output.errorLine("lifetrace import: error: \(shown("\(error)"))")
            return .usageOrInput
        }
        for line in report.warnings { output.errorLine("\(input):\(line)") }
        output.isHumanReadable = true
        output.line("imported \(report.eventCount) events from \(input.displayEscaped) into \(destination.displayEscaped)")
        if let nothingFound = report.nothingFound {
            output.errorLine("lifetrace import: warning: \(input): \(nothingFound)")
        }
        for line in report.summary { output.line("  \(line.displayEscaped)") }
        for line in report.notes { output.errorLine(line.displayEscaped) }
        return .success
    }

    /// Whether the first non-blank line of `path` is a Lifetrace JSON Lines header or event: an export renamed
    /// (for example `session.txt`) is imported as JSON Lines, not as a console log. A console log whose lines are
    /// JSON of another shape stays text.
    static func startsLikeExport(_ path: String) -> Bool {
        guard TraceInput.looksLikeJSONL(path), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: 4096) else { return false }
        let text = String(decoding: prefix, as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return false }
        let compact = line.filter { !$0.isWhitespace }
        return compact.hasPrefix("{\"lifetrace\":") || (compact.contains("\"t_ns\":") && compact.contains("\"event\":"))
    }

    /// What to import and where.
    struct ImportRequest {
        /// The file to read.
        var input: String
        /// The path recorded as each event's source file (`input`, or as a script names it).
        var recordedPath: String
        /// `text` or `jsonl`.
        var format: String
        var rules: [MarkRule] = []
        var strict = false
        /// `--process`: only that process's lines are read.
        var process: ProcessSelector?
        /// The trace to write (through `destination.importing-PID-RANDOM`, renamed at the end).
        var destination: String
    }

    /// What an import did, for the command's output.
    struct ImportReport {
        var eventCount: UInt64 = 0
        /// `LINE: warning: …` lines for standard error (the command prefixes the input's path).
        var warnings: [String] = []
        /// Summary lines for standard output.
        var summary: [String] = []
        /// Passes over the input (2 when a text log had to be read again; see `ConsoleLogSession`).
        var passes = 1
        /// For a text log without any event: why, for a warning.
        var nothingFound: String?
        /// `lifetrace import: note: …` lines for standard error, after the summary (processes mixed in the log).
        var notes: [String] = []
    }

    /// Reads `request.input` in chunks, parses it and writes the trace as it goes: memory is bounded by what
    /// the parser keeps live (controllers, a few held events), not by the log's length. The trace is written
    /// to `destination.importing-PID-RANDOM` (`FilePaths.temporarySibling`) and renamed over `destination` only
    /// when everything succeeded.
    ///
    /// - Throws: `ConsoleImportError` (strict mode), `JSONLError`, `ImportInputError` (unreadable input, no
    ///   lifecycle line), `TraceError` (cannot write the trace), `ImportWriteError` (cannot rename it).
    static func importFile(_ request: ImportRequest, progress: ImportProgress? = nil) throws -> ImportReport {
        let temporary = FilePaths.temporarySibling(of: request.destination, "importing")
        do {
            let report = request.format == "jsonl"
                ? try importJSONL(request, to: temporary, progress: progress)
                : try importText(request, to: temporary, progress: progress)
            // rename(2) replaces the destination atomically.
            switch FilePaths.replaceTrace(at: request.destination, with: temporary) {
            case .replaced:
                break
            case .renameFailed(let code):
                throw ImportWriteError(message: "\(request.destination): cannot move the new trace into place: \(FilePaths.renameFailure(code))")
            case .busy:
                throw ImportWriteError(message: FilePaths.busyDestinationMessage(request.destination))
            }
            return report
        } catch {
            progress?.clear()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// `text` safe to echo to a terminal: control characters (escape sequences in a log, bytes of a binary
    /// file) become `\u{XX}`, and anything past `limit` characters becomes `…`.
    static func printable(_ text: String, limit: Int) -> String {
        var result = ""
        for character in text.prefix(limit) {
            if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) {
                result += character.unicodeScalars.map { "\\u{\(String($0.value, radix: 16))}" }.joined()
            } else {
                result.append(character)
            }
        }
        return text.count > limit ? result + "…" : result
    }

    static func defaultOutput(for input: String) -> String {
        let base = (input as NSString).deletingPathExtension
        return (base.isEmpty ? input : base) + ".lifetrace"
    }

    /// How many lines with invalid UTF-8 or cut short are named one by one in the warnings.
    static let lineProblemsShown = 5

    /// The trace writer's settings for a text log: zlib level 1. Each event keeps its raw line, so the lines are
    /// most of what is compressed; level 1 compresses them about 2.5 times faster than the default 6, for a trace
    /// about a fifth larger (docs/IMPORT.md, "Cost"). Any level reads the same (docs/FORMAT.md).
    static var textWriterOptions: TraceWriter.Options {
        var options = TraceWriter.Options()
        options.compressionLevel = 1
        return options
    }

    /// Bytes of a text log read per batch of lines: about 2 500 lines, which bounds the lines in flight between
    /// the two stages of `importText`.
    static let textChunkSize = 256 << 10

    /// The lines read from one chunk of a text log, and how far the input was read then (for progress).
    struct LineBatch {
        var lines: [ConsoleLine] = []
        var bytesRead: UInt64 = 0
        var lineCount = 0
    }

    /// Streams a text log into a trace at `temporary`: chunks → lines → `ConsoleLine`s → `ConsoleLogSession` →
    /// trace writer, the first two stages overlapped with the last two (`TwoStagePipeline`).
    /// The header's fields known only at the end (trace id over the whole input, clock, synthetic times) are set
    /// by rewriting the header in place after `close()`. When the session asks for a restart (untimed lines
    /// before the first timed one, too many to hold), the log is read a second time with the leading time known.
    static func importText(_ request: ImportRequest, to temporary: String, progress: ImportProgress?) throws -> ImportReport {
        let parser = ConsoleLogParser(
            markRules: request.rules, isStrict: request.strict, sourceFile: request.recordedPath, process: request.process)
        var leadingTime = ConsoleLogSession.LeadingTime.unknown
        var passes = 1
        while true {
            let provisional = header(clock: .synthetic, hasSyntheticTimes: false, traceID: [UInt8](repeating: 0, count: 16))
            let writer = CheckpointingWriter(writer: try TraceWriter(creating: temporary, header: provisional, options: textWriterOptions))
            var session = ConsoleLogSession(parser: parser, leadingTime: leadingTime, limits: .streaming)
            var splitter = LogLineSplitter()
            var hasher = ImportFingerprint.Hasher()
            var problems = LineProblems()
            let file = try InputFile(path: request.input)
            defer { file.close() }
            var bytesRead: UInt64 = 0
            var reachedEnd = false
            // Reading lines (splitting, decoding, `ConsoleLine`) and taking them (the session, the writer) cost
            // about the same, so they overlap: one chunk's lines are read while the previous chunk's are taken.
            try TwoStagePipeline.run(
                produce: { () throws -> LineBatch? in
                    guard !reachedEnd else { return nil }
                    var batch = LineBatch()
                    batch.lines.reserveCapacity(textChunkSize / 64)
                    func add(_ line: LogLine) {
                        let (text, isValid) = line.decoded()
                        problems.note(line, isValidUTF8: isValid)
                        batch.lines.append(ConsoleLine(text, number: line.number, parser: parser))
                    }
                    if let chunk = try file.next(maximum: textChunkSize) {
                        hasher.add(chunk)
                        bytesRead += UInt64(chunk.count)
                        splitter.split(chunk, add)
                    } else {
                        splitter.finish(add)
                        reachedEnd = true
                    }
                    batch.bytesRead = bytesRead
                    batch.lineCount = splitter.lineCount
                    return batch
                },
                consume: { batch in
                    for line in batch.lines { try session.read(line) }
                    if session.needsRestart {
                        if session.restartLeadingTime != nil { return false }
                    } else if session.readyCount > 0 {
                        // One event at a time: `append(contentsOf:)` is generic across modules, and its unspecialized
                        // loop cost more per event than writing it.
                        for event in session.takeEvents() { try writer.append(event) }
                    }
                    progress?.update(bytes: batch.bytesRead, lines: batch.lineCount, events: writer.writer.eventCount)
                    return true
                })
            let result = session.finish(lineCount: splitter.lineCount)
            if session.needsRestart {
                try? writer.close()
                leadingTime = .known(session.restartLeadingTime ?? 0)
                passes += 1
                continue
            }
            if let selector = request.process, let problem = unknownProcessMessage(selector, result) {
                try? writer.close()
                throw ImportInputError(message: "\(request.recordedPath): \(problem)")
            }
            for event in result.events { try writer.append(event) }
            let eventCount = writer.writer.eventCount
            try writer.close()
            progress?.clear()
            // `process=` only when given, so the id of an import without it is what it always was.
            let fingerprintOptions = ["format=text"] + request.rules.map { "mark=\($0.specText)" }
                + (request.process.map { ["process=\($0.text)"] } ?? [])
            let final = header(
                clock: result.clock, hasSyntheticTimes: result.hasSyntheticTimes, traceID: hasher.traceID(options: fingerprintOptions))
            try TraceWriter.rewriteHeader(of: temporary, with: final)
            var report = summarize(result)
            report.summary += processSummary(request.process, result)
            report.notes = mixedProcessesNote(request.process, result, input: request.recordedPath)
            report.warnings = problems.warnings + report.warnings
            report.summary += problems.summary
            report.eventCount = eventCount
            report.passes = passes
            if eventCount == 0 { report.nothingFound = noEventsMessage(lines: splitter.lineCount, problems: problems) }
            return report
        }
    }

    /// Why a log gave no event, for the warning.
    static func noEventsMessage(lines: Int, problems: LineProblems) -> String {
        if problems.invalidUTF8Count * 2 > lines {
            return "no line is a lifecycle callback or a mark, and \(problems.invalidUTF8Count) of its \(lines) lines are not valid UTF-8: binary data rather than the console output of an app?"
        }
        return "no line is a lifecycle callback or a mark; is it the console output of an app (see docs/IMPORT.md)?"
    }

    /// Lines with invalid UTF-8 or cut to `LogLineSplitter.defaultMaximumLineBytes`, for warnings.
    struct LineProblems {
        var invalidUTF8Count = 0
        var cutCount = 0
        var warnings: [String] = []

        mutating func note(_ line: LogLine, isValidUTF8: Bool) {
            if !isValidUTF8 {
                invalidUTF8Count += 1
                if invalidUTF8Count <= lineProblemsShown {
                    warnings.append("\(line.number): warning: invalid UTF-8; read with U+FFFD in place of the bad bytes")
                }
            }
            if line.isCut {
                cutCount += 1
                if cutCount <= lineProblemsShown {
                    warnings.append("\(line.number): warning: line of \(line.length) bytes; only its first \(line.bytes.count) are read")
                }
            }
        }

        var summary: [String] {
            var lines: [String] = []
            if invalidUTF8Count > lineProblemsShown { lines.append("\(invalidUTF8Count) lines with invalid UTF-8 (first \(lineProblemsShown) named on standard error)") }
            if cutCount > lineProblemsShown { lines.append("\(cutCount) lines cut to \(LogLineSplitter.defaultMaximumLineBytes) bytes (first \(lineProblemsShown) named on standard error)") }
            return lines
        }
    }

    /// The summary and warnings of a text import.
    static func summarize(_ result: ConsoleImportResult) -> ImportReport {
        var report = ImportReport()
        let count = result.controllerCount
        // Names are kept whole in the trace (any script, emoji, format characters) and escaped only here.
        let listed = result.controllers.prefix(controllersListed).map(\.displayName.displayEscaped).joined(separator: ", ")
        report.summary.append(
            "\(count) controller\(count == 1 ? "" : "s")"
                + (count == 0 ? "" : ": " + listed)
                + (count > controllersListed ? ", … (\(count - controllersListed) more)" : ""))
        if result.anonymousLineCount > 0 {
            let count = result.anonymousLineCount
            let lines = result.anonymousLines.prefix(skippedLinesShown).map(String.init).joined(separator: ", ")
            report.summary.append(
                "\(count) line\(count == 1 ? " names" : "s name") no controller (line\(count == 1 ? "" : "s") \(lines)"
                    + (count > skippedLinesShown ? ", …" : "") + "): read as one controller, \(ConsoleLogParser.anonymousTypeName); the log cannot tell "
                    + (count == 1 ? "it from another" : "their controllers apart"))
        }
        for repeated in result.repeatedLoads.prefix(skippedLinesShown) {
            if let previous = repeated.previous {
                report.summary.append(
                    "\(repeated.controller.displayName.displayEscaped): viewDidLoad at line \(repeated.line), after \(previous.displayName.displayEscaped) "
                        + "(viewDidLoad at line \(repeated.firstLine)) had disappeared: read as a new instance, since UIKit does not load a view twice (the log prints no address or label)")
                continue
            }
            report.summary.append(
                "\(repeated.controller.displayName.displayEscaped): viewDidLoad at line \(repeated.firstLine) and again at line \(repeated.line), "
                    + "with no deinit or viewDidUnload between: one instance loaded twice, or two the log does not tell apart (it prints no address or label)")
        }
        if result.repeatedLoadCount > skippedLinesShown {
            report.summary.append("and \(result.repeatedLoadCount - skippedLinesShown) more repeated viewDidLoad lines (not listed)")
        }
        report.summary.append("times: \(describe(result.clock))")
        if result.hasSyntheticTimes, result.clock != .synthetic {
            report.summary.append("\(result.untimedLineCount) line(s) without a time took the previous line's time")
        }
        for adjustment in result.timeAdjustments {
            report.warnings.append("\(adjustment.line): warning: \(adjustment.description.dropFirst("line \(adjustment.line): ".count))")
        }
        if result.timeAdjustmentCount > result.timeAdjustments.count {
            report.warnings.append(
                "\(result.timeAdjustments.last?.line ?? 0): warning: and \(result.timeAdjustmentCount - result.timeAdjustments.count) more places where the time went back (not listed)")
        }
        for invalid in result.invalidTimes {
            report.warnings.append("\(invalid.line): warning: \(invalid.description.dropFirst("line \(invalid.line): ".count))")
        }
        if result.invalidTimeCount > result.invalidTimes.count {
            report.warnings.append(
                "\(result.invalidTimes.last?.line ?? 0): warning: and \(result.invalidTimeCount - result.invalidTimes.count) more lines with an invalid time (not listed)")
        }
        if result.runStartCount > 0 {
            let listed = result.processes.prefix(controllersListed).joined(separator: ", ")
            report.summary.append(
                "\(result.runStartCount + 1) runs (the process ID changed \(result.runStartCount) time\(result.runStartCount == 1 ? "" : "s")): \(listed)"
                    + (result.processes.count > controllersListed ? ", …" : ""))
        }
        if result.skippedLineCount > 0 {
            let count = result.skippedLineCount
            report.summary.append(
                "skipped \(count) line\(count == 1 ? "" : "s") with no callback or mark"
                    + (count > skippedLinesShown ? " (first \(skippedLinesShown) shown)" : "") + ":")
            for skipped in result.skippedLines.prefix(skippedLinesShown) {
                report.summary.append("  line \(skipped.line): \(printable(skipped.text, limit: 160))")
            }
            let suggestions = MarkSuggestion.suggestions(for: result.skippedLines.map { ($0.line, $0.text) })
            if !suggestions.isEmpty {
                report.summary.append("skipped lines that look like the app's own work (saves, edits, timers, requests) are audited once they are marks; import again with:")
                report.summary += suggestions.map(\.summaryLine)
            }
        }
        return report
    }

    /// How many controller names the summary lists.
    static let controllersListed = 50

    static func header(clock: ImportedClock, hasSyntheticTimes: Bool, traceID: [UInt8]) -> TraceHeader {
        let anchor: Int64
        switch clock {
        case .wallClock(let start, _): anchor = start
        case .timeOfDay(let start): anchor = start
        case .seconds, .synthetic: anchor = 0
        }
        return TraceHeader(
            clockDomain: clock == .synthetic ? .synthetic : .unknown,
            wallClockAnchor: WallClockAnchor(unixNanoseconds: anchor, monotonicNanoseconds: 0),
            producer: producer,
            hasSyntheticTimes: hasSyntheticTimes,
            traceID: traceID)
    }
    static func describe(_ clock: ImportedClock) -> String {
        switch clock {
        case .wallClock(let start, let hasOffset):
            // A time with an offset (`Z`, `+0100`) is an instant, shown in UTC; one without is the clock time as
            // written, in whatever zone the device was in, so it gets no `Z`.
            let text = utcText(start)
            return hasOffset
                ? "dates, 0 s = \(text) (UTC; the log gives UTC offsets)"
                : "dates, 0 s = \(text.dropLast()) as written (no UTC offset in the log: the device's local time, zone unknown)"
        case .timeOfDay: return "times of day, 0 s = the first timed line (rolls over at midnight)"
        case .seconds: return "seconds as printed"
        case .synthetic: return "none in the log: synthetic, \(TimeText.duration(ConsoleLogParser.syntheticStep)) apart"
        }
    }

    /// `2025-03-14T08:12:00.000114Z` for nanoseconds since 1970 (microsecond precision, as NSLog prints).
    static func utcText(_ nanoseconds: Int64) -> String {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        let micros = (nanoseconds - seconds * 1_000_000_000) / 1_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's civil-from-days.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2))"
            + ":\(pad(secondOfDay % 60, 2)).\(pad(micros, 6))Z"
    }

    /// Streams a JSONL export into a trace at `temporary`. The header line's members are kept as written (trace
    /// id and producer included, so export → import → export gives the same bytes); a member the file does not
    /// give takes the default of an import: the trace id hashes the file (read once more for that), the producer
    /// is this importer (docs/JSONL.md, "Header").
    static func importJSONL(_ request: ImportRequest, to temporary: String, progress: ImportProgress?) throws -> ImportReport {
        var reader = try JSONLReader(path: request.input)
        let given = reader.headerMemberNames
        var header = TraceHeader(
            clockDomain: .unknown, wallClockAnchor: WallClockAnchor(unixNanoseconds: 0, monotonicNanoseconds: 0),
            producer: producer, hasSyntheticTimes: false, traceID: [])
        if let exported = reader.header {
            header.clockDomain = exported.clockDomain
            header.wallClockAnchor = exported.wallClockAnchor
            header.hasSyntheticTimes = exported.hasSyntheticTimes
            if given.contains(JSONLSchema.HeaderKey.producer) { header.producer = exported.producer }
            if given.contains(JSONLSchema.HeaderKey.traceID) { header.traceID = exported.traceID }
        }
        if header.traceID.isEmpty {
            var hasher = ImportFingerprint.Hasher()
            let file = try InputFile(path: request.input)
            while let chunk = try file.next() { hasher.add(chunk) }
            file.close()
            header.traceID = hasher.traceID(options: ["format=jsonl"])
        }
        let writer = CheckpointingWriter(writer: try TraceWriter(creating: temporary, header: header))
        var controllers = Set<ControllerRef>()
        var batch: [Event] = []
        batch.reserveCapacity(4096)
        do {
            while let event = try reader.next() {
                controllers.formUnion(event.controllers)
                batch.append(event)
                if batch.count == 4096 {
                    try writer.append(contentsOf: batch)
                    batch.removeAll(keepingCapacity: true)
                    progress?.update(bytes: nil, lines: reader.lineNumber, events: writer.writer.eventCount)
                }
            }
            try writer.append(contentsOf: batch)
        } catch {
            try? writer.close()
            throw error
        }
        var report = ImportReport()
        report.eventCount = writer.writer.eventCount
        try writer.close()
        progress?.clear()
        report.summary.append("\(controllers.count) controller\(controllers.count == 1 ? "" : "s")")
        return report
    }
}

extension ImportCommand {
    /// Holds a `--mark` rule to what the scenario language asks of the same mark (`ScenarioParser.checkedFields`):
    /// a standard mark takes exactly its fields, with values of their type (`save,critical=maybe` would otherwise
    /// read as a non-critical save), and a near miss of a standard name carrying one of its fields
    /// (`edti,key=draft`) is a typo, not a custom mark. Custom marks take any fields.
    ///
    /// - Throws: `ValidationError` quoting the rule and saying what is wrong, with a "did you mean" when close.
    static func checkStandardFields(_ spec: String, _ rule: MarkRule) throws {
        guard let equals = spec.firstIndex(of: "=") else { return }
        let words = spec[spec.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).dropFirst().map(String.init)
        do {
            _ = try ScenarioParser.checkedFields(ArraySlice(words), mark: rule.name, line: 0)
        } catch let error as ScenarioError {
            throw ValidationError("--mark '\(spec)': \(error.message)")
        }
    }
}

extension MarkRule {
    /// The rule written back as `SUBSTRING=MARK[,field=value…]`.
    var specText: String {
        ([substring + "=" + name] + fields.map { "\($0.name)=\($0.value)" }).joined(separator: ",")
    }
}

/// The trace could not be put in place.
struct ImportWriteError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
