import Audit

/// What `FileAuditor.audit(_:)` found in one file.
public struct FileAudit: Sendable {
    /// How the file was read.
    public enum Kind: String, Sendable, Hashable {
        case trace, jsonLines, consoleLog
    }

    public var kind: Kind
    /// The findings (`trace.findings`, in event order), the events read and the time origin.
    public var trace: TraceAudit
    /// Where the input could not be read, or only up to its damage; empty for an input read whole.
    public var problems: [InputProblem]
    /// The rules that ran.
    public var rules: [RuleDescriptor]

    /// Whether every event of the input was read: no damage, nothing undecodable. A partial audit is never clean.
    public var isComplete: Bool { problems.isEmpty }

    public var findings: [Finding] { trace.findings }

    /// The error-level findings.
    public var errors: [Finding] { trace.findings.filter { $0.severity == .error } }

    /// Whether the input was read whole and has no error-level finding: what a CI test asserts.
    public var passes: Bool { isComplete && errors.isEmpty }

    /// The audit as a report, for any reporter (`ReportFormat.render`, `TextReporter`, `SARIFReporter`, …).
    public var report: AuditReport {
        AuditReport(traces: [trace], rules: rules, inputProblems: problems)
    }
}
