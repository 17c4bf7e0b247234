/// Everything one `lifetrace audit` run found, ready for a reporter.
public struct AuditReport: Sendable {
    public var traces: [TraceAudit]
    /// The rules that ran (reporters describe them, e.g. SARIF's `tool.driver.rules`, JUnit's test cases).
    public var rules: [RuleDescriptor]
    /// Whether warnings count as failures (`--strict`).
    public var isStrict: Bool
    /// Inputs that could not be read, or only up to their damage (the audit of such a trace covers a prefix).
    public var inputProblems: [InputProblem]
    /// The analysis category (`audit --category`), or `nil`: SARIF's `automationDetails.id`, so GitHub keeps the
    /// alerts of several audits in one workflow apart.
    public var category: String?
    /// The rules that did not run because the configuration leaves them off (`disabled_rules`, or an opt-in rule
    /// not in `opt_in_rules`): JUnit lists them as skipped test cases.
    public var disabledRules: [RuleDescriptor] = []

    public init(traces: [TraceAudit], rules: [RuleDescriptor], isStrict: Bool = false, inputProblems: [InputProblem] = []) {
        self.traces = traces
        self.rules = rules
        self.isStrict = isStrict
        self.inputProblems = inputProblems
    }

    /// Whether some input could not be read (an `error`-level input problem): the audit is incomplete.
    public var hasUnreadableInput: Bool {
        inputProblems.contains { $0.severity == .error }
    }

    /// Counts by severity and verdict.
    public struct Summary: Sendable, Hashable {
        public var traces = 0
        public var events: UInt64 = 0
        public var errors = 0
        public var warnings = 0
        public var notes = 0
        public var inconclusive = 0

        public var findings: Int { errors + warnings + notes }
    }

    public var summary: Summary {
        var summary = Summary()
        summary.traces = traces.count
        for trace in traces {
            summary.events += trace.eventCount
            for finding in trace.findings {
                switch finding.severity {
                case .error: summary.errors += 1
                case .warning: summary.warnings += 1
                case .note: summary.notes += 1
                }
                if finding.verdict == .inconclusive { summary.inconclusive += 1 }
            }
        }
        return summary
    }

    /// Whether the run fails: an error-level finding, or a warning with `isStrict`.
    public var hasFailures: Bool {
        let summary = summary
        return summary.errors > 0 || (isStrict && summary.warnings > 0)
    }

    /// The descriptor of rule `id`, when it ran.
    public func descriptor(_ id: String) -> RuleDescriptor? {
        rules.first { $0.id == id }
    }
}
