import Audit
import ConsoleImport
import Foundation
import TraceLog
import TraceModel

/// The one call a Swift test needs: audit a file — a `.lifetrace` trace, a JSON Lines export of one, or a console
/// log of `print("viewWillAppear")`-style lines — and get a report that says whether the input was read whole.
///
/// ```swift
/// let audit = try FileAuditor().audit("traces/ui-tests/notes.lifetrace")
/// #expect(audit.isComplete, "\(audit.problems)")
/// #expect(audit.errors.isEmpty, "\(audit.errors.map(\.message))")
/// ```
///
/// The format is told by content: the trace magic, a first non-blank character `{` (JSON Lines, docs/JSONL.md),
/// else a console log (docs/IMPORT.md; read whole into memory, each event's source its line). A damaged input is
/// never a clean one: a torn tail or a frame failing its CRC (a trace read up to its damage) is a `.warning`
/// problem, an events frame or JSON line that does not decode (the events before it are audited) an `.error`
/// one, and either makes `isComplete` false; `passes` needs a complete input and no error-level finding.
public struct FileAuditor: Sendable {
    public let auditor: Auditor

    /// - Parameter configuration: Rules, severities and parameters (docs/RULES.md); the defaults by default.
    /// - Throws: `ConfigurationError` for a configuration that names an unknown rule or a bad parameter.
    public init(configuration: AuditConfiguration = .default) throws {
        auditor = try Auditor(configuration: configuration)
    }

    /// Audits the file at `path`.
    ///
    /// - Returns: The findings (in event order) and the input's problems; see `FileAudit.isComplete`.
    /// - Throws: `TraceError` or `JSONLError` naming the file when it cannot be opened at all (missing, unreadable,
    ///   a directory, a trace of a newer major version, a bad header); a damaged or partly undecodable input does
    ///   not throw, it returns a `FileAudit` whose `problems` say where reading stopped.
    public func audit(_ path: String) throws -> FileAudit {
        let prefix = try Self.prefix(of: path)
        if prefix.starts(with: TraceHeader.magic) { return try auditTrace(path) }
        let session = auditor.makeSession()
        var problems: [InputProblem] = []
        var count: UInt64 = 0
        var start: UInt64?
        let kind: FileAudit.Kind
        func observe(_ event: Event) {
            if start == nil { start = event.timestamp }
            session.observe(event, ordinal: count)
            count += 1
        }
        if Self.startsWithJSONObject(prefix) {
            kind = .jsonLines
            var reader = try JSONLReader(path: path)
            do {
                while let event = try reader.next() { observe(event) }
            } catch {
                problems.append(InputProblem(path: path, severity: .error, message: "\(error)", line: error.line > 0 ? UInt64(error.line) : nil))
            }
        } else {
            kind = .consoleLog
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw TraceError(.io, "cannot read the console log as UTF-8 text", file: path)
            }
            do {
                for event in try ConsoleLogParser(sourceFile: path).parse(text: text).events { observe(event) }
            } catch {
                problems.append(InputProblem(path: path, severity: .error, message: "\(error)"))
            }
        }
        let trace = TraceAudit(path: path, eventCount: count, startTimestamp: start ?? 0, findings: session.finish())
        return FileAudit(kind: kind, trace: trace, problems: problems, rules: auditor.active.map(\.rule.descriptor))
    }

    /// A `.lifetrace` trace, read as `lifetrace audit` reads one: its frames in record batches, the rules in groups
    /// run at the same time (`Auditor.audit(_:groups:)`).
    private func auditTrace(_ path: String) throws -> FileAudit {
        let reader = try TraceReader(path: path)
        var problems = reader.problems.map { InputProblem(path: path, severity: .warning, message: "\($0)", byteOffset: $0.offset) }
        let audited = auditor.audit(reader)
        if let stop = audited.stop {
            guard let error = stop.error as? TraceError else { throw stop.error }
            problems.append(InputProblem(path: path, severity: .error, message: "\(error)", byteOffset: error.offset))
        }
        let trace = TraceAudit(path: path, eventCount: audited.state.eventCount, startTimestamp: audited.startTimestamp ?? 0, findings: audited.findings)
        return FileAudit(kind: .trace, trace: trace, problems: problems, rules: auditor.active.map(\.rule.descriptor))
    }

    static func prefix(of path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TraceError(.io, "cannot open the file", file: path)
        }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
    }

    static func startsWithJSONObject(_ prefix: [UInt8]) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { ![0x20, 0x09, 0x0D, 0x0A].contains($0) } == UInt8(ascii: "{")
    }
}
