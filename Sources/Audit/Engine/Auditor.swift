import TraceModel

/// Runs a set of rules over traces.
///
/// ```swift
/// let auditor = try Auditor(configuration: .default)
/// let findings = auditor.audit(events)          // or: makeSession(), observe each event, finish()
/// let file = auditor.audit(try TraceReader(path: "app.lifetrace"))   // a trace file, its rules in parallel groups
/// ```
public struct Auditor: Sendable {
    /// The rules that run, with their effective settings, in registry order.
    public let active: [(rule: Rule, settings: RuleSettings)]
    public let configuration: AuditConfiguration

    /// - Parameters:
    ///   - configuration: Which rules run and how; validated against `rules`.
    ///   - rules: The rule registry (default: the built-in rules).
    /// - Throws: `ConfigurationError` when the configuration names an unknown rule or parameter.
    public init(configuration: AuditConfiguration = .default, rules: [Rule] = BuiltinRules.all) throws(ConfigurationError) {
        try configuration.validate(against: rules)
        self.configuration = configuration
        active = rules.filter { configuration.isEnabled($0.descriptor) }.map { ($0, configuration.settings(for: $0.descriptor)) }
    }

    /// A fresh session for one trace.
    public func makeSession() -> AuditSession {
        makeSession(active)
    }

    /// A fresh session of `rules` (some of `active`, in registry order).
    func makeSession(_ rules: [(rule: Rule, settings: RuleSettings)]) -> AuditSession {
        let rules = rules.map { rule, settings in
            (slot: rule.makeSlot(settings), id: rule.id, needs: rule.descriptor.needs)
        }
        return AuditSession(facts: FactEngine(rules: rules))
    }

    /// Audits `events` (ordinals 0, 1, 2, … in sequence order).
    public func audit(_ events: some Sequence<Event>) -> [Finding] {
        let session = makeSession()
        var ordinal: UInt64 = 0
        for event in events {
            session.observe(event, ordinal: ordinal)
            ordinal += 1
        }
        return session.finish()
    }
}
