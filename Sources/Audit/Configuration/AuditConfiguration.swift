/// Which rules run and how: the contents of a `.lifetrace.json` (see `AuditConfiguration+JSON.swift` and
/// docs/RULES.md), in the spirit of `.swiftlint.yml`.
public struct AuditConfiguration: Sendable, Hashable {
    /// Rules that do not run.
    public var disabledRules: Set<String>
    /// Opt-in rules that run.
    public var optInRules: Set<String>
    /// Per-rule changes, by rule id.
    public var overrides: [String: RuleOverride]
    /// The severity of inconclusive findings (a monitor still waiting when the trace ended). Default `note`.
    public var inconclusiveSeverity: Severity
    /// The file the configuration came from, for messages; `nil` for the defaults.
    public var origin: String?

    public init(
        disabledRules: Set<String> = [],
        optInRules: Set<String> = [],
        overrides: [String: RuleOverride] = [:],
        inconclusiveSeverity: Severity = .note,
        origin: String? = nil
    ) {
        self.disabledRules = disabledRules
        self.optInRules = optInRules
        self.overrides = overrides
        self.inconclusiveSeverity = inconclusiveSeverity
        self.origin = origin
    }

    /// Every rule enabled by default, default severities and parameters.
    public static let `default` = AuditConfiguration()

    /// Whether `rule` runs under this configuration.
    public func isEnabled(_ rule: RuleDescriptor) -> Bool {
        if let explicit = overrides[rule.id]?.isEnabled { return explicit }
        if disabledRules.contains(rule.id) { return false }
        return !rule.isOptIn || optInRules.contains(rule.id)
    }

    /// `rule`'s effective settings: defaults, then this configuration's overrides.
    public func settings(for rule: RuleDescriptor) -> RuleSettings {
        var settings = RuleSettings(defaultsOf: rule, inconclusiveSeverity: inconclusiveSeverity)
        if let override = overrides[rule.id] {
            if let severity = override.severity {
                settings.severity = severity
                settings.isSeverityConfigured = true
            }
            for (name, value) in override.parameters { settings.parameters[name] = value }
        }
        return settings
    }

    /// Checks every rule id and parameter against `rules`.
    ///
    /// - Throws: `ConfigurationError` naming the first unknown rule id or parameter, or a parameter of the wrong kind.
    public func validate(against rules: [Rule]) throws(ConfigurationError) {
        // The registry is searched linearly and its id list is built only for a message: a dictionary of the
        // descriptors and the joined ids, built up front, cost ≈ 0.8 M instructions per audit (engine6).
        func known(_ id: String) -> RuleDescriptor? { rules.first { $0.id == id }?.descriptor }
        func ids() -> String { rules.map(\.id).joined(separator: ", ") }
        func checkList(_ key: String, _ list: Set<String>) throws(ConfigurationError) {
            for id in list.sorted() where known(id) == nil {
                throw ConfigurationError(file: origin, keyPath: key, message: "unknown rule '\(id)' (rules: \(ids()))")
            }
        }
        try checkList("disabled_rules", disabledRules)
        try checkList("opt_in_rules", optInRules)
        // By sorted keys, not `sorted(by:)` of the pairs: an array of (key, value) tuples is a generic type made at
        // run time from its mangled name (≈ 0.4 M instructions for the first audit of a process, mostly conformance
        // lookups).
        for id in overrides.keys.sorted() {
            guard let override = overrides[id] else { continue }
            guard let descriptor = known(id) else {
                throw ConfigurationError(file: origin, keyPath: "rules", message: "unknown rule '\(id)' (rules: \(ids()))")
            }
            for name in override.parameters.keys.sorted() {
                guard let value = override.parameters[name] else { continue }
                guard let parameter = descriptor.parameters.first(where: { $0.name == name }) else {
                    throw ConfigurationError(file: origin, keyPath: "rules.\(id)", message: "unknown key '\(name)' (\(Self.knownRuleKeys(descriptor)))")
                }
                let matches: Bool = switch (parameter.kind, value) {
                case (.duration, .duration), (.count, .count), (.flag, .flag), (.names, .names): true
                default: false
                }
                if !matches {
                    throw ConfigurationError(file: origin, keyPath: "rules.\(id).\(name)", message: "expected a \(parameter.kind.rawValue)")
                }
            }
        }
    }

    static func knownRuleKeys(_ descriptor: RuleDescriptor) -> String {
        "known: " + (["enabled", "severity"] + descriptor.parameters.map(\.name)).joined(separator: ", ")
    }
}
