/// The machine report: `{"traces": [...], "findings": [...], "summary": {...}}`.
///
/// Each finding: `rule`, `severity`, `verdict`, `controller`, `t_ns` (trace clock), `time` (seconds since the
/// trace's first event, as text), `event` (ordinal), `callback`, `message`, `related` (each with `event`,
/// `t_ns`, `time`, `message`, `line`), `trace` (the trace's path) and `line` (for a JSON Lines input, the 1-based
/// line that holds the event, blank lines and a header line counted; `null` for a `.lifetrace` file). Each input problem (`input_problems`): `path`,
/// `severity` (`error` unreadable, `warning` damaged), `message`, and where the input stops being readable: `line`
/// (a JSON Lines input) or `byte_offset` (a trace), `null` when not known. Each trace lists the rules that had
/// nothing to check in it (`nothing_to_check`: `rule`, `missing`, the kinds of facts it needs and the trace has
/// none of, such as `save marks`, and `hint`, how a trace comes to have them).
public enum JSONReporter {
    public static func render(_ report: AuditReport) -> String {
        document(report).serialized(pretty: true) + "\n"
    }

    public static func document(_ report: AuditReport) -> JSONValue {
        var traces: [JSONValue] = []
        var findings: [JSONValue] = []
        for trace in report.traces {
            var entry: [(String, JSONValue)] = [
                ("path", .string(trace.path)),
                ("events", .int(Int64(trace.eventCount))),
                ("findings", .int(Int64(trace.findings.count))),
            ]
            if let jsonl = trace.jsonlPath { entry.append(("jsonl", .string(jsonl))) }
            entry.append(("nothing_to_check", .array(trace.idleRules.map { idle in
                .object([
                    ("rule", .string(idle.ruleID)),
                    ("missing", .array(idle.missing.map { .string($0.plural) })),
                    ("hint", .string(idle.hint)),
                ])
            })))
            traces.append(.object(entry))
            for finding in trace.findings {
                findings.append(.object([
                    ("rule", .string(finding.ruleID)),
                    ("severity", .string(finding.severity.rawValue)),
                    ("verdict", .string(finding.verdict.rawValue)),
                    ("controller", finding.controller.map(JSONValue.string) ?? .null),
                    ("t_ns", .int(Int64(clamping: finding.timestamp))),
                    ("time", .string(trace.time(finding.timestamp))),
                    ("event", .int(Int64(clamping: finding.ordinal))),
                    ("callback", finding.callback.map(JSONValue.string) ?? .null),
                    ("message", .string(finding.message)),
                    ("related", .array(finding.related.map { related in
                        .object([
                            ("event", .int(Int64(clamping: related.ordinal))),
                            ("t_ns", .int(Int64(clamping: related.timestamp))),
                            ("time", .string(trace.time(related.timestamp))),
                            ("message", .string(related.message)),
                            ("line", trace.inputLine(of: related.ordinal).map { .int(Int64(clamping: $0)) } ?? .null),
                        ])
                    })),
                    ("trace", .string(trace.path)),
                    ("line", trace.inputLine(of: finding.ordinal).map { .int(Int64(clamping: $0)) } ?? .null),
                ]))
            }
        }
        return .object([
            ("traces", .array(traces)),
            ("findings", .array(findings)),
            ("input_problems", .array(report.inputProblems.map { problem in
                .object([
                    ("path", .string(problem.path)),
                    ("severity", .string(problem.severity.rawValue)),
                    ("message", .string(problem.message)),
                    ("line", problem.line.map { .int(Int64(clamping: $0)) } ?? .null),
                    ("byte_offset", problem.byteOffset.map { .int(Int64(clamping: $0)) } ?? .null),
                ])
            })),
            ("summary", .object(countMembers(report) + [("failed", .bool(report.hasFailures))])),
        ])
    }

    /// The run's counts, as the JSON report's `summary` and the NDJSON summary line give them: `traces`,
    /// `events`, `rules`, `findings`, `errors`, `warnings`, `notes`, `inconclusive`.
    static func countMembers(_ report: AuditReport) -> [(String, JSONValue)] {
        let summary = report.summary
        return [
            ("traces", .int(Int64(summary.traces))),
            ("events", .int(Int64(clamping: summary.events))),
            ("rules", .int(Int64(report.rules.count))),
            ("findings", .int(Int64(summary.findings))),
            ("errors", .int(Int64(summary.errors))),
            ("warnings", .int(Int64(summary.warnings))),
            ("notes", .int(Int64(summary.notes))),
            ("inconclusive", .int(Int64(summary.inconclusive))),
        ]
    }
}
