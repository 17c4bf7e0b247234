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
            reads it back into an equal trace.

            With -o the file is written next to FILE under a temporary name and renamed when complete, so a failed
            export never leaves a partial FILE.

            Examples:
              lifetrace export app.lifetrace > app.jsonl
              lifetrace export app.lifetrace -o app.jsonl && gzip -6 -k app.jsonl

            \(TraceInput.help) (Exporting a JSON Lines file normalises it.)

            \(TraceInput.exitHelp) With -o, the readable prefix is written in both cases.
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
        let stop: TraceInput.Stop?
        do {
            var writer = JSONLWriter { bytes in try file.write(bytes) }
            stop = try export(input, to: &writer)
            try file.commit()
            let prefix = stop == nil ? "" : "the readable prefix: "
            output.line("exported \(prefix)\(writer.eventCount) events (\(writer.byteCount) bytes) to \(outputPath)")
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
        let stop = try input.scan(fromOffset: nil) { _, event, _ in
            if isAbandoned() { return false }
            try writer.write(event)
            return true
        }
        try writer.finish()
        return stop
    }
}

/// A file written under a temporary name in the destination's directory and renamed into place on `commit()`.
final class OutputFile {
    let path: String
    let temporaryPath: String
    private let handle: FileHandle

    /// - Throws: `OutputFileError` when the temporary file cannot be created.
    init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporaryPath = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)").path
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporaryPath)
        else {
            throw OutputFileError(message: "cannot create \(path)")
        }
        self.handle = handle
    }

    func write(_ bytes: [UInt8]) throws {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw OutputFileError(message: "cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Closes the file and renames it to `path` (replacing any file there).
    func commit() throws {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw OutputFileError(message: "cannot write \(path): \(error.localizedDescription)")
        }
        guard rename(temporaryPath, path) == 0 else {
            throw OutputFileError(message: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Closes and deletes the temporary file.
    func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }
}

/// An output file that cannot be created or written.
struct OutputFileError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
