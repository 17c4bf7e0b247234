/// Everything a person needs to know about a rule: id, severity, parameters, what it protects and how to fix a
/// finding, with examples. `lifetrace rules` prints these; docs/RULES.md is generated from them.
public struct RuleDescriptor: Sendable {
    /// Stable snake_case id, used in configuration files, reports and SARIF `ruleId`.
    public var id: String
    /// A short sentence: what the rule finds.
    public var summary: String
    public var defaultSeverity: Severity
    /// When the rule may report above or below `defaultSeverity` (empty when it never does).
    public var severityNote: String
    /// Whether the rule runs only when the configuration opts in (`opt_in_rules`).
    public var isOptIn: Bool
    public var parameters: [RuleParameter]
    /// One paragraph: the lifecycle contract the rule protects, with its source.
    public var explanation: String
    /// How to fix a finding.
    public var fix: String
    /// The fact kinds of which a trace must have at least one for the rule to have anything to check (empty:
    /// the rule always has): a trace with none of them is reported as idle for it (`IdleRule`).
    public var needs: [FactKind]
    /// At least one triggering and one non-triggering example. Built when read (each read builds them again):
    /// an audit never reads them, and building every rule's example traces was most of an audit's set-up.
    public var examples: [RuleExample] {
        get { makeExamples() }
        set { makeExamples = { newValue } }
    }
    private var makeExamples: @Sendable () -> [RuleExample]

    public init(
        id: String,
        summary: String,
        defaultSeverity: Severity,
        severityNote: String = "",
        isOptIn: Bool = false,
        parameters: [RuleParameter] = [],
        explanation: String,
        fix: String,
        needs: [FactKind] = [],
        examples: @autoclosure @escaping @Sendable () -> [RuleExample]
    ) {
        self.id = id
        self.summary = summary
        self.defaultSeverity = defaultSeverity
        self.severityNote = severityNote
        self.isOptIn = isOptIn
        self.parameters = parameters
        self.explanation = explanation
        self.fix = fix
        self.needs = needs
        makeExamples = examples
    }
}
