import TraceModel

/// SARIF 2.1.0 (OASIS "Static Analysis Results Interchange Format", version 2.1.0, errata 01), shaped for GitHub
/// code scanning (docs.github.com, "SARIF support for code scanning"): `version` and `$schema`; one run whose
/// `tool.driver` has `name`, `version` and every rule that ran in `rules`; `automationDetails.id` from the report's
/// `category` (`--category`, so several audits in one workflow keep their alerts apart); and per finding a result.
///
/// A result: `ruleId`, `ruleIndex`, `level` (`error`, `warning`, `note`), `message.text` linking each related
/// location (`[event 9 at 5.904 s](1)`, SARIF §3.11.6), one location, `relatedLocations` and
/// `partialFingerprints.primaryLocationLineHash`.
///
/// The location is a committed file, named relative to the repository root (`TraceAudit.paths`; a `file://` URI
/// outside it): the event's recorded source (the Swift line of a recorded mark, or an imported console log's
/// line) when it has one, else the line of a JSON Lines input, else the trace file itself (line 1: a `.lifetrace`
/// file has no lines). Its `logicalLocations` name the controller's type (a `type`) and the callback (a
/// `function` in it), which is all there is for a callback seen only through swizzling. When the primary location
/// is a source file, the trace event is a related location too. Nothing is written beside the trace.
///
/// The fingerprint is `HASH:N`, as GitHub keeps `primaryLocationLineHash`: HASH is 16 hex digits of FNV-1a over the
/// rule id, the controller's type (its name without `#serial`), the callback and the key (the names the message
/// quotes: mark keys, timer ids, scene names) — never times, serials or ordinals — and N counts results with the
/// same HASH in the same file, from 1, in report order. So an alert survives a re-recorded trace and an edit that
/// moves the line.
public enum SARIFReporter {
    public static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    public static let version = "2.1.0"
    public static let toolName = "lifetrace"
    public static let toolVersion = "0.1.0"
    /// GitHub code scanning's limit on a rule's `fullDescription.text`.
    public static let fullDescriptionLimit = 1024

    public static func render(_ report: AuditReport) -> String {
        document(report).serialized(pretty: true) + "\n"
    }

    public static func document(_ report: AuditReport) -> JSONValue {
        let ruleIndex = Dictionary(report.rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var results: [JSONValue] = []
        var occurrences: [String: Int] = [:]
        for trace in report.traces {
            for finding in trace.findings {
                let location = trace.location(ordinal: finding.ordinal, source: finding.source)
                var related: [JSONValue] = []
                var links: [String] = []
                for event in finding.related {
                    let id = related.count + 1
                    let text = "event \(event.ordinal) at \(trace.time(event.timestamp))"
                    related.append(relatedLocation(id: id, trace.location(ordinal: event.ordinal, source: event.source), text + ": " + event.message))
                    links.append("[\(escapeLinkText(text))](\(id))")
                }
                var placement = "\(trace.inputPath(trace.path)), event \(finding.ordinal) at \(trace.time(finding.timestamp))"
                if location.file != trace.inputPath(trace.path) && !trace.readsJSONLInput {
                    // The primary location is a source file: the trace event is a related location of its own.
                    let id = related.count + 1
                    related.append(relatedLocation(
                        id: id, trace.location(ordinal: finding.ordinal, source: nil), "the trace event: \(placement)"))
                    placement = "[\(escapeLinkText(placement))](\(id))"
                } else {
                    placement = escapeLinkText(placement)
                }
                var text = escapeLinkText(finding.message)
                if !links.isEmpty { text += " Related: " + links.joined(separator: ", ") + "." }
                text += " (" + placement + ")"

                let hash = fingerprint(fingerprintParts(finding))
                let occurrenceKey = location.file + "\u{1F}" + hash
                let occurrence = (occurrences[occurrenceKey] ?? 0) + 1
                occurrences[occurrenceKey] = occurrence

                var result: [(String, JSONValue)] = [("ruleId", .string(finding.ruleID))]
                if let index = ruleIndex[finding.ruleID] { result.append(("ruleIndex", .int(Int64(index)))) }
                var primary: [(String, JSONValue)] = [("physicalLocation", physicalLocation(location))]
                if let logical = logicalLocations(finding) { primary.append(("logicalLocations", logical)) }
                result += [
                    ("level", .string(finding.severity.rawValue)),
                    ("message", .object([("text", .string(text))])),
                    ("locations", .array([.object(primary)])),
                ]
                if !related.isEmpty { result.append(("relatedLocations", .array(related))) }
                result.append(("partialFingerprints", .object([("primaryLocationLineHash", .string("\(hash):\(occurrence)"))])))
                result.append(("properties", .object([
                    ("verdict", .string(finding.verdict.rawValue)),
                    ("trace", .string(trace.inputPath(trace.path))),
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
        var run: [(String, JSONValue)] = [("tool", .object([("driver", driver)]))]
        if let category = report.category {
            // SARIF §3.17.4 / GitHub: an id ending in "/" is a category without a run id.
            run.append(("automationDetails", .object([("id", .string(category.hasSuffix("/") ? category : category + "/"))])))
        }
        run += [
            ("invocations", .array([invocation(report)])),
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .array(results)),
        ]
        return .object([
            ("$schema", .string(schema)),
            ("version", .string(version)),
            ("runs", .array([.object(run)])),
        ])
    }

    /// What the fingerprint hashes: rule id, controller type, callback, key.
    static func fingerprintParts(_ finding: Finding) -> [String] {
        [finding.ruleID, controllerType(finding.controller) ?? "", finding.callback ?? "", quotedNames(finding.message).joined(separator: "\u{1E}")]
    }

    /// `NoteEditorViewController#2` → `NoteEditorViewController`: the display name without its serial.
    static func controllerType(_ controller: String?) -> String? {
        guard let controller else { return nil }
        guard let hash = controller.lastIndex(of: "#") else { return controller }
        let serial = controller[controller.index(after: hash)...]
        return !serial.isEmpty && serial.allSatisfy { $0.isASCII && $0.isNumber } ? String(controller[..<hash]) : controller
    }

    /// The names a message quotes between single quotes (`'draft'`), in order, each once.
    static func quotedNames(_ message: String) -> [String] {
        var names: [String] = []
        let parts = message.split(separator: "'", omittingEmptySubsequences: false)
        var index = 1
        while index + 1 < parts.count {
            let name = String(parts[index])
            if !names.contains(name) { names.append(name) }
            index += 2
        }
        return names
    }

    /// The controller's type and the callback as logical locations (SARIF §3.33), or `nil` for a finding about the app.
    static func logicalLocations(_ finding: Finding) -> JSONValue? {
        guard let type = controllerType(finding.controller) else { return nil }
        var locations: [JSONValue] = [.object([("name", .string(type)), ("fullyQualifiedName", .string(type)), ("kind", .string("type"))])]
        if let callback = finding.callback {
            locations.append(.object([
                ("name", .string(callback)), ("fullyQualifiedName", .string(type + "." + callback)), ("kind", .string("function")),
                ("parentIndex", .int(0)),
            ]))
        }
        return .array(locations)
    }

    static func relatedLocation(id: Int, _ location: TraceAudit.Location, _ text: String) -> JSONValue {
        .object([
            ("id", .int(Int64(id))),
            ("physicalLocation", physicalLocation(location)),
            ("message", .object([("text", .string(text))])),
        ])
    }

    /// Escapes what SARIF message text reads as link syntax (§3.11.6): `[` and `]` become `\[` and `\]`, and a
    /// backslash is doubled.
    static func escapeLinkText(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "[": out += "\\["
            case "]": out += "\\]"
            default: out.append(character)
            }
        }
        return out
    }

    /// The run's one invocation (SARIF 2.1.0 §3.20): `executionSuccessful` is false when an input could not be
    /// read, and every input problem is a tool execution notification (§3.58) located at its file, so code
    /// scanning does not show a partial audit as a clean run. Each rule that had nothing to check in a trace is a
    /// `note` notification too, with the rule as its `associatedRule` (§3.58.5), located at the trace.
    static func invocation(_ report: AuditReport) -> JSONValue {
        var members: [(String, JSONValue)] = [("executionSuccessful", .bool(!report.hasUnreadableInput))]
        var notifications: [JSONValue] = report.inputProblems.map { problem in
            .object([
                ("level", .string(problem.severity.rawValue)),
                ("message", .object([("text", .string(problem.message))])),
                ("locations", .array([.object([("physicalLocation", problemLocation(problem, paths: report.traces.first?.paths))])])),
            ])
        }
        let ruleIndex = Dictionary(report.rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for trace in report.traces {
            let file = trace.paths?.input(trace.path) ?? trace.path
            let location = JSONValue.object([("artifactLocation", .object([("uri", .string(RepositoryPaths.uri(file)))]))])
            for idle in trace.idleRules {
                var rule: [(String, JSONValue)] = [("id", .string(idle.ruleID))]
                if let index = ruleIndex[idle.ruleID] { rule.append(("index", .int(Int64(index)))) }
                notifications.append(.object([
                    ("level", .string("note")),
                    ("message", .object([("text", .string("\(idle.ruleID) had nothing to check: \(idle.absence); \(idle.hint)"))])),
                    ("associatedRule", .object(rule)),
                    ("locations", .array([.object([("physicalLocation", location)])])),
                ]))
            }
        }
        if !notifications.isEmpty {
            members.append(("toolExecutionNotifications", .array(notifications)))
        }
        return .object(members)
    }

    /// The file of an input problem, with the line (a JSON Lines input) or byte offset (a trace, SARIF 2.1.0
    /// §3.30.10) where it stops being readable, when known.
    static func problemLocation(_ problem: InputProblem, paths: RepositoryPaths?) -> JSONValue {
        let file = paths?.input(problem.path) ?? problem.path
        var members: [(String, JSONValue)] = [("artifactLocation", .object([("uri", .string(RepositoryPaths.uri(file)))]))]
        if let line = problem.line {
            members.append(("region", .object([("startLine", .int(Int64(clamping: line)))])))
        } else if let offset = problem.byteOffset {
            members.append(("region", .object([("byteOffset", .int(Int64(clamping: offset)))])))
        }
        return .object(members)
    }

    static func ruleDescriptor(_ rule: RuleDescriptor) -> JSONValue {
        let name = rule.id.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        var parameters = ""
        if !rule.parameters.isEmpty {
            parameters = "\n\nParameters: " + rule.parameters.map { "\($0.name) (\($0.unit.isEmpty ? $0.kind.rawValue : $0.unit), default \($0.defaultValue)): \($0.summary)" }.joined(separator: " ")
        }
        let help = "\(rule.explanation)\n\nFix: \(rule.fix)" + parameters
        let markdown = "\(rule.explanation)\n\n**Fix:** \(rule.fix)" + parameters
        return .object([
            ("id", .string(rule.id)),
            ("name", .string(name)),
            ("shortDescription", .object([("text", .string(rule.summary))])),
            ("fullDescription", .object([("text", .string(shortened(rule.explanation, to: fullDescriptionLimit)))])),
            ("help", .object([("text", .string(help)), ("markdown", .string(markdown))])),
            ("defaultConfiguration", .object([("level", .string(rule.defaultSeverity.rawValue))])),
            ("properties", .object([("tags", .array([.string("lifecycle"), .string("uikit")]))])),
        ])
    }

    /// `text` when it has at most `limit` characters; else its longest prefix of whole sentences within the limit,
    /// or, without a sentence end, its words within `limit − 1` characters and `…`.
    public static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let prefix = Array(text.prefix(limit + 1))
        if let end = prefix.indices.dropLast().last(where: { prefix[$0] == "." && prefix[$0 + 1] == " " }) {
            return String(prefix[...end])
        }
        let words = text.prefix(limit - 1)
        let cut = words.lastIndex(of: " ").map { words[..<$0] } ?? words
        return String(cut) + "…"
    }

    static func physicalLocation(_ location: TraceAudit.Location) -> JSONValue {
        .object([
            ("artifactLocation", .object([("uri", .string(RepositoryPaths.uri(location.file)))])),
            ("region", .object([("startLine", .int(Int64(clamping: location.line ?? 1)))])),
        ])
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
