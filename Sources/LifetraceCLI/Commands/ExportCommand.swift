import ArgumentParsing
import Foundation
import TraceLog
import TraceModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `lifetrace export TRACE --format jsonl [-o FILE]`: writes every event of a trace as JSON Lines.
struct ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write a trace's header and every event as JSON Lines (lossless; see docs/JSONL.md).",
        usage: "TRACE [--format jsonl] [-o FILE]",
        discussion: """
            The first line is the header ({"lifetrace": {...}}: clock domain, wall-clock anchor, trace id, producer,
            synthetic flag); then one JSON object per event, in time order. 'lifetrace import FILE.jsonl -o TRACE'
            reads it back into an equal trace with the same header (trace id and producer included), so exporting
            that trace again gives the same bytes.

            With -o the file is written next to FILE under a temporary name and renamed when complete, so a failed
            export never leaves a partial FILE.

            Examples:
              lifetrace export app.lifetrace > app.jsonl
              lifetrace export app.lifetrace -o app.jsonl && gzip -6 -k app.jsonl

            \(TraceInput.help) (Exporting a JSON Lines file normalises it.)

            \(TraceInput.exitHelp) With -o, the readable prefix is written, damaged or not.
            """,
        options: [
            OptionSpec("format", value: "FORMAT", help: "jsonl (the only format, and the default)."),
            OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE instead of standard output (- for standard output)."),
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        _ = try arguments.choice("format", among: ["jsonl"], default: "jsonl")
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
        let damage = input.reportOpenProblems(command: "export", output: output)

        guard let outputPath, outputPath != "-" else {
            var writer = JSONLWriter { bytes in output.write(String(decoding: bytes, as: UTF8.self)) }
            let stop = try export(input, to: &writer, until: { output.isStandardOutputClosed })
            return finish(damage, stop, output: output)
        }

        let file = try OutputFile(path: outputPath)
        file.removeStaleTemporaries(command: "export", output: output)
        let stop: TraceInput.Stop?
        do {
            var writer = JSONLWriter { bytes in try file.write(bytes) }
            stop = try export(input, to: &writer)
            try file.commit()
            let prefix = stop == nil ? "" : "the readable prefix: "
            output.line("exported \(prefix)\(writer.eventCount) events (\(writer.byteCount) bytes) to \(outputPath.displayEscaped)")
        } catch {
            file.discard()
            throw error
        }
        return finish(damage, stop, output: output)
    }

    private static func finish(_ damage: ExitCode, _ stop: TraceInput.Stop?, output: CommandOutput) -> ExitCode {
        guard let stop else { return damage }
        return TraceDamage.worse(damage, stop.report(command: "export", output: output))
    }

    /// Writes the header (when the input has one) and every readable event.
    ///
    /// - Parameter isAbandoned: Checked before each event: `true` stops the export there (standard output's reader
    ///   went away).
    /// - Returns: Where reading stopped early, if it did: the events before it were written.
    static func export(_ input: TraceInput, to writer: inout JSONLWriter, until isAbandoned: () -> Bool = { false }) throws -> TraceInput.Stop? {
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
