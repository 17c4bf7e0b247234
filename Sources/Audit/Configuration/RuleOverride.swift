/// What a configuration file changes for one rule.
public struct RuleOverride: Sendable, Hashable {
    /// `true` enables an opt-in rule, `false` disables a rule; `nil` keeps the default.
    public var isEnabled: Bool?
    public var severity: Severity?
    /// Parameter values by name (validated against the rule's `RuleParameter`s).
    public var parameters: [String: ParameterValue]

    public init(isEnabled: Bool? = nil, severity: Severity? = nil, parameters: [String: ParameterValue] = [:]) {
        self.isEnabled = isEnabled
        self.severity = severity
        self.parameters = parameters
    }
}
