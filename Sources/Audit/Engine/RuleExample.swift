import TraceModel

/// A small trace that shows what a rule finds (or does not find). Every example is also a test: the audit of
/// `events` with default settings must give exactly `expectedFindings` findings of the rule, all with
/// `expectedVerdict`.
public struct RuleExample: Sendable {
    /// One line: the situation, e.g. `draft saved only in viewWillDisappear; the pop is cancelled`.
    public var title: String
    public var events: [Event]
    /// How many findings of the rule the audit must give (0 for a non-triggering example).
    public var expectedFindings: Int
    /// The verdict of those findings.
    public var expectedVerdict: Verdict
    /// The severity of those findings under default settings, when there are any.
    public var expectedSeverity: Severity?

    public init(
        title: String,
        events: [Event],
        expectedFindings: Int,
        expectedVerdict: Verdict = .violation,
        expectedSeverity: Severity? = nil
    ) {
        self.title = title
        self.events = events
        self.expectedFindings = expectedFindings
        self.expectedVerdict = expectedVerdict
        self.expectedSeverity = expectedSeverity
    }

    /// Whether the example triggers the rule.
    public var triggers: Bool { expectedFindings > 0 }
}
