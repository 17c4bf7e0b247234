/// One rule's value for one trace, held by reference so that the engine's calls mutate it in place (a value
/// stored as `any AuditRule` is projected out of its existential box and checked for uniqueness on every
/// mutating call).
protocol RuleSlot: AnyObject {
    /// The rule's `AuditRule.facts`.
    var facts: [FactKind] { get }
    func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding])
    func finish(_ replay: ReplayView, _ findings: inout [Finding])
}

/// The slot of a rule of type `R`. Unchecked exclusivity: one thread, and `rule` is never lent out overlapping.
final class TypedRuleSlot<R: AuditRule>: RuleSlot {
    @exclusivity(unchecked) private var rule: R

    init(_ rule: R) {
        self.rule = rule
    }

    var facts: [FactKind] { rule.facts }

    func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        rule.reduce(fact, replay, &findings)
    }

    func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        rule.finish(replay, &findings)
    }
}
