import TraceLog
import TraceModel

/// A file of events a command reads: a `.lifetrace` trace, or a JSON Lines export (`.jsonl`, `.ndjson`).
///
/// Traces are read frame by frame and can start at a time without decoding earlier frames (the frame time
/// index); JSON Lines are read line by line from the start.
struct EventInput {
    enum Source {
        case trace(TraceReader)
        case jsonl(String)
    }

    let path: String
    let source: Source

    /// Whether `path` names a JSON Lines file (by its extension).
    static func isJSONL(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson")
    }

    /// Opens `path`.
    ///
    /// - Throws: `TraceError` (not a trace, newer version, unreadable, …) or `JSONLError` (unreadable, bad first line).
    init(path: String) throws {
        self.path = path
        if Self.isJSONL(path) {
            _ = try JSONLReader(path: path)  // fail early on an unreadable file or a bad header
            source = .jsonl(path)
        } else {
            source = .trace(try TraceReader(path: path))
        }
    }

    /// Damage found when the trace was opened (the readable prefix ends there).
    var problems: [TraceError] {
        if case .trace(let reader) = source { return reader.problems }
        return []
    }

    /// Prints one warning per problem found when opening (`TraceDamage`); `.problemFound` when there was any.
    @discardableResult
    func reportProblems(command: String, output: CommandOutput) -> ExitCode {
        guard case .trace(let reader) = source else { return .success }
        return TraceDamage.report(reader, command: command, output: output)
    }

    /// Calls `body` with each event at or after `start + offset` (`start` = the first event's timestamp), in order,
    /// with its ordinal (0-based position in the file) and `start`; stops when `body` returns `false`.
    ///
    /// For a trace, frames that end before the requested time are not decoded.
    ///
    /// - Parameter offset: Nanoseconds after the first event, or `nil` for the beginning.
    /// - Throws: The `TraceError` of a frame that does not decode, or the `JSONLError` of a bad line, after `body`
    ///   saw every event before it; whatever `body` throws.
    func scan(
        fromOffset offset: UInt64?,
        _ body: (_ ordinal: UInt64, _ event: Event, _ start: UInt64) throws -> Bool
    ) throws {
        switch source {
        case .trace(let reader):
            guard let start = reader.timeSpan?.lowerBound else { return }
            let from = offset.map { Self.adding(start, $0) } ?? start
            guard let frame = reader.frameIndex(containing: from) else { return }
            var events = reader.events(fromFrame: frame)
            while let (ordinal, event) = events.next() {
                if event.timestamp < from { continue }
                if try !body(ordinal, event, start) { return }
            }
            if let error = events.error { throw error }
        case .jsonl(let path):
            var reader = try JSONLReader(path: path)
            var ordinal: UInt64 = 0
            var start: UInt64?
            var from: UInt64 = 0
            while let event = try reader.next() {
                defer { ordinal += 1 }
                if start == nil {
                    start = event.timestamp
                    from = offset.map { Self.adding(event.timestamp, $0) } ?? event.timestamp
                }
                if event.timestamp < from { continue }
                if try !body(ordinal, event, start!) { return }
            }
        }
    }

    /// The trace header, when the input has one (a trace always does; a JSONL file when it starts with one).
    func header() throws -> TraceHeader? {
        switch source {
        case .trace(let reader): return reader.header
        case .jsonl(let path): return try JSONLReader(path: path).header
        }
    }

    static func adding(_ base: UInt64, _ offset: UInt64) -> UInt64 {
        let (sum, overflow) = base.addingReportingOverflow(offset)
        return overflow ? .max : sum
    }
}
