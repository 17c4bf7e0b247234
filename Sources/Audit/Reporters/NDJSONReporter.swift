import TraceModel

/// The streaming machine report (`--format ndjson`): one JSON object per line (newline-delimited JSON), each a
/// record of schema `lifetrace.finding/1`, self-contained so a line read alone says which trace it is about.
///
/// Every line has `schema` (`"lifetrace.finding/1"`), `type` and `trace` (the input's identity: `path`,
/// `trace_id` and `producer` from its header, `null` when it has none). By `type`:
/// - `finding`: `rule`, `severity` (`error`, `warning`, `note`), `verdict` (`violation`, `inconclusive`),
///   `controller`, `callback`, `event` (0-based ordinal), `t_ns` (nanoseconds on the trace's monotonic clock),
///   `unix_ns` (its wall-clock time, nanoseconds since 1970 UTC; `null` for synthetic times or no anchor),
///   `time` (seconds since the trace's first event, as text), `line` (the 1-based line of a JSON Lines input,
///   `null` for a `.lifetrace` file), `source` (the recorded source location, `{"file", "line"}`, or `null`),
///   `message` and `related` (each with `event`, `t_ns`, `time`, `line`, `message`);
/// - `input_problem`: `severity` (`error`: events could not be read; `warning`: a damaged trace read up to its
///   damage), `message` (naming the file and the offset, frame or line), `line` and `byte_offset` (where the input
///   stops being readable, `null` when not known);
/// - `trace`: the end of one input's records: `events` read, `findings` reported, `complete` (`false` when the
///   input had a problem: its audit covers at most a prefix of it, or nothing);
/// - `summary`: the last line of a run: the counts of the JSON report's `summary` and `complete` (every input read
///   whole).
///
/// The schema is `docs/schemas/lifetrace.finding-1.schema.json` (JSON Schema draft 2020-12); docs/NDJSON.md
/// describes it. A new member may be added within version 1; a member removed or changed in meaning makes it 2.
public enum NDJSONReporter {
    /// The value of every line's `schema` member.
    public static let schema = "lifetrace.finding/1"

    /// The whole report: `lines(for:audit:problems:)` for each trace (its input problems matched by path, in
    /// order), then the lines of inputs that could not be opened, then `summaryLine(_:)`.
    public static func render(_ report: AuditReport) -> String {
        var remaining = report.inputProblems
        var out = ""
        for trace in report.traces {
            let own = remaining.filter { $0.path == trace.path }
            remaining.removeAll { $0.path == trace.path }
            out += lines(for: trace.path, audit: trace, problems: own)
        }
        var unopened: [String] = []
        for problem in remaining where !unopened.contains(problem.path) { unopened.append(problem.path) }
        for path in unopened {
            out += lines(for: path, audit: nil, problems: remaining.filter { $0.path == path })
        }
        return out + summaryLine(report)
    }

    /// The lines of one input: a `finding` line per finding in event order, an `input_problem` line per problem,
    /// then its `trace` line. `audit` is `nil` for an input that could not be opened at all.
    public static func lines(for path: String, audit: TraceAudit?, problems: [InputProblem]) -> String {
        let identity = audit?.identity ?? TraceIdentity(path: path)
        var out = ""
        if let audit {
            for finding in audit.findings {
                out += line(type: "finding", identity, findingMembers(finding, in: audit))
            }
        }
        for problem in problems {
            out += line(type: "input_problem", identity, [
                ("severity", .string(problem.severity.rawValue)),
                ("message", .string(problem.message)),
                ("line", optional(problem.line)),
                ("byte_offset", optional(problem.byteOffset)),
            ])
        }
        out += line(type: "trace", identity, [
            ("events", .int(Int64(clamping: audit?.eventCount ?? 0))),
            ("findings", .int(Int64(audit?.findings.count ?? 0))),
            ("complete", .bool(audit != nil && problems.isEmpty)),
        ])
        return out
    }

    /// The last line: the run's counts (as the JSON report's `summary`), `failed` (error-level findings, or
    /// warnings with `--strict`) and `complete` (no input problem).
    public static func summaryLine(_ report: AuditReport) -> String {
        JSONValue.object(
            [("schema", .string(schema)), ("type", .string("summary"))] + JSONReporter.countMembers(report) + [
                ("input_problems", .int(Int64(report.inputProblems.count))),
                ("failed", .bool(report.hasFailures)),
                ("complete", .bool(report.inputProblems.isEmpty)),
            ]
        ).serialized() + "\n"
    }

    static func findingMembers(_ finding: Finding, in audit: TraceAudit) -> [(String, JSONValue)] {
        [
            ("rule", .string(finding.ruleID)),
            ("severity", .string(finding.severity.rawValue)),
            ("verdict", .string(finding.verdict.rawValue)),
            ("controller", finding.controller.map(JSONValue.string) ?? .null),
            ("callback", finding.callback.map(JSONValue.string) ?? .null),
            ("event", .int(Int64(clamping: finding.ordinal))),
            ("t_ns", .int(Int64(clamping: finding.timestamp))),
            ("unix_ns", audit.identity.unixNanoseconds(at: finding.timestamp).map(JSONValue.int) ?? .null),
            ("time", .string(audit.time(finding.timestamp))),
            ("line", optional(audit.inputLine(of: finding.ordinal))),
            ("source", sourceValue(finding.source)),
            ("message", .string(finding.message)),
            ("related", .array(finding.related.map { related in
                .object([
                    ("event", .int(Int64(clamping: related.ordinal))),
                    ("t_ns", .int(Int64(clamping: related.timestamp))),
                    ("time", .string(audit.time(related.timestamp))),
                    ("line", optional(audit.inputLine(of: related.ordinal))),
                    ("message", .string(related.message)),
                ])
            })),
        ]
    }

    static func sourceValue(_ source: EventSource?) -> JSONValue {
        guard let file = source?.file, let line = source?.line, !file.isEmpty, line > 0 else { return .null }
        return .object([("file", .string(file)), ("line", .int(Int64(line)))])
    }

    static func line(type: String, _ identity: TraceIdentity, _ members: [(String, JSONValue)]) -> String {
        let trace: JSONValue = .object([
            ("path", .string(identity.path)),
            ("trace_id", identity.traceID.map(JSONValue.string) ?? .null),
            ("producer", identity.producer.map(JSONValue.string) ?? .null),
        ])
        return JSONValue.object([("schema", .string(schema)), ("type", .string(type)), ("trace", trace)] + members).serialized() + "\n"
    }

    static func optional(_ value: UInt64?) -> JSONValue {
        value.map { .int(Int64(clamping: $0)) } ?? .null
    }
}
