/// A rule that had nothing to check in a trace: none of the facts it needs came (`RuleDescriptor.needs`).
public struct IdleRule: Sendable, Hashable {
    public var ruleID: String
    /// The kinds it needs, none of which the trace had.
    public var missing: [FactKind]

    public init(ruleID: String, missing: [FactKind]) {
        self.ruleID = ruleID
        self.missing = missing
    }

    /// `critical_save_placement: no save marks`.
    public var description: String {
        "\(ruleID): no \(missing.map(\.plural).joined(separator: " or "))"
    }
}
