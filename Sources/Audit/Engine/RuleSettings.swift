/// A rule's effective settings after the configuration file: severity and parameter values.
public struct RuleSettings: Sendable, Hashable {
    /// The severity of the rule's violations (a rule may raise it for aggravated cases; see its explanation).
    public var severity: Severity
    /// Whether the configuration set `severity` explicitly (rules then do not escalate on their own).
    public var isSeverityConfigured: Bool
    /// The severity of the rule's inconclusive findings.
    public var inconclusiveSeverity: Severity
    /// Every parameter's value, by name (defaults filled in).
    public var parameters: [String: ParameterValue]

    public init(
        severity: Severity,
        isSeverityConfigured: Bool = false,
        inconclusiveSeverity: Severity = .note,
        parameters: [String: ParameterValue] = [:]
    ) {
        self.severity = severity
        self.isSeverityConfigured = isSeverityConfigured
        self.inconclusiveSeverity = inconclusiveSeverity
        self.parameters = parameters
    }

    /// The defaults of `descriptor`.
    public init(defaultsOf descriptor: RuleDescriptor, inconclusiveSeverity: Severity = .note) {
        var parameters: [String: ParameterValue] = [:]
        for parameter in descriptor.parameters { parameters[parameter.name] = parameter.defaultValue }
        self.init(severity: descriptor.defaultSeverity, inconclusiveSeverity: inconclusiveSeverity, parameters: parameters)
    }

    /// The duration parameter `name` in nanoseconds, or `fallback` when it is missing or of another kind.
    public func duration(_ name: String, default fallback: UInt64) -> UInt64 {
        if case .duration(let value)? = parameters[name] { return value }
        return fallback
    }

    /// The flag parameter `name`, or `fallback`.
    public func flag(_ name: String, default fallback: Bool) -> Bool {
        if case .flag(let value)? = parameters[name] { return value }
        return fallback
    }

    /// The name-list parameter `name`, or `fallback`.
    public func names(_ name: String, default fallback: [String]) -> [String] {
        if case .names(let value)? = parameters[name] { return value }
        return fallback
    }

    /// The count parameter `name`, or `fallback`.
    public func count(_ name: String, default fallback: Int) -> Int {
        if case .count(let value)? = parameters[name] { return value }
        return fallback
    }
}
