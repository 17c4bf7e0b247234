import Audit
import Foundation
import TraceLog
import TraceModel

/// The one way a command opens "a trace": a `.lifetrace` file or a JSON Lines export (docs/JSONL.md), told
/// apart by content (the trace magic, or a first line that is a JSON object), whatever the file's extension.
///
/// Every command that reads a trace (`info`, `verify`, `events`, `export`, `state`, `timeline`, `audit`) opens it
/// here and reads its events through `scan(fromOffset:_:)`, so all of them read the same events and report
/// damage the same way:
/// - damage found when opening a trace (a torn tail, a frame that fails its CRC): the valid prefix is read, one
///   warning per problem, exit 1 (`reportOpenProblems`);
/// - a part that cannot be decoded although it is intact (an events frame whose CRC holds but whose payload does
///   not decode, a JSON line that is not an event): the events before it are read, one error line names the
///   file, the offset and frame (or the line) and the first unreadable event ordinal, exit 2 (`Stop`).
///
/// Traces are read frame by frame and can start at a time without decoding earlier frames (the frame time
/// index); JSON Lines are read line by line from the start.
struct TraceInput {
    enum Source {
        case trace(TraceReader)
        case jsonl(String)
    }

    let path: String
    let source: Source

    /// What TRACE may be, for the commands' help.
    static let help = """
        TRACE is a .lifetrace file or a JSON Lines export of one (docs/JSONL.md), recognised by its content,
        whatever its extension.
        """

    /// The exit codes of a command that reads one trace, for its help.
    /// The pointer to the exit codes, which `lifetrace --help` and docs/CLI.md give once for every command.
    static let exitHelp = "Exit codes as for every command ('lifetrace --help'); a damaged trace is exit 1,\nread up to the damage."

    /// Opens `path`, recognising the format by its first bytes.
    ///
    /// - Throws: `TraceError` (not a trace nor JSON Lines, empty, newer version, unreadable, bad file header, …)
    ///   or `JSONLError` (unreadable, bad header line), each naming the file.
    init(path: String) throws {
        self.path = path
        if FilePaths.isDirectory(path) {
            throw TraceError(.io, "is a directory, not a trace file (only 'lifetrace audit' searches directories)", file: path)
        }
        if let kind = FilePaths.specialInputKind(path) {
            throw TraceError(.io, FilePaths.specialInputMessage(kind), file: path)
        }
        if Self.looksLikeJSONL(path) {
            _ = try JSONLReader(path: path)  // fail early on an unreadable file or a bad first line
            source = .jsonl(path)
            return
        }
        do {
            source = .trace(try TraceReader(path: path))
        } catch var error as TraceError where error.code == .notATrace {
            error.message += " nor a JSON Lines export (its first line is not a JSON object); to read a console log, import it first: lifetrace import LOG -o TRACE"
            throw error
        }
    }

    /// Whether the file at `path` starts (after blank space and a UTF-8 byte order mark) with `{`: a JSON Lines
    /// file. `false` for a trace (which starts with its magic), an empty or unreadable file (the trace reader
    /// then says why).
    static func looksLikeJSONL(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: 4096) else { return false }
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { !(" \t\r\n" as String).utf8.contains($0) }) else { return false }
        return first == UInt8(ascii: "{")
    }

    /// `true` for a JSON Lines input.
    var isJSONL: Bool {
        if case .jsonl = source { return true }
        return false
    }

    /// Damage found when the trace was opened (the readable prefix ends there); none for JSON Lines.
    var problems: [TraceError] {
        if case .trace(let reader) = source { return reader.problems }
        return []
    }

    /// What every command says of an input without a readable event (docs/CLI.md "A trace without events"):
    /// `FILE holds no events (only its header)`, or, when opening found damage before the first event,
    /// `FILE has no readable event before its damage`. `state`, `timeline`, `info` and `audit` say it in a note
    /// on standard error and exit 0 (an empty trace is a sound trace: a recorder opened and closed without a
    /// callback); `events` says it in a warning and exits 1, as it does whenever it lists nothing.
    var noEventsText: String {
        problems.isEmpty ? "\(path) holds no events (only its header)" : "\(path) has no readable event before its damage"
    }

    /// Prints one warning per problem found when opening (`TraceDamage`); `.problemFound` when there was any.
    @discardableResult
    func reportOpenProblems(command: String, output: CommandOutput) -> ExitCode {
        guard case .trace(let reader) = source else { return .success }
        return TraceDamage.report(reader, command: command, output: output)
    }

    /// Where reading stopped before the end: an events frame that does not decode (its CRC holds, or the file
    /// changed since it was opened), or a line of a JSON Lines file that is not an event. The events before it
    /// were read.
    struct Stop: Error, CustomStringConvertible {
        /// The reader's error (`TraceError` naming file and offset, or `JSONLError` naming file and line).
        var underlying: any Error
        /// Events readable before the stop (the first unreadable event's ordinal).
        var readableEvents: UInt64
        /// `"offset 1234 (events frame 3)"` or `"line 14"`: where the input stops being readable.
        var place: String
        /// Whether every event the command asked for was read before this (a JSON Lines input read past the
        /// events a `state --at T` or `events --to T` needs, to find damage as opening a `.lifetrace` does): the
        /// output is complete, the input damaged.
        var isBeyondRequest = false

        var description: String {
            if isBeyondRequest {
                return "\(underlying); the output is complete (it needs only earlier events), but event \(readableEvents) onwards cannot be read"
            }
            return "\(underlying); reading stopped there: event \(readableEvents) onwards cannot be read, using the \(readableEvents) readable events before it"
        }

        /// Prints `lifetrace COMMAND: error: …` and returns `.usageOrInput` (exit 2: unreadable input); for damage
        /// beyond the request, `lifetrace COMMAND: warning: …` and `.problemFound` (exit 1: a damaged input, as a
        /// `.lifetrace` with a torn tail).
        @discardableResult
        func report(command: String, output: CommandOutput) -> ExitCode {
            if isBeyondRequest {
                output.errorLine("lifetrace \(command): warning: \(self)")
                return .problemFound
            }
            output.errorLine("lifetrace \(command): error: \(self)")
            return .usageOrInput
        }
    }

    /// Calls `body` with each event at or after `start + offset` (`start` = the first event's timestamp), in order,
    /// with its ordinal (0-based position in the file) and `start`; stops when `body` returns `false`.
    ///
    /// For a trace, frames that end before the requested time are not decoded.
    ///
    /// - Parameters:
    ///   - offset: Nanoseconds after the first event, or `nil` for the beginning.
    ///   - lines: For a JSON Lines input, called before `body` with each event's ordinal and its 1-based line in
    ///     the file (blank lines and a header line counted); not called for a trace.
    ///   - checkingRest: Asked when `body` returns `false`: `true` reads a JSON Lines input on to its end to find a
    ///     line that cannot be read (which opening a `.lifetrace` finds by its CRCs), reported as a `Stop` with
    ///     `isBeyondRequest`; `false` (the default, and for a reader that went away) stops at once.
    /// - Returns: Where reading stopped early because the input cannot be decoded there (after `body` saw every
    ///   event before it), or `nil` when every requested event was read.
    /// - Throws: Whatever `body` throws.
    @discardableResult
    func scan(
        fromOffset offset: UInt64?,
        lines: (_ ordinal: UInt64, _ line: Int) -> Void = { _, _ in },
        checkingRest: () -> Bool = { false },
        _ body: (_ ordinal: UInt64, _ event: Event, _ start: UInt64) throws -> Bool
    ) throws -> Stop? {
        switch source {
        case .trace(let reader):
            guard let start = reader.timeSpan?.lowerBound else { return nil }
            let from = offset.map { Self.adding(start, $0) } ?? start
            guard let frame = reader.frameIndex(containing: from) else { return nil }
            var events = reader.events(fromFrame: frame)
            while let (ordinal, event) = events.next() {
                if event.timestamp < from { continue }
                if try !body(ordinal, event, start) { return nil }
            }
            return events.error.map { Self.stop(reader, $0) }
        case .jsonl(let path):
            var reader: JSONLReader
            do {
                reader = try JSONLReader(path: path)
            } catch {
                return Stop(underlying: error, readableEvents: 0, place: "line \(error.line)")
            }
            var ordinal: UInt64 = 0
            var start: UInt64?
            var from: UInt64 = 0
            while true {
                let next: Event?
                do {
                    next = try reader.next()
                } catch {
                    return Stop(underlying: error, readableEvents: ordinal, place: "line \(error.line)")
                }
                guard let event = next else { return nil }
                defer { ordinal += 1 }
                if start == nil {
                    start = event.timestamp
                    from = offset.map { Self.adding(event.timestamp, $0) } ?? event.timestamp
                }
                if event.timestamp < from { continue }
                lines(ordinal, reader.lineNumber)
                if try !body(ordinal, event, start!) {
                    return checkingRest() ? Self.damage(after: ordinal + 1, in: &reader) : nil
                }
            }
        }
    }

    /// Reads the rest of a JSON Lines input whose first `count` events were read, without keeping its events: the
    /// first line that cannot be read, as a stop beyond the request, or `nil` when the rest is sound.
    private static func damage(after count: UInt64, in reader: inout JSONLReader) -> Stop? {
        var readable = count
        while true {
            do {
                guard try reader.next() != nil else { return nil }
                readable += 1
            } catch {
                return Stop(underlying: error, readableEvents: readable, place: "line \(error.line)", isBeyondRequest: true)
            }
        }
    }

    /// The stop for `error`, met while decoding an events frame of `reader`.
    static func stop(_ reader: TraceReader, _ error: TraceError) -> Stop {
        guard let offset = error.offset, let frame = reader.frames.first(where: { $0.offset == offset }) else {
            return Stop(underlying: error, readableEvents: error.eventOrdinal ?? 0, place: error.offset.map { "offset \($0)" } ?? "an events frame")
        }
        var underlying = error
        if frame.eventCount > 0 {
            underlying.message += " (events frame \(frame.sequence) holds events \(frame.firstOrdinal)–\(frame.firstOrdinal + UInt64(frame.eventCount) - 1))"
        }
        return Stop(underlying: underlying, readableEvents: frame.firstOrdinal, place: "offset \(offset) (events frame \(frame.sequence))")
    }

    /// The trace header, when the input has one (a trace always does; a JSONL file when it starts with one).
    func header() throws -> TraceHeader? {
        switch source {
        case .trace(let reader): return reader.header
        case .jsonl(let path): return try JSONLReader(path: path).header
        }
    }

    /// The input's identity for reports: its path, and the trace id, producer and wall-clock anchor its header
    /// gives (a JSON Lines header without a `trace_id` gives none; see `datingAnchor(of:)` for the anchor).
    func identity() -> TraceIdentity {
        switch source {
        case .trace(let reader):
            return TraceIdentity(
                path: path, traceID: reader.header.traceIDHex, producer: reader.header.producer,
                wallClockAnchor: Self.datingAnchor(of: reader.header)
            )
        case .jsonl(let path):
            guard let reader = try? JSONLReader(path: path), let header = reader.header else { return TraceIdentity(path: path) }
            return TraceIdentity(
                path: path, traceID: reader.headerMemberNames.contains("trace_id") ? header.traceIDHex : nil, producer: header.producer,
                wallClockAnchor: Self.datingAnchor(of: header)
            )
        }
    }

    /// The header's wall-clock anchor if it dates the events: `nil` for synthetic times and for
    /// `WallClockAnchor.none` (an import without dates, a JSON Lines header without `wall_clock_anchor`).
    static func datingAnchor(of header: TraceHeader) -> WallClockAnchor? {
        header.hasSyntheticTimes || header.wallClockAnchor == .none ? nil : header.wallClockAnchor
    }

    static func adding(_ base: UInt64, _ offset: UInt64) -> UInt64 {
        let (sum, overflow) = base.addingReportingOverflow(offset)
        return overflow ? .max : sum
    }
}
