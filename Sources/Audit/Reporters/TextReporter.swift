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
///
/// With an enabled `style` (the command line's `--color`, on a terminal), each finding's severity and rule id,
/// and the `note` of a trace's nothing-to-check line, are coloured; the words are the same.
public enum TextReporter {
    public static func render(_ report: AuditReport, style: TerminalStyle = .plain) -> String {
        var out = ""
        for trace in report.traces {
            let path = trace.path.displayEscaped
            for finding in trace.findings {
                var label = style.apply(role(of: finding.severity), to: finding.severity.rawValue)
                if finding.verdict == .inconclusive { label += " (inconclusive)" }
                let rule = style.apply(.identifier, to: finding.ruleID)
                out += "\(path)\(trace.placeSuffix(of: finding.ordinal)): \(label): \(finding.message.displayEscaped) (\(rule))\n"
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
            if !trace.idleRules.isEmpty {
                let ids = trace.idleRules.map(\.ruleID).joined(separator: ", ")
                out += "\(path): \(style.apply(.note, to: "note")): nothing to check for \(trace.idleRules.count) of \(report.rules.count) rules: \(ids)\n"
            }
        }
        out += idleRulesSection(report)
        out += summaryLine(report) + "\n"
        return out
    }

    /// The colour of a severity's word.
    public static func role(of severity: Severity) -> TerminalStyle.Role {
        switch severity {
        case .error: .error
        case .warning: .warning
        case .note: .note
        }
    }

    /// Each rule that had nothing to check in some trace, once, with what it missed and how a trace comes to
    /// have it:
    /// `  critical_save_placement: no save marks (in 3 of 5 traces): add save marks with 'lifetrace import --mark' …`.
    static func idleRulesSection(_ report: AuditReport) -> String {
        var order: [String] = []
        var first: [String: IdleRule] = [:]
        var count: [String: Int] = [:]
        for trace in report.traces {
            for idle in trace.idleRules {
                if first[idle.ruleID] == nil {
                    order.append(idle.ruleID)
                    first[idle.ruleID] = idle
                }
                count[idle.ruleID, default: 0] += 1
            }
        }
        guard !order.isEmpty else { return "" }
        var out = "nothing to check, and why:\n"
        for id in order {
            guard let idle = first[id], let times = count[id] else { continue }
            let scope = report.traces.count == 1 ? "" : " (in \(times) of \(report.traces.count) traces)"
            out += "  \(id): \(idle.absence)\(scope): \(idle.hint)\n"
        }
        return out
    }

    /// The rules that had nothing to check in every trace audited.
    static func rulesIdleEverywhere(_ report: AuditReport) -> Int {
        guard let first = report.traces.first else { return 0 }
        var idle = Set(first.idleRules.map(\.ruleID))
        for trace in report.traces.dropFirst() { idle.formIntersection(trace.idleRules.map(\.ruleID)) }
        return idle.count
    }

    /// `audited 2 traces (1234 events) with 8 rules: 2 errors, 1 warning, 0 notes (1 inconclusive)`; when some
    /// rules had nothing to check in any of the traces, `with 15 rules, 9 of which had nothing to check: …`.
    public static func summaryLine(_ report: AuditReport) -> String {
        let summary = report.summary
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        var line = "audited \(plural(summary.traces, "trace")) (\(summary.events) events) with \(plural(report.rules.count, "rule"))"
        let idle = rulesIdleEverywhere(report)
        if idle > 0 {
            line += ", \(idle) of which had nothing to check\(summary.traces > 1 ? " in any of them" : "")"
        }
        line += ": "
        line += "\(plural(summary.errors, "error")), \(plural(summary.warnings, "warning")), \(plural(summary.notes, "note"))"
        if summary.inconclusive > 0 { line += " (\(summary.inconclusive) inconclusive)" }
        return line
    }
}
