/// The output formats of `lifetrace audit --format`.
public enum ReportFormat: String, Sendable, Hashable, CaseIterable {
    /// Compiler-style lines (`path:event N: severity: message (rule_id)`) with details, then a summary.
    case text
    /// One JSON document: `{"traces": […], "findings": […], "summary": {…}}`.
    case json
    /// Newline-delimited JSON, one self-describing record per line (schema `lifetrace.finding/1`,
    /// `NDJSONReporter`), written trace by trace as each trace's audit ends.
    case ndjson
    /// SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.
    case sarif
    /// JUnit XML: a test suite per trace, a test case per rule.
    case junit
    /// GitHub Actions workflow commands (`::error file=…,line=…::message`).
    case github

    /// Renders `report` in this format.
    public func render(_ report: AuditReport) -> String {
        switch self {
        case .text: TextReporter.render(report)
        case .json: JSONReporter.render(report)
        case .ndjson: NDJSONReporter.render(report)
        case .sarif: SARIFReporter.render(report)
        case .junit: JUnitReporter.render(report)
        case .github: GitHubAnnotationReporter.render(report)
        }
    }
}
