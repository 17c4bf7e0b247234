import ArgumentParsing
import Audit
import Foundation
import TraceLog
import TraceModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `lifetrace export TRACE [--format jsonl|chrome-trace] [-o FILE]`: writes every event of a trace as JSON Lines, or
/// as Chrome's Trace Event Format for Perfetto UI (`ExportCommand+ChromeTrace.swift`).
struct ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write a trace as JSON Lines (lossless; docs/JSONL.md) or as a Chrome/Perfetto trace (docs/VIEWS.md).",
        usage: "TRACE [--format jsonl|chrome-trace] [--no-findings] [--config FILE] [-o FILE]",
        discussion: """
            jsonl (the default): the first line is the header ({"lifetrace": {...}}: clock domain, wall-clock
            anchor, trace id, producer, synthetic flag); then one JSON object per event, in time order.
            'lifetrace import FILE.jsonl -o TRACE' reads it back into an equal trace with the same header (trace
            id and producer included), so exporting that trace again gives the same bytes.

            chrome-trace: Chrome's Trace Event Format (one JSON object), for Perfetto UI (ui.perfetto.dev, or an
            offline copy), chrome://tracing and other trace viewers. One process per recording run; per controller a
            thread 'Type#serial' with its callbacks as nested slices, its marks and container operations, and a thread
            'Type#serial appearance' with its appearance states (cancelled ones named so); 'app state', 'scene ID'
            and 'app events' threads; interactive transitions as flows; the audit's findings (the rules as
            'lifetrace audit' runs them, --config or the nearest .lifetrace.json) on a 'findings' thread, unless
            --no-findings. Times are the trace clock's nanoseconds as exact decimal microseconds. The export
            streams: memory is bounded by the live controllers. Perfetto's SQL then counts, for example,
            select count(*) from slice where category = 'callback'.

            With -o the file is written next to FILE under a temporary name and renamed when complete, so a failed
            export never leaves a partial FILE.

            Examples:
              lifetrace export app.lifetrace > app.jsonl
              lifetrace export app.lifetrace -o app.jsonl && gzip -6 -k app.jsonl
              lifetrace export app.lifetrace --format chrome-trace -o app.json   (open app.json in Perfetto UI)

            \(TraceInput.help) (Exporting a JSON Lines file normalises it.)

            \(TraceInput.exitHelp) With -o, the readable prefix is written, damaged or not.
            """,
        options: [
            OptionSpec("format", value: "FORMAT", help: "jsonl (the default) or chrome-trace."),
            OptionSpec("no-findings", help: "chrome-trace: leave the audit's findings out (no audit runs)."),
            OptionSpec("config", value: "FILE", help: "chrome-trace: audit configuration, - for standard input (default: nearest .lifetrace.json upwards)."),
            OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE instead of standard output (- for standard output)."),
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let format = try arguments.choice("format", among: ["jsonl", "chrome-trace"], default: "jsonl")
        if format == "jsonl", arguments.flag("no-findings") || arguments.value("config") != nil {
            throw ValidationError("--no-findings and --config go with --format chrome-trace")
        }
        let inputPath = arguments.positionals[0]
        let outputPath = arguments.value("output")
        if let outputPath, outputPath != "-", FilePaths.isSameFile(outputPath, inputPath) {
            throw ValidationError("-o '\(outputPath)' is the input trace; choose another file")
        }
        if let outputPath, outputPath != "-", let problem = FilePaths.unwritableDirectory(of: outputPath) {
            throw ValidationError("-o '\(outputPath)': \(problem)")
        }
        if let outputPath, outputPath != "-", FilePaths.isDirectory(outputPath) {
            throw ValidationError("-o '\(outputPath)' is a directory; give a file name")
        }
        let input = try TraceInput(path: inputPath)
        if format == "chrome-trace" {
            let auditor = arguments.flag("no-findings") ? nil : try Auditor(configuration: AuditCommand.loadConfiguration(arguments.value("config")))
            let damage = input.reportOpenProblems(command: "export", output: output)
            return try exportChromeTrace(input, auditor: auditor, to: outputPath, damage: damage, output: output)
        }
        let damage = input.reportOpenProblems(command: "export", output: output)

        guard let outputPath, outputPath != "-" else {
            var writer = JSONLWriter { bytes in output.write(String(decoding: bytes, as: UTF8.self)) }
            let progress = ProgressLine(output: output, printsToStandardOutput: true)
            defer { progress?.finish() }
            let stop = try export(input, to: &writer, progress: progress, until: { output.isStandardOutputClosed })
            return finish(damage, stop, output: output)
        }

        let file = try OutputFile(path: outputPath)
        file.removeStaleTemporaries(command: "export", output: output)
        let stop: TraceInput.Stop?
        do {
            var writer = JSONLWriter { bytes in try file.write(bytes) }
            let progress = ProgressLine(output: output)
            defer { progress?.finish() }
            stop = try export(input, to: &writer, progress: progress)
            try file.commit()
            let prefix = stop == nil ? "" : "the readable prefix: "
            output.line("exported \(prefix)\(writer.eventCount) events (\(writer.byteCount) bytes) to \(outputPath.displayEscaped)")
        } catch {
            file.discard()
            throw error
        }
        return finish(damage, stop, output: output)
    }

    static func finish(_ damage: ExitCode, _ stop: TraceInput.Stop?, output: CommandOutput) -> ExitCode {
        guard let stop else { return damage }
        return TraceDamage.worse(damage, stop.report(command: "export", output: output))
    }

    /// Writes the header (when the input has one) and every readable event.
    ///
    /// - Parameter isAbandoned: Checked before each event: `true` stops the export there (standard output's reader
    ///   went away).
    /// - Returns: Where reading stopped early, if it did: the events before it were written.
    /// - Parameter progress: Shows the events written so far (of the trace's count, for a `.lifetrace`).
    static func export(
        _ input: TraceInput, to writer: inout JSONLWriter, progress: ProgressLine? = nil, until isAbandoned: () -> Bool = { false }
    ) throws -> TraceInput.Stop? {
        if let header = try input.header() {
            try writer.writeHeader(header)
        }
        // JSON Lines keep time non-decreasing (docs/JSONL.md); a trace can step back where frames are out of order
        // (a frame spliced or written twice: FORMAT §8 reports it and reads on). The export stops there, as at an
        // event that cannot be read, naming the trace and the event, rather than failing inside the writer.
        var previous: UInt64?
        var backwards: TraceInput.Stop?
        // Counted here: an out-of-order frame carries the ordinals it was written with, not its place in the file.
        var ordinal: UInt64 = 0
        var total: UInt64 = 0
        if case .trace(let reader) = input.source { total = reader.eventCount }
        let stop = try input.scan(fromOffset: nil) { _, event, _ in
            if isAbandoned() { return false }
            if let previous, event.timestamp < previous {
                let error = TraceError(
                    .timestampWentBackwards,
                    "\(event.timestamp) ns is earlier than the previous event's \(previous) ns (the trace's frames are out of order); JSON Lines keep time non-decreasing, so the export stops here",
                    file: input.path, eventOrdinal: ordinal)
                backwards = TraceInput.Stop(underlying: error, readableEvents: ordinal, place: "event \(ordinal)")
                return false
            }
            previous = event.timestamp
            ordinal += 1
            try writer.write(event)
            if let progress, ordinal & 0xFFF == 0 {
                let done = ordinal
                progress.update("lifetrace export: \(ProgressLine.fraction(done, of: total, "events"))")
            }
            return true
        }
        try writer.finish()
        return stop ?? backwards
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// A file written under a temporary name in the destination's directory and renamed into place on `commit()`.
///
/// The destination's symbolic links are followed first, so the link's target is replaced, not the link. A
/// destination that is a device, FIFO or socket (`-o /dev/null`, `-o /dev/stdout`, a named pipe) is written in
/// place: renaming over it would replace the special file with a regular one.
final class OutputFile {
    let path: String
    /// Where the bytes go until `commit()`: the temporary file, or the special file itself.
    let temporaryPath: String
    private let target: OutputTarget
    private var descriptor: Int32

    /// - Throws: `OutputFileError` when the file cannot be created or opened.
    init(path: String) throws {
        self.path = path
        target = OutputTarget(path: path)
        switch target {
        case .file(let resolved):
            // `FILE.partial-PID-RANDOM`, created with O_EXCL: unique to this call (before, `.FILE.partial-PID` was
            // shared by every OutputFile of one process). Locked (flock) while written, so that another run's
            // clean-up (`FilePaths.removeStaleTemporaries`) can tell it from one a killed run left.
            var attempt = FilePaths.temporarySibling(of: resolved, "partial")
            var opened = open(attempt, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            for _ in 0..<8 where opened < 0 && errno == EEXIST {
                attempt = FilePaths.temporarySibling(of: resolved, "partial")
                opened = open(attempt, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            }
            temporaryPath = attempt
            descriptor = opened
            if opened >= 0 { _ = flock(opened, LOCK_EX | LOCK_NB) }  // a file system without flock: no lock, still written
        case .special(let resolved, _):
            temporaryPath = resolved
            descriptor = open(resolved, O_WRONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw OutputFileError(message: "cannot create \(path): \(Self.reason(errno))")
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw OutputFileError(message: "cannot write \(path): \(Self.reason(written < 0 ? errno : ENOSPC))")
            }
            offset += written
        }
    }

    /// Flushes and closes the file and renames it to `path` (replacing any regular file there).
    func commit() throws {
        let fd = descriptor
        descriptor = -1
        if case .file = target, fsync(fd) != 0 {
            let error = errno
            close(fd)
            throw OutputFileError(message: "cannot write \(path): \(Self.reason(error))")
        }
        guard close(fd) == 0 || errno == EINTR else {
            throw OutputFileError(message: "cannot write \(path): \(Self.reason(errno))")
        }
        guard case .file(let resolved) = target else { return }
        guard rename(temporaryPath, resolved) == 0 else {
            throw OutputFileError(message: "cannot write \(path): \(Self.reason(errno))")
        }
    }

    /// Removes what killed runs writing this same file left (`FilePaths.cleanUpStaleTemporaries`, `partial`), with a
    /// note each on standard error; nothing for a special file.
    func removeStaleTemporaries(command: String, output: CommandOutput) {
        guard case .file(let resolved) = target else { return }
        FilePaths.cleanUpStaleTemporaries(of: resolved, "partial", command: command, output: output)
    }

    /// Closes the file and deletes the temporary file (a special file is left alone).
    func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if case .file = target { unlink(temporaryPath) }
    }

    static func reason(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}

/// An output file that cannot be created or written.
struct OutputFileError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
