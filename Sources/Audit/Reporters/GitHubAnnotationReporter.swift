/// GitHub Actions workflow commands, one per finding:
/// `::error file=Sources/App/NoteEditorViewController.swift,line=42,title=critical_save_placement::message`; warnings use
/// `::warning`, notes `::notice`. Then the summary as a plain line. Location as in `TraceAudit.location`.
///
/// The `file=` property is the path exactly (GitHub places the annotation by it); a message is text a person
/// reads in the Actions log and on the pull request, so its control and invisible format characters (a
/// right-to-left override in a controller's name) are shown escaped (`String.displayEscaped`), as in the text
/// report.
public enum GitHubAnnotationReporter {
    public static func render(_ report: AuditReport) -> String {
        var out = ""
        for trace in report.traces {
            for finding in trace.findings {
                let command = switch finding.severity {
                case .error: "error"
                case .warning: "warning"
                case .note: "notice"
                }
                let location = trace.location(ordinal: finding.ordinal, source: finding.source)
                var properties = "file=\(escapeProperty(location.file))"
                if let line = location.line { properties += ",line=\(line)" }
                properties += ",title=\(escapeProperty(finding.ruleID))"
                let message = "\(finding.message) (\(trace.path), event \(finding.ordinal), \(trace.time(finding.timestamp)))"
                out += "::\(command) \(properties)::\(escapeData(message.displayEscaped))\n"
            }
        }
        for problem in report.inputProblems {
            let command = problem.severity == .error ? "error" : "warning"
            let line = problem.line.map { ",line=\($0)" } ?? ""
            out += "::\(command) file=\(escapeProperty(problem.path))\(line),title=\(escapeProperty("lifetrace input"))::\(escapeData(problem.message.displayEscaped))\n"
        }
        out += TextReporter.summaryLine(report) + "\n"
        return out
    }

    /// Escapes a command's message: `%`, CR and LF.
    static func escapeData(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case "\r\n": out += "%0D%0A"
            default: out.append(character)
            }
        }
        return out
    }

    /// Escapes a property value: as `escapeData`, plus `:` and `,`.
    public static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingColonsAndCommas()
    }
}

extension String {
    fileprivate func replacingColonsAndCommas() -> String {
        var out = ""
        for character in self {
            switch character {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.append(character)
            }
        }
        return out
    }
}
