import TraceModel

/// The human report: one compiler-style line per finding, details indented under it, then a summary.
///
/// A finding in a `.lifetrace` file is placed by its event's ordinal (`FILE:event N`, the `#N` of `lifetrace
/// events`); in a JSON Lines input, by the line that holds the event (`FILE:LINE`), as SARIF and GitHub do.
///
/// ```
/// traces/notes.lifetrace:event 10: error: critical save of 'draft' at 5.904 s happens inside … (critical_save_placement)
///     at 5.904 s in NoteEditorViewController#2, callback viewWillDisappear
///     related: event 9 at 5.903 s: NoteEditorViewController#2 viewWillDisappear at 5.903 s
///     fix: Move the critical save to viewDidDisappear …
/// ```
///
/// Text from the trace (its path, messages, controller names, mark keys, a log's file name) is written out with
/// `String.displayEscaped`: a newline cannot split a finding's line or forge another, and control characters,
/// bidirectional overrides and zero-width characters are shown as `\n`, `\u{1B}`, `\u{202E}`. The JSON, SARIF
/// and JUnit reports keep that text exactly.
public enum TextReporter {
    public static func render(_ report: AuditReport) -> String {
        var out = ""
        for trace in report.traces {
            let path = trace.path.displayEscaped
            for finding in trace.findings {
                let label = finding.verdict == .inconclusive ? "\(finding.severity) (inconclusive)" : finding.severity.rawValue
                out += "\(path)\(trace.placeSuffix(of: finding.ordinal)): \(label): \(finding.message.displayEscaped) (\(finding.ruleID))\n"
                var context = "    at \(trace.time(finding.timestamp)) (t=\(finding.timestamp) ns)"
                if let controller = finding.controller { context += " in \(controller.displayEscaped)" }
                if let callback = finding.callback { context += ", callback \(callback)" }
                out += context + "\n"
                if let file = finding.source?.file, let line = finding.source?.line {
                    out += "    source: \(file.displayEscaped):\(line)\n"
                }
                for related in finding.related {
                    out += "    related: \(trace.placeWords(of: related.ordinal)) at \(trace.time(related.timestamp)): \(related.message.displayEscaped)\n"
                }
                if let descriptor = report.descriptor(finding.ruleID) {
                    out += "    fix: \(descriptor.fix)\n"
                }
            }
        }
        out += summaryLine(report) + "\n"
        return out
    }

    /// `audited 2 traces (1234 events) with 8 rules: 2 errors, 1 warning, 0 notes (1 inconclusive)`.
    public static func summaryLine(_ report: AuditReport) -> String {
        let summary = report.summary
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        var line = "audited \(plural(summary.traces, "trace")) (\(summary.events) events) with \(plural(report.rules.count, "rule")): "
        line += "\(plural(summary.errors, "error")), \(plural(summary.warnings, "warning")), \(plural(summary.notes, "note"))"
        if summary.inconclusive > 0 { line += " (\(summary.inconclusive) inconclusive)" }
        return line
    }
}
