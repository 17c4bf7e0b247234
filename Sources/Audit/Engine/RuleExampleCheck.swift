/// Runs a rule's examples (`RuleDescriptor.examples`) through the audit, each with only that rule at its
/// default settings, and says which do not give what they promise: `lifetrace rules --check`, and the tests.
public enum RuleExampleCheck {
    /// One example that failed: what it expected and what the audit gave.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        public var ruleID: String
        public var title: String
        /// `1 finding (violation, error)`, `no finding`.
        public var expected: String
        public var actual: String

        /// `critical_save_placement: example "draft saved …": expected 1 finding (violation, error), got no finding`.
        public var description: String { "\(ruleID): example \"\(title)\": expected \(expected), got \(actual)" }
    }

    /// The failures among `rule`'s examples (empty: every example gives what it says).
    public static func failures(of rule: Rule) -> [Failure] {
        var failures: [Failure] = []
        let settings = RuleSettings(defaultsOf: rule.descriptor)
        for example in rule.descriptor.examples {
            let session = AuditSession(facts: FactEngine(rules: [{
                (slot: rule.makeSlot(settings), id: rule.id, needs: rule.descriptor.needs)
            }()]))
            for (ordinal, event) in example.events.enumerated() { session.observe(event, ordinal: UInt64(ordinal)) }
            let findings = session.finish().filter { $0.ruleID == rule.id }
            let severity = example.expectedSeverity
            let matches = findings.count == example.expectedFindings
                && findings.allSatisfy { $0.verdict == example.expectedVerdict && (severity == nil || $0.severity == severity) }
            guard !matches else { continue }
            failures.append(Failure(
                ruleID: rule.id, title: example.title,
                expected: describe(count: example.expectedFindings, verdicts: [example.expectedVerdict], severities: severity.map { [$0] } ?? []),
                actual: describe(count: findings.count, verdicts: findings.map(\.verdict), severities: findings.map(\.severity))))
        }
        return failures
    }

    private static func describe(count: Int, verdicts: [Verdict], severities: [Severity]) -> String {
        guard count > 0 else { return "no finding" }
        var kinds: [String] = []
        for verdict in Verdict.allCases where verdicts.contains(verdict) { kinds.append(verdict.rawValue) }
        for severity in Severity.allCases where severities.contains(severity) { kinds.append(severity.rawValue) }
        return "\(count) finding\(count == 1 ? "" : "s") (\(kinds.joined(separator: ", ")))"
    }
}
