import ArgumentParsing
import ConsoleImport
import Foundation
import Replay
import TraceLog
import TraceModel

/// `lifetrace import LOG [-o TRACE] [--format text|jsonl] [--mark 'SUBSTRING=MARK[,field=value…]']… [--strict]`
///
/// Reads a console log (`text`, see docs/IMPORT.md) or a JSONL export (`jsonl`, docs/JSONL.md) and writes a
/// `.lifetrace` trace. The whole input is parsed before anything is written, and the trace is written to a
/// temporary file renamed over `TRACE` at the end, so a failed import never damages an existing trace.
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
        usage: "<log> [-o <trace>] [--format text|jsonl] [--mark SUBSTRING=MARK[,field=value...]]... [--strict]",
        discussion: """
            Text logs: each line with a lifecycle callback (viewDidLoad, viewWillAppear:, -[Class dealloc],
            Class.viewDidAppear(_:), sceneDidEnterBackground, ...) becomes an event for the controller named on
            the line. Lines that are neither a callback nor a --mark are skipped and listed (the first \(skippedLinesShown));
            --strict makes them an error. Times come from the lines (NSLog, time of day, ISO-8601, leading
            seconds); a log without times gets synthetic times 1 ms apart.

            --mark 'saveDraft=save,critical=true,key=draft' turns every line containing 'saveDraft' into a
            'save' mark, attributed to the controller named on the line, else to the latest callback's.

            The default format is jsonl for .jsonl/.ndjson files, text otherwise. See docs/IMPORT.md.
            Exit codes: 0 imported; 2 bad arguments, unreadable input, or (with --strict) an unreadable line.
            """,
        options: [
            OptionSpec("output", short: "o", value: "TRACE", help: "The trace to write (default: LOG with .lifetrace)."),
            OptionSpec("format", value: "FORMAT", help: "text or jsonl (default: from the extension)."),
            OptionSpec("mark", value: "RULE", repeatable: true, help: "SUBSTRING=MARK[,field=value...]: lines to mark."),
            OptionSpec("strict", help: "Fail on the first line that is neither a callback nor a mark."),
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let input = arguments.positionals[0]
        let defaultFormat = ["jsonl", "ndjson"].contains((input as NSString).pathExtension.lowercased()) ? "jsonl" : "text"
        let format = try arguments.choice("format", among: ["text", "jsonl"], default: defaultFormat)
        let destination = arguments.value("output") ?? defaultOutput(for: input)
        var rules: [MarkRule] = []
        for spec in arguments.allValues("mark") {
            do {
                rules.append(try MarkRule(parsing: spec))
            } catch {
                throw ValidationError(error.message)
            }
        }
        if format == "jsonl", !rules.isEmpty || arguments.flag("strict") {
            throw ValidationError("--mark and --strict apply to --format text only")
        }
        guard let data = FileManager.default.contents(atPath: input) else {
            output.errorLine("lifetrace import: error: \(input): cannot read the file")
            return .usageOrInput
        }
        if data.starts(with: TraceHeader.magic) {
            output.errorLine("lifetrace import: error: \(input): offset 0: already a Lifetrace trace, not a console log or JSONL export (to get JSONL: lifetrace export \(input) -o FILE.jsonl)")
            return .usageOrInput
        }
        if FilePaths.isSameFile(input, destination) {
            output.errorLine("lifetrace import: error: \(destination): the output is the input file \(input); choose another -o")
            return .usageOrInput
        }
        let imported: ImportedTrace
        do {
            imported = try makeTrace(bytes: [UInt8](data), path: input, format: format, rules: rules, strict: arguments.flag("strict"))
        } catch let error as ConsoleImportError {
            output.errorLine("lifetrace import: error: \(printable("\(error)", limit: 400))")
            return .usageOrInput
        } catch let error as JSONLError {
            output.errorLine("lifetrace import: error: \(error)")
            return .usageOrInput
        }
        try write(imported.events, header: imported.header, to: destination)
        for line in imported.warnings { output.errorLine("\(input):\(line)") }
        output.line("imported \(imported.events.count) events from \(input) into \(destination)")
        if imported.events.isEmpty, !data.isEmpty {
            output.errorLine("lifetrace import: warning: \(input): no line is a lifecycle callback or a mark; is it the console output of an app (see docs/IMPORT.md)?")
        }
        for line in imported.summary { output.line("  \(line)") }
        return .success
    }

    /// Parses `bytes` (read from `path`, which is recorded as each event's source file) into the events and
    /// header of a trace, with the reproducible trace id.
    ///
    /// - Throws: `ConsoleImportError` (strict mode) or `JSONLError`.
    static func makeTrace(bytes: [UInt8], path: String, format: String, rules: [MarkRule], strict: Bool) throws -> ImportedTrace {
        var imported = format == "jsonl"
            ? try importJSONL(bytes: bytes, path: path)
            : try importText(bytes: bytes, path: path, rules: rules, strict: strict)
        let fingerprintOptions = ["format=\(format)"] + rules.map { "mark=\($0.specText)" }
        imported.header.traceID = ImportFingerprint.traceID(input: bytes, options: fingerprintOptions)
        return imported
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

    /// What an import produced, before writing.
    struct ImportedTrace {
        var events: [Event]
        var header: TraceHeader
        /// `LINE: warning: …` lines for standard error.
        var warnings: [String] = []
        /// Summary lines for standard output.
        var summary: [String] = []
    }

    static func importText(bytes: [UInt8], path: String, rules: [MarkRule], strict: Bool) throws -> ImportedTrace {
        let text = String(decoding: bytes, as: UTF8.self)
        let parser = ConsoleLogParser(markRules: rules, isStrict: strict, sourceFile: path)
        let result = try parser.parse(text: text)
        var imported = ImportedTrace(events: result.events, header: header(for: result))
        imported.summary.append(
            "\(result.controllers.count) controller\(result.controllers.count == 1 ? "" : "s")"
                + (result.controllers.isEmpty ? "" : ": " + result.controllers.map(\.displayName).joined(separator: ", ")))
        imported.summary.append("times: \(describe(result.clock))")
        if result.hasSyntheticTimes, result.clock != .synthetic {
            imported.summary.append("\(result.untimedLineCount) line(s) without a time took the previous line's time")
        }
        for adjustment in result.timeAdjustments {
            imported.warnings.append("\(adjustment.line): warning: \(adjustment.description.dropFirst("line \(adjustment.line): ".count))")
        }
        if !result.skippedLines.isEmpty {
            let count = result.skippedLines.count
            imported.summary.append(
                "skipped \(count) line\(count == 1 ? "" : "s") with no callback or mark"
                    + (count > skippedLinesShown ? " (first \(skippedLinesShown) shown)" : "") + ":")
            for skipped in result.skippedLines.prefix(skippedLinesShown) {
                imported.summary.append("  line \(skipped.line): \(printable(skipped.text, limit: 160))")
            }
        }
        return imported
    }

    static func header(for result: ConsoleImportResult) -> TraceHeader {
        let anchor: Int64
        switch result.clock {
        case .wallClock(let start, _): anchor = start
        case .timeOfDay(let start): anchor = start
        case .seconds, .synthetic: anchor = 0
        }
        return TraceHeader(
            clockDomain: result.clock == .synthetic ? .synthetic : .unknown,
            wallClockAnchor: WallClockAnchor(unixNanoseconds: anchor, monotonicNanoseconds: 0),
            producer: producer,
            hasSyntheticTimes: result.hasSyntheticTimes,
            traceID: [UInt8](repeating: 0, count: 16))
    }

    static func describe(_ clock: ImportedClock) -> String {
        switch clock {
        case .wallClock(let start, let hasOffset):
            let text = utcText(start)
            return "dates, 0 s = \(text)" + (hasOffset ? "" : " (local time, no UTC offset in the log)")
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

    static func importJSONL(bytes: [UInt8], path: String) throws -> ImportedTrace {
        var reader = try JSONLReader(bytes: bytes, file: path)
        let events = try reader.readAll()
        var header = TraceHeader(
            clockDomain: .unknown, wallClockAnchor: WallClockAnchor(unixNanoseconds: 0, monotonicNanoseconds: 0),
            producer: producer, hasSyntheticTimes: false, traceID: [UInt8](repeating: 0, count: 16))
        if let exported = reader.header {  // an export's header line: keep its clock, anchor and synthetic flag
            header.clockDomain = exported.clockDomain
            header.wallClockAnchor = exported.wallClockAnchor
            header.hasSyntheticTimes = exported.hasSyntheticTimes
        }
        var imported = ImportedTrace(events: events, header: header)
        let controllers = Set(events.flatMap(\.controllers))
        imported.summary.append("\(controllers.count) controller\(controllers.count == 1 ? "" : "s")")
        return imported
    }

    /// Writes `events` (with Replay's checkpoint frames) to a temporary file next to `path`, then renames it over
    /// `path`.
    static func write(_ events: [Event], header: TraceHeader, to path: String) throws {
        let temporary = path + ".importing"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            // Checkpoint frames let `state --at` seek in long imported traces (Replay's default policy).
            let writer = CheckpointingWriter(writer: try TraceWriter(creating: temporary, header: header))
            try writer.append(contentsOf: events)
            try writer.close()
            // rename(2) replaces `path` atomically.
            guard rename(temporary, path) == 0 else {
                throw ImportWriteError(message: "\(path): cannot move the new trace into place (errno \(errno))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
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
