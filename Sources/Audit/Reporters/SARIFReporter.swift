/// SARIF 2.1.0 (OASIS "Static Analysis Results Interchange Format", version 2.1.0), shaped for GitHub code
/// scanning: `version` and `$schema`; one run whose `tool.driver` has `name`, `version` and
/// every rule that ran in `rules` (id, name, short and full description, help, default level); and per
/// finding a result with `ruleId`, `ruleIndex`, `level` (`error`, `warning`, `note`), `message.text`, one
/// location with a `physicalLocation` (`artifactLocation.uri` relative to the working directory, `region.startLine`),
/// `relatedLocations` for the related events, and `partialFingerprints` so re-runs match alerts.
///
/// The physical location is the event's recorded source (instrumented call or imported console-log line) when
/// it has one, else the line of the JSONL export written beside the trace (`TraceAudit.location`).
public enum SARIFReporter {
    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    public static let version = "2.1.0"
    public static let toolName = "lifetrace"
    public static let toolVersion = "0.1.0"

    public static func render(_ report: AuditReport) -> String {
        document(report).serialized(pretty: true) + "\n"
    }

    public static func document(_ report: AuditReport) -> JSONValue {
        let ruleIndex = Dictionary(report.rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var results: [JSONValue] = []
        for trace in report.traces {
            for finding in trace.findings {
                let location = trace.location(ordinal: finding.ordinal, source: finding.source)
                var related: [JSONValue] = []
                for (index, event) in finding.related.enumerated() {
                    related.append(.object([
                        ("id", .int(Int64(index + 1))),
                        ("physicalLocation", physicalLocation(trace.location(ordinal: event.ordinal, source: event.source))),
                        ("message", .object([("text", .string("event \(event.ordinal) at \(trace.time(event.timestamp)): \(event.message)"))])),
                    ]))
                }
                var result: [(String, JSONValue)] = [
                    ("ruleId", .string(finding.ruleID)),
                ]
                if let index = ruleIndex[finding.ruleID] { result.append(("ruleIndex", .int(Int64(index)))) }
                result += [
                    ("level", .string(finding.severity.rawValue)),
                    ("message", .object([("text", .string("\(finding.message) [\(trace.path), event \(finding.ordinal), \(trace.time(finding.timestamp))]"))])),
                    ("locations", .array([.object([("physicalLocation", physicalLocation(location))])])),
                ]
                if !related.isEmpty { result.append(("relatedLocations", .array(related))) }
                result.append(("partialFingerprints", .object([
                    ("lifetraceFinding/v1", .string(fingerprint([finding.ruleID, trace.path, finding.controller ?? "", finding.callback ?? "", String(finding.ordinal)]))),
                ])))
                result.append(("properties", .object([
                    ("verdict", .string(finding.verdict.rawValue)),
                    ("trace", .string(trace.path)),
                    ("event", .int(Int64(clamping: finding.ordinal))),
                    ("t_ns", .int(Int64(clamping: finding.timestamp))),
                    ("controller", finding.controller.map(JSONValue.string) ?? .null),
                    ("callback", finding.callback.map(JSONValue.string) ?? .null),
                ])))
                results.append(.object(result))
            }
        }
        let driver: JSONValue = .object([
            ("name", .string(toolName)),
            ("version", .string(toolVersion)),
            ("semanticVersion", .string(toolVersion)),
            ("rules", .array(report.rules.map(ruleDescriptor))),
        ])
        return .object([
            ("$schema", .string(schema)),
            ("version", .string(version)),
            ("runs", .array([.object([
                ("tool", .object([("driver", driver)])),
                ("invocations", .array([invocation(report)])),
                ("columnKind", .string("unicodeCodePoints")),
                ("results", .array(results)),
            ])])),
        ])
    }

    /// The run's one invocation (SARIF 2.1.0 §3.20): `executionSuccessful` is false when an input could not be
    /// read, and every input problem is a tool execution notification (§3.58) located at its file, so code
    /// scanning does not show a partial audit as a clean run.
    static func invocation(_ report: AuditReport) -> JSONValue {
        var members: [(String, JSONValue)] = [("executionSuccessful", .bool(!report.hasUnreadableInput))]
        if !report.inputProblems.isEmpty {
            members.append(("toolExecutionNotifications", .array(report.inputProblems.map { problem in
                .object([
                    ("level", .string(problem.severity.rawValue)),
                    ("message", .object([("text", .string(problem.message))])),
                    ("locations", .array([.object([("physicalLocation", problemLocation(problem))])])),
                ])
            })))
        }
        return .object(members)
    }

    /// The file of an input problem, with the line (a JSON Lines input) or byte offset (a trace, SARIF 2.1.0
    /// §3.30.10) where it stops being readable, when known.
    static func problemLocation(_ problem: InputProblem) -> JSONValue {
        var members: [(String, JSONValue)] = [("artifactLocation", .object([("uri", .string(uri(problem.path)))]))]
        if let line = problem.line {
            members.append(("region", .object([("startLine", .int(Int64(clamping: line)))])))
        } else if let offset = problem.byteOffset {
            members.append(("region", .object([("byteOffset", .int(Int64(clamping: offset)))])))
        }
        return .object(members)
    }

    static func ruleDescriptor(_ rule: RuleDescriptor) -> JSONValue {
        let name = rule.id.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        var help = "\(rule.fix)"
        if !rule.parameters.isEmpty {
            help += " Parameters: " + rule.parameters.map { "\($0.name) (\($0.unit.isEmpty ? $0.kind.rawValue : $0.unit), default \($0.defaultValue)): \($0.summary)" }.joined(separator: " ")
        }
        return .object([
            ("id", .string(rule.id)),
            ("name", .string(name)),
            ("shortDescription", .object([("text", .string(rule.summary))])),
            ("fullDescription", .object([("text", .string(rule.explanation))])),
            ("help", .object([("text", .string(help)), ("markdown", .string("**Fix:** \(help)"))])),
            ("defaultConfiguration", .object([("level", .string(rule.defaultSeverity.rawValue))])),
            ("properties", .object([("tags", .array([.string("lifecycle"), .string("uikit")]))])),
        ])
    }

    static func physicalLocation(_ location: TraceAudit.Location) -> JSONValue {
        .object([
            ("artifactLocation", .object([("uri", .string(uri(location.file)))])),
            ("region", .object([("startLine", .int(Int64(clamping: location.line ?? 1)))])),
        ])
    }

    /// A relative URI reference for `path`: separators kept, characters outside the URI unreserved/sub-delims
    /// set percent-encoded.
    static func uri(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let scalar = Unicode.Scalar(byte)
            let safe = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "-._~/!$&'()*+,;=:@".unicodeScalars.contains(scalar)
            if safe {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// FNV-1a (64-bit) of the parts joined by U+001F, as 16 hex digits.
    static func fingerprint(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{1F}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
