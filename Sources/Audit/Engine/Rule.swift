/// A rule as the registry holds it: its descriptor and a factory for its value for one trace.
public struct Rule: Sendable {
    public var descriptor: RuleDescriptor
    private let make: @Sendable (RuleSettings) -> any RuleSlot

    /// The rule `type`; `make` builds its value for one trace from its settings.
    public init<R: AuditRule>(_ type: R.Type, make: @escaping @Sendable (RuleSettings) -> R) {
        descriptor = R.descriptor
        self.make = { TypedRuleSlot(make($0)) }
    }

    /// A rule whose descriptor is a value rather than its type's (`AuditRule.descriptor`): a rule compiled at run
    /// time from a rule file (module `RuleLanguage`), whose id, severity and examples come from that file.
    public init(descriptor: RuleDescriptor, make: @escaping @Sendable (RuleSettings) -> any AuditRule) {
        self.descriptor = descriptor
        self.make = { Self.slot(make($0)) }
    }

    private static func slot(_ rule: some AuditRule) -> any RuleSlot {
        TypedRuleSlot(rule)
    }

    public var id: String { descriptor.id }

    /// A fresh value of the rule for one trace.
    func makeSlot(_ settings: RuleSettings) -> any RuleSlot {
        make(settings)
    }
}
