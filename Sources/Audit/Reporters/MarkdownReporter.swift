import TraceModel

/// The GitHub Actions job summary (`--format markdown`, and appended to `$GITHUB_STEP_SUMMARY` when it is set):
/// GitHub-flavoured Markdown with every finding, grouped by rule, where the Actions log shows only about ten
/// annotations per step.
///
/// A heading (`## Lifetrace audit`, with the category when given), the summary line, then per rule with findings
/// (most severe first, then by id) a heading `### rule_id — N errors` and a table: location (`file:line` as
/// `TraceAudit.location` gives it), trace place (`path:event N` or `path:LINE`), time, controller, callback, message.
/// Input problems follow in a table of their own, and rules that ran with nothing found are listed in one line.
///
/// Table cells escape `|`, the characters Markdown or HTML would read (`\`, `` ` ``, `*`, `_`, `[`, `]`, `<`, `>`,
/// `&`), and show control characters escaped (`String.displayEscaped`), so text from a trace cannot break the
/// table or inject markup. GitHub limits a step's summary to 1 MiB: past `byteLimit`, the remaining findings are
/// left out and a line says how many.
public enum MarkdownReporter {
    /// GitHub's limit on one step's job summary (docs.github.com, "Adding a job summary"), less room for the last line.
    public static let byteLimit = 1_000_000

    public static func render(_ report: AuditReport) -> String {
        let summary = report.summary
        var out = "## Lifetrace audit" + (report.category.map { " (\(cell($0)))" } ?? "") + "\n\n"
        out += (report.hasFailures ? "**Failed:** " : report.inputProblems.isEmpty ? "**Passed:** " : "**Incomplete:** ")
        out += cell(TextReporter.summaryLine(report)) + "\n\n"

        var byRule: [String: [(TraceAudit, Finding)]] = [:]
        for trace in report.traces {
            for finding in trace.findings { byRule[finding.ruleID, default: []].append((trace, finding)) }
        }
        let ordered = byRule.keys.sorted { lhs, rhs in
            let left = byRule[lhs]!.map { $0.1.severity }.max()!, right = byRule[rhs]!.map { $0.1.severity }.max()!
            return left != right ? left > right : lhs < rhs
        }
        var omitted = 0
        for rule in ordered {
            let findings = byRule[rule]!
            if out.utf8.count > byteLimit {
                omitted += findings.count
                continue
            }
            out += "### `\(rule)` — \(counts(findings.map { $0.1 }))\n\n"
            if let descriptor = report.descriptor(rule) { out += cell(descriptor.summary) + "\n\n" }
            out += "| location | trace | time | controller | callback | message |\n|---|---|---|---|---|---|\n"
            for (trace, finding) in findings {
                if out.utf8.count > byteLimit {
                    omitted += 1
                    continue
                }
                let location = trace.location(ordinal: finding.ordinal, source: finding.source)
                let place = location.line.map { "\(location.file):\($0)" } ?? location.file
                let tracePlace = trace.inputPath(trace.path) + trace.placeSuffix(of: finding.ordinal)
                let severity = finding.verdict == .inconclusive ? "\(finding.severity) (inconclusive)" : finding.severity.rawValue
                out += "| \(cell(place)) | \(cell(tracePlace)) | \(trace.time(finding.timestamp)) | \(cell(finding.controller ?? "")) | "
                out += "\(cell(finding.callback ?? "")) | **\(severity)**: \(cell(finding.message)) |\n"
            }
            out += "\n"
        }
        if omitted > 0 {
            out += "_\(omitted) more finding\(omitted == 1 ? "" : "s") left out: GitHub keeps at most 1 MiB of summary per step; see the full report (`--format sarif` or `json`)._\n\n"
        }
        if !report.inputProblems.isEmpty {
            out += "### Input problems\n\n| input | severity | problem |\n|---|---|---|\n"
            for problem in report.inputProblems {
                out += "| \(cell(report.traces.first?.paths?.input(problem.path) ?? problem.path)) | \(problem.severity) | \(cell(problem.message)) |\n"
            }
            out += "\n"
        }
        let quiet = report.rules.map(\.id).filter { byRule[$0] == nil }
        if !quiet.isEmpty, summary.traces > 0 {
            out += "No findings: " + quiet.map { "`\($0)`" }.joined(separator: ", ") + ".\n"
        }
        return out
    }

    /// `2 errors, 1 warning`.
    static func counts(_ findings: [Finding]) -> String {
        var parts: [String] = []
        for severity in [Severity.error, .warning, .note] {
            let count = findings.filter { $0.severity == severity }.count
            if count > 0 { parts.append("\(count) \(severity)\(count == 1 ? "" : "s")") }
        }
        return parts.joined(separator: ", ")
    }

    /// `text` safe inside a table cell: one line, no Markdown or HTML markup.
    public static func cell(_ text: String) -> String {
        var out = ""
        for character in text.displayEscaped {
            switch character {
            case "|", "\\", "`", "*", "_", "[", "]", "#", "~": out += "\\" + String(character)
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default: out.append(character)
            }
        }
        return out
    }
}
